# Source: https://www.tensorflow.org/guide/basics (tensorflow/docs, site/en/guide/basics.ipynb), "Variables" and "Automatic differentiation"
# Changed: `import tensorflow as tf` -> `import minitape as tf`
import minitape as tf
# %%
var = tf.Variable([0.0, 0.0, 0.0])
# %%
var.assign([1, 2, 3])
# %%
var.assign_add([1, 1, 1])
# %%
x = tf.Variable(1.0)

def f(x):
  y = x**2 + 2*x - 5
  return y
# %%
f(x)
# %%
with tf.GradientTape() as tape:
  y = f(x)

g_x = tape.gradient(y, x)  # g(x) = dy/dx

g_x
