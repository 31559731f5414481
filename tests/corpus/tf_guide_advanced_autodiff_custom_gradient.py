# Source: https://www.tensorflow.org/guide/advanced_autodiff (tensorflow/docs, site/en/guide/advanced_autodiff.ipynb), "Custom gradients"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; setup cell's matplotlib lines dropped (no plot here)
import minitape as tf
# %%
# Establish an identity operation, but clip during the gradient pass.
@tf.custom_gradient
def clip_gradients(y):
  def backward(dy):
    return tf.clip_by_norm(dy, 0.5)
  return y, backward

v = tf.Variable(2.0)
with tf.GradientTape() as t:
  output = clip_gradients(v * v)
print(t.gradient(output, v))  # calls "backward", which clips 4 to 2
