# Source: https://github.com/tensorflow/tensorflow/blob/016bb3fc99d75a703956c00f0adf65736407da0f/tensorflow/python/eager/backprop_test.py (tensorflow/tensorflow, tensorflow/python/eager/backprop_test.py), "BackpropTest: testTwoTargets ... testVariablesAndConstantsProduceTheSameGradients"
# Changed: `import minitape as tf` added (the test imports TF's internal modules); each test body is one cell, named
#   in a comment, with the internal names written as their public ones (`backprop.GradientTape` -> `tf.GradientTape`,
#   `constant_op.constant` -> `tf.constant`, `resource_variable_ops.ResourceVariable` and `variables.Variable` ->
#   `tf.Variable`, `array_ops.X`/`math_ops.X` -> `tf.X`); `self.evaluate(t)` -> `t`; every assertion turned into a print
#   of the value it asserts on
import minitape as tf
# %%
# testTwoTargets
with tf.GradientTape() as t:
  x = tf.constant(3.0)
  y = tf.constant(2.0)
  t.watch([x, y])
  xx = 2 * x
  yy = 3 * y
dx, dy = t.gradient([xx, yy], [x, y])
print(dx)
print(dy)
# %%
# testOutputGradUsedInComputation
with tf.GradientTape() as t:
  x = tf.constant(3.0)
  y = tf.constant(2.0)
  t.watch([x, y])
  loss = x * y
dx, = t.gradient([loss, x], [x], output_gradients=[1.0, 2.0])
print(dx)
# %%
# testTapeNoOpGradient
x = tf.constant(3.0)
with tf.GradientTape() as t:
  t.watch(x)
  y = x
print(t.gradient(y, x).numpy())
# %%
# testTapeIdentityGradientIsIdentity
x = tf.constant(3.0)
with tf.GradientTape() as t:
  t.watch(x)
  y = tf.identity(x)
print(t.gradient(y, x).numpy())
# %%
# testTapeGradientMultiTargetOneIsSource
x = tf.constant(2.0)
with tf.GradientTape() as t:
  t.watch(x)
  y = x * x
print(t.gradient([x, y], x).numpy())
# %%
# testTapeNoOpGradientWithMultiTargetAllSource
x = tf.constant(3.0)
with tf.GradientTape() as t:
  t.watch(x)
  y = x
print(t.gradient([y, y], x).numpy())
# %%
# testTapeNoOpGradientWithMultiTargetMultiSource
x = tf.constant(3.0)
y = tf.constant(5.0)
with tf.GradientTape() as t:
  t.watch(x)
  t.watch(y)
  z = y * y
print(t.gradient([x, y, z], [x, y]))
# %%
# testTapeNoOpOnVariableIsIdentity
v0 = tf.Variable(1.0)
with tf.GradientTape() as t:
  y = v0.read_value()
print(t.gradient(y, v0).numpy())
# %%
# testTapeNoOpGradient2By2
a_2_by_2 = tf.constant(2.0, shape=[2, 2])
with tf.GradientTape(persistent=True) as tape:
  tape.watch(a_2_by_2)
dy_dy = tape.gradient(a_2_by_2, [a_2_by_2])[0]
print(dy_dy.numpy())
# %%
# testTapeNoOpGradientMultiTarget2By2
a_2_by_2 = tf.constant(2.0, shape=[2, 2])
with tf.GradientTape(persistent=True) as tape:
  tape.watch(a_2_by_2)
dy_dy = tape.gradient([a_2_by_2, a_2_by_2], [a_2_by_2])[0]
print(dy_dy.numpy())
# %%
# testDifferentiatingScalarCache
with tf.GradientTape(persistent=False) as g:
  x1 = tf.constant(3.0)
  x2 = tf.constant(3.0)
  g.watch(x1)
  g.watch(x2)
  y = x1 + x2
grad = g.gradient(target=y, sources=[x1])
print(grad)
# %%
# testVariablesAndConstantsProduceTheSameGradients
def get_grads(a, b):
  with tf.GradientTape() as tape:
    tape.watch([a, b])
    y = a**3
    z = b**2
  return tape.gradient([y, z], [a, b])

gradients_constants = get_grads(
    tf.constant(2.0), tf.constant(2.0))
gradients_variables = get_grads(
    tf.Variable(2.0),
    tf.Variable(2.0))
print(gradients_constants)
print(gradients_variables)
