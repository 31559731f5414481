# Source: https://www.tensorflow.org/guide/autodiff (tensorflow/docs, site/en/guide/autodiff.ipynb), "Gradient tapes"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; matplotlib's import dropped (no plot here)
import numpy as np

import minitape as tf
# %%
x = tf.Variable(3.0)

with tf.GradientTape() as tape:
  y = x**2
# %%
# dy = 2x * dx
dy_dx = tape.gradient(y, x)
dy_dx.numpy()
