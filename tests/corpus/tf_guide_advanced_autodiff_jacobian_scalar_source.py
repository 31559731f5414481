# Source: https://www.tensorflow.org/guide/advanced_autodiff (tensorflow/docs, site/en/guide/advanced_autodiff.ipynb), "Jacobians: Scalar source"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; setup cell's matplotlib lines dropped (no plot here); the plotting cell dropped
import minitape as tf
# %%
x = tf.linspace(-10.0, 10.0, 200+1)
delta = tf.Variable(0.0)

with tf.GradientTape() as tape:
  y = tf.nn.sigmoid(x+delta)

dy_dx = tape.jacobian(y, delta)
# %%
print(y.shape)
print(dy_dx.shape)
