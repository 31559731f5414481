# Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/master/second_edition/chapter03_introduction-to-keras-and-tf.ipynb
#   (fchollet/deep-learning-with-python-notebooks, second_edition/chapter03_introduction-to-keras-and-tf.ipynb), "Constant
#   tensors and variables"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow(.keras) import ...` -> `from minitape(.keras)
#   import ...`; the random tensors' and variable's `print(x)`/`print(v)` -> `print(x.shape, x.dtype)`/`print(v.shape,
#   v.dtype)` (TF's and minitape's unseeded random draws differ)
# %%
import minitape as tf
x = tf.ones(shape=(2, 1))
print(x)
# %%
x = tf.zeros(shape=(2, 1))
print(x)
# %%
x = tf.random.normal(shape=(3, 1), mean=0., stddev=1.)
print(x.shape, x.dtype)
# %%
x = tf.random.uniform(shape=(3, 1), minval=0., maxval=1.)
print(x.shape, x.dtype)
# %%
import numpy as np
x = np.ones(shape=(2, 2))
x[0, 0] = 0.
# %%
v = tf.Variable(initial_value=tf.random.normal(shape=(3, 1)))
print(v.shape, v.dtype)
# %%
v.assign(tf.ones((3, 1)))
# %%
v[0, 0].assign(3.)
# %%
v.assign_add(tf.ones((3, 1)))
