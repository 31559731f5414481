# Source: https://github.com/tensorflow/tensorflow/blob/016bb3fc99d75a703956c00f0adf65736407da0f/tensorflow/python/eager/backprop_test.py (tensorflow/tensorflow, tensorflow/python/eager/backprop_test.py), "BackpropTest: testUnconnectedGradientsDefault ... testOverrideSecondOrderWithCustomGradient"
# Changed: `import minitape as tf` added (the test imports TF's internal modules); each test body is one cell, named
#   in a comment, with the internal names written as their public ones (`backprop.GradientTape` -> `tf.GradientTape`,
#   `constant_op.constant` -> `tf.constant`, `resource_variable_ops.ResourceVariable` and `variables.Variable` ->
#   `tf.Variable`, `array_ops.X`/`math_ops.X` -> `tf.X`); `self.evaluate(t)` -> `t`; every assertion turned into a print
#   of the value it asserts on; each `assertRaises*` block turned into a try/except that prints the error's type and message; `custom_gradient.custom_gradient` -> `tf.custom_gradient`
import minitape as tf
# %%
# testUnconnectedGradientsDefault
x = tf.constant(1.0)
y = tf.constant(3.0)
with tf.GradientTape() as g:
  g.watch([x, y])
  z = y * 2
dz_dx = g.gradient(z, x)
print(dz_dx)
# %%
# testUnconnectedGradientsZeros
x = tf.constant(1.0, shape=[2, 2])
y = tf.constant(3.0)
with tf.GradientTape() as g:
  g.watch([x, y])
  z = y * 2
dz_dx = g.gradient(z, x, unconnected_gradients='zero')
print(dz_dx)
# %%
# testUnconnectedGradientsVariablesZeros
x = tf.Variable(
    tf.constant(1., shape=[2, 2]))
y = tf.Variable(tf.constant(3.))
with tf.GradientTape() as g:
  g.watch([x, y])
  z = y * 2
dz_dx = g.gradient(z, x, unconnected_gradients='zero')
print(dz_dx)
# %%
# testUnknownUnconnectedGradientsValueGiven
x = tf.constant(1.0)
y = tf.constant(1.0)
with tf.GradientTape() as g:
  g.watch([x, y])
  z = y * 2
try:
  g.gradient(z, x, unconnected_gradients='nonsense')
except ValueError as e:
  print(f"{type(e).__name__}: {e}")
# %%
# testCustomGradientEmptyError
@tf.custom_gradient
def identity(x):

  def grad(_):
    return []  # This return value is wrong!

  return x, grad

x = tf.Variable(1.0)
with tf.GradientTape() as t:
  y = identity(x)
try:
  t.gradient(y, [x])
except ValueError as e:
  print(f"{type(e).__name__}: {e}")
# %%
# testCustomGradientInEagerAndGraph
@tf.custom_gradient
def f(x):
  y = x * x

  def grad(dy):
    return [4 * dy]

  return y, grad

with tf.GradientTape() as t:
  c = tf.constant(1.0)
  t.watch(c)
  g = f(c)
print(t.gradient(g, c))
# %%
# testOverrideSecondOrderWithCustomGradient
@tf.custom_gradient
def f(x):

  def first_order_grad(dz):

    @tf.custom_gradient
    def first_order_custom(unused_x):

      def h(ddz):
        return -2.1 * ddz

      return -1.1, h

    return dz * first_order_custom(x)

  return x + 10., first_order_grad

c = tf.constant(1.)
with tf.GradientTape() as outer:
  outer.watch(c)
  with tf.GradientTape() as inner:
    inner.watch(c)
    d = f(c)**4.
  dd = inner.gradient(d, c)
  print(dd)
print(outer.gradient(dd, c))
