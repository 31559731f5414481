# Source: https://github.com/tensorflow/tensorflow/blob/016bb3fc99d75a703956c00f0adf65736407da0f/tensorflow/python/eager/backprop_test.py (tensorflow/tensorflow, tensorflow/python/eager/backprop_test.py), "BackpropTest: testWatchingIsTapeLocal ... testNestedGradients"
# Changed: `import minitape as tf` added (the test imports TF's internal modules); each test body is one cell, named
#   in a comment, with the internal names written as their public ones (`backprop.GradientTape` -> `tf.GradientTape`,
#   `constant_op.constant` -> `tf.constant`, `resource_variable_ops.ResourceVariable` and `variables.Variable` ->
#   `tf.Variable`, `array_ops.X`/`math_ops.X` -> `tf.X`); `self.evaluate(t)` -> `t`; every assertion turned into a print
#   of the value it asserts on
import minitape as tf
# %%
# testWatchingIsTapeLocal
x1 = tf.Variable(2.0, trainable=False)
x2 = tf.Variable(2.0, trainable=False)

with tf.GradientTape() as tape1:
  with tf.GradientTape() as tape2:
    tape1.watch(x1)
    tape2.watch([x1, x2])
    y = x1**3
    z = x2**2
    dy, dz = tape2.gradient([y, z], [x1, x2])
  d2y, d2z = tape1.gradient([dy, dz], [x1, x2])

print(d2y)
print(d2z)
# %%
# testGradientTape
with tf.GradientTape() as g:
  x = tf.constant(3.0)
  g.watch(x)
  y = x * x
  with tf.GradientTape() as gg:
    gg.watch(y)
    z = 2 * y
  inner_grad = gg.gradient(z, [y])[0]
  print(inner_grad)
  y += inner_grad
grad = g.gradient(y, [x])[0]
print(grad)
# %%
# testPersistentTape
with tf.GradientTape(persistent=True) as g:
  x = tf.constant(3.0)
  g.watch(x)
  y = x * x
  z = y * y
dz_dx = g.gradient(z, [x])[0]
print(dz_dx)
dy_dx = g.gradient(y, [x])[0]
print(dy_dx)
del g
# %%
# testHigherOrderGradient
with tf.GradientTape(persistent=True) as g:
  x = tf.constant(3.0)
  g.watch(x)
  y = x**3  # y       := x^3
  dy_dx = g.gradient(y, x)  # dy/dx   := 3x^2
  d2y_dx2 = g.gradient(dy_dx, x)  # d2y/dx2 := 6x
d3y_dx3 = g.gradient(d2y_dx2, x)  # d3y/dx3 := 6
x = 3
print(y)
print(dy_dx)
print(d2y_dx2)
print(d3y_dx3)
del g
# %%
# testPersistentNestedTape
with tf.GradientTape(persistent=True) as g:
  x = tf.constant(3.0)
  g.watch(x)
  y = x * x
  with tf.GradientTape(persistent=True) as gg:
    gg.watch(y)
    z = 2 * y
  for _ in range(2):
    inner_grad = gg.gradient(z, [y])[0]
    print(inner_grad)
  y += inner_grad
  del gg
grad = g.gradient(y, [x])[0]
print(grad)
grad = g.gradient(z, [x])[0]
print(grad)
del g
# %%
# testGradientTapeVariable
v = tf.Variable(1.0, name='v')
with tf.GradientTape() as g:
  y = v * v
grad = g.gradient(y, [v])[0]
print(grad)
# %%
# testNestedGradients
x = tf.constant(3.0)
with tf.GradientTape() as g:
  g.watch(x)
  y = x * x
  z = y * y
dz_dx, dz_dy = g.gradient(z, [x, y])
print(dz_dx)
print(dz_dy)
