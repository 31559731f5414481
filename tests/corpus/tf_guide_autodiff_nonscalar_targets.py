# Source: https://www.tensorflow.org/guide/autodiff (tensorflow/docs, site/en/guide/autodiff.ipynb), "Gradients of non-scalar targets"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; matplotlib's import and the plotting cell dropped
import numpy as np

import minitape as tf
# %%
x = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as tape:
  y0 = x**2
  y1 = 1 / x

print(tape.gradient(y0, x).numpy())
print(tape.gradient(y1, x).numpy())
# %%
x = tf.Variable(2.0)
with tf.GradientTape() as tape:
  y0 = x**2
  y1 = 1 / x

print(tape.gradient({'y0': y0, 'y1': y1}, x).numpy())
# %%
x = tf.Variable(2.)

with tf.GradientTape() as tape:
  y = x * [3., 4.]

print(tape.gradient(y, x).numpy())
# %%
x = tf.linspace(-10.0, 10.0, 200+1)

with tf.GradientTape() as tape:
  tape.watch(x)
  y = tf.nn.sigmoid(x)

dy_dx = tape.gradient(y, x)
