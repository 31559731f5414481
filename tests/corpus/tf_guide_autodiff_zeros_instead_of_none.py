# Source: https://www.tensorflow.org/guide/autodiff (tensorflow/docs, site/en/guide/autodiff.ipynb), "Zeros instead of None"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; setup cell's numpy and matplotlib imports dropped (unused)
import minitape as tf
# %%
x = tf.Variable([2., 2.])
y = tf.Variable(3.)

with tf.GradientTape() as tape:
  z = y**2
print(tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO))
