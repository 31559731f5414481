# Source: https://www.tensorflow.org/guide/advanced_autodiff (tensorflow/docs, site/en/guide/advanced_autodiff.ipynb), "Jacobians: Tensor source"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; setup cell's matplotlib lines dropped (no plot here); the section's last cell dropped (it prints
#   `delta`, the round-off between two float32 sums, which differs from run to run with the layer's random initial kernel);
#   `tf.random.normal([7, 5])` -> `tf.constant(np.random.default_rng(0).standard_normal([7, 5]), dtype=tf.float32)` (seeded NumPy draw; `import numpy as np` added)
import numpy as np

import minitape as tf
# %%
x = tf.constant(np.random.default_rng(0).standard_normal([7, 5]), dtype=tf.float32)
layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)

with tf.GradientTape(persistent=True) as tape:
  y = layer(x)

y.shape
# %%
layer.kernel.shape
# %%
j = tape.jacobian(y, layer.kernel)
j.shape
