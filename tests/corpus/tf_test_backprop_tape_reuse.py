# Source: https://github.com/tensorflow/tensorflow/blob/016bb3fc99d75a703956c00f0adf65736407da0f/tensorflow/python/eager/backprop_test.py (tensorflow/tensorflow, tensorflow/python/eager/backprop_test.py), "BackpropTest: testGradientWithinTapeBlock ... testWatchBadThing"
# Changed: `import minitape as tf` added (the test imports TF's internal modules); each test body is one cell, named
#   in a comment, with the internal names written as their public ones (`backprop.GradientTape` -> `tf.GradientTape`,
#   `constant_op.constant` -> `tf.constant`, `resource_variable_ops.ResourceVariable` and `variables.Variable` ->
#   `tf.Variable`, `array_ops.X`/`math_ops.X` -> `tf.X`); `self.evaluate(t)` -> `t`; every assertion turned into a print
#   of the value it asserts on; each `assertRaises*` block turned into a try/except that prints the error's type and message
import numpy as np
import minitape as tf
# %%
# testGradientWithinTapeBlock
v1 = tf.Variable(1.)
with tf.GradientTape() as t:
  loss = 2 * v1
  grad = t.gradient(loss, v1)
print(grad)

with tf.GradientTape(persistent=True) as t:
  loss = 2 * v1
  grad = t.gradient(loss, v1)
print(grad)
# %%
# testNestedSelfContexts
v1 = tf.Variable(1.)
with tf.GradientTape() as t:
  try:
    with t:
      pass
  except ValueError as e:
    print(f"{type(e).__name__}: {e}")
# %%
# testGradientTapeReEnterContext
g = tf.GradientTape()
with g:
  x = tf.constant(3.0)
  g.watch(x)
  y = 2 * x
with g:
  z = 2 * y
grad = g.gradient(target=z, sources=[x])
print(grad)
# %%
# testGradientTapeRepeatedSource
with tf.GradientTape(persistent=False) as g:
  x = tf.constant(3.0)
  g.watch(x)
  y = 2 * x
grad = g.gradient(target=y, sources=[x, x])
print(grad)
# %%
# testPersistentGradientTapeRepeatedSource
with tf.GradientTape(persistent=True) as g:
  x = tf.constant(3.0)
  y = tf.constant(5.0)
  g.watch(x)
  g.watch(y)
  z = x * x + x * y
grad = g.gradient(target=z, sources=[x, x])
print(grad)
grad = g.gradient(target=z, sources=[y, x])
print(grad)
# %%
# testGradientTapeStructure
with tf.GradientTape(persistent=True) as g:
  # Using different constant values because constant tensors are
  # cached, leading to a different gradient then what one might expect.
  x1 = tf.constant(3.0)
  x2 = tf.constant(3.1)
  x3 = tf.constant(3.2)
  g.watch(x1)
  g.watch(x2)
  g.watch(x3)
  y = x1 + 2 * x2 + 3 * x3
print(g.gradient(y, x1))
print(g.gradient(y, (x1,)))
print(g.gradient(y, (x1, x2)))
print(g.gradient(y, [(x1, x2), (x2, x3)]))
print(g.gradient(y, (x1, x2, [x1, x3])))
print(g.gradient(y, [x1, {
        'x2': x2,
        'x3': x3
    }]))
# %%
# testGadientTapeCalledOnConstantTarget
with tf.GradientTape() as g:
  x = tf.Variable([3.0])
  y = tf.Variable([2.0])
grad = g.gradient(x, y)
print(grad)
# %%
# testGradientTapeGradientCalledMultipleTimes
with tf.GradientTape() as g:
  x = tf.constant(3.0)
  g.watch(x)
  y = x * x
  z = y * y
g.gradient(z, [x])
try:
  g.gradient(y, [x])
except RuntimeError as e:
  print(f"{type(e).__name__}: {e}")
# %%
# testWatchBadThing
g = tf.GradientTape()
try:
  g.watch(np.array(1.))
except ValueError as e:
  print(f"{type(e).__name__}: {e}")
