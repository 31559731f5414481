# Source: https://github.com/ageron/handson-ml3/blob/main/12_custom_models_and_training_with_tensorflow.ipynb (ageron/handson-ml3, 12_custom_models_and_training_with_tensorflow.ipynb), "Tensors and NumPy" and "Type Conversions"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; the first cell of "Tensors and Operations"
#   (defining `t`) comes first
import minitape as tf
# %%
t = tf.constant([[1., 2., 3.], [4., 5., 6.]]) # matrix
t
# %%
import numpy as np

a = np.array([2., 4., 5.])
tf.constant(a)
# %%
t.numpy()
# %%
np.array(t)
# %%
tf.square(a)
# %%
np.square(t)
# %%
try:
    tf.constant(2.0) + tf.constant(40)
except tf.errors.InvalidArgumentError as ex:
    print(ex)
# %%
try:
    tf.constant(2.0) + tf.constant(40., dtype=tf.float64)
except tf.errors.InvalidArgumentError as ex:
    print(ex)
# %%
t2 = tf.constant(40., dtype=tf.float64)
tf.constant(2.0) + tf.cast(t2, tf.float32)
