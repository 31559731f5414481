# Source: https://www.tensorflow.org/guide/advanced_autodiff (tensorflow/docs, site/en/guide/advanced_autodiff.ipynb), "Example: Input gradient regularization"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; setup cell's matplotlib lines dropped (no plot here);
#   `tf.random.normal([7, 5])` -> `tf.constant(np.random.default_rng(0).standard_normal([7, 5]), dtype=tf.float32)` (seeded NumPy draw; `import numpy as np` added)
import numpy as np

import minitape as tf
# %%
x = tf.constant(np.random.default_rng(0).standard_normal([7, 5]), dtype=tf.float32)

layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)
# %%
with tf.GradientTape() as t2:
  # The inner tape only takes the gradient with respect to the input,
  # not the variables.
  with tf.GradientTape(watch_accessed_variables=False) as t1:
    t1.watch(x)
    y = layer(x)
    out = tf.reduce_sum(layer(x)**2)
  # 1. Calculate the input gradient.
  g1 = t1.gradient(out, x)
  # 2. Calculate the magnitude of the input gradient.
  g1_mag = tf.norm(g1)

# 3. Calculate the gradient of the magnitude with respect to the model.
dg1_mag = t2.gradient(g1_mag, layer.trainable_variables)
# %%
[var.shape for var in dg1_mag]
