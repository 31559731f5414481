# Source: https://www.tensorflow.org/guide/tensor (tensorflow/docs, site/en/guide/tensor.ipynb), "About shapes"
# Changed: `import tensorflow as tf` -> `import minitape as tf`
import minitape as tf
import numpy as np
# %%
rank_4_tensor = tf.zeros([3, 2, 4, 5])
# %%
print("Type of every element:", rank_4_tensor.dtype)
print("Number of axes:", rank_4_tensor.ndim)
print("Shape of tensor:", rank_4_tensor.shape)
print("Elements along axis 0 of tensor:", rank_4_tensor.shape[0])
print("Elements along the last axis of tensor:", rank_4_tensor.shape[-1])
print("Total number of elements (3*2*4*5): ", tf.size(rank_4_tensor).numpy())
# %%
tf.rank(rank_4_tensor)
# %%
tf.shape(rank_4_tensor)
