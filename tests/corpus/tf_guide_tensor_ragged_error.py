# Source: https://www.tensorflow.org/guide/tensor (tensorflow/docs, site/en/guide/tensor.ipynb), "Ragged Tensors"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; only the cells before `tf.ragged` is used
import minitape as tf
import numpy as np
# %%
ragged_list = [
    [0, 1, 2, 3],
    [4, 5],
    [6, 7, 8],
    [9]]
# %%
try:
  tensor = tf.constant(ragged_list)
except Exception as e:
  print(f"{type(e).__name__}: {e}")
