# Source: https://www.tensorflow.org/guide/advanced_autodiff (tensorflow/docs, site/en/guide/advanced_autodiff.ipynb), "Batch Jacobian"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; setup cell's matplotlib lines dropped (no plot here); the plotting cells (`imshow_zero_center`, `plot_as_patches`) dropped;
#   `tf.random.normal([7, 5])` -> `tf.constant(np.random.default_rng(0).standard_normal([7, 5]), dtype=tf.float32)` (seeded NumPy draw; `import numpy as np` added) (both draws)
import numpy as np

import minitape as tf
# %%
x = tf.constant(np.random.default_rng(0).standard_normal([7, 5]), dtype=tf.float32)

layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
layer2 = tf.keras.layers.Dense(6, activation=tf.nn.elu)

with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
  tape.watch(x)
  y = layer1(x)
  y = layer2(y)

y.shape
# %%
j = tape.jacobian(y, x)
j.shape
# %%
j_sum = tf.reduce_sum(j, axis=2)
print(j_sum.shape)
j_select = tf.einsum('bxby->bxy', j)
print(j_select.shape)
# %%
jb = tape.batch_jacobian(y, x)
jb.shape
# %%
error = tf.reduce_max(abs(jb - j_sum))
assert error < 1e-3
print(error.numpy())
# %%
x = tf.constant(np.random.default_rng(0).standard_normal([7, 5]), dtype=tf.float32)

layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
bn = tf.keras.layers.BatchNormalization()
layer2 = tf.keras.layers.Dense(6, activation=tf.nn.elu)

with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
  tape.watch(x)
  y = layer1(x)
  y = bn(y, training=True)
  y = layer2(y)

j = tape.jacobian(y, x)
print(f'j.shape: {j.shape}')
# %%
jb = tape.batch_jacobian(y, x)
print(f'jb.shape: {jb.shape}')
