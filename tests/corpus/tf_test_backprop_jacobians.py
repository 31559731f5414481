# Source: https://github.com/tensorflow/tensorflow/blob/016bb3fc99d75a703956c00f0adf65736407da0f/tensorflow/python/eager/backprop_test.py (tensorflow/tensorflow, tensorflow/python/eager/backprop_test.py), "JacobianTest and BatchJacobianTest"
# Changed: `import minitape as tf` added (the test imports TF's internal modules); each test body is one cell, named
#   in a comment, with the internal names written as their public ones (`backprop.GradientTape` -> `tf.GradientTape`,
#   `constant_op.constant` -> `tf.constant`, `resource_variable_ops.ResourceVariable` and `variables.Variable` ->
#   `tf.Variable`, `array_ops.X`/`math_ops.X` -> `tf.X`); `self.evaluate(t)` -> `t`; every assertion turned into a print
#   of the value it asserts on; each `assertRaises*` block turned into a try/except that prints the error's type and message; `array_ops.diag` -> `tf.linalg.diag`; `random_ops.random_uniform(shape)` ->
#   `tf.constant(np.random.default_rng(0).uniform(size=shape), dtype=tf.float32)` (seeded NumPy draw); the helpers
#   `_jacobian`/`_batch_jacobian` run inline with `experimental_use_pfor` as each test passes it
import numpy as np
import minitape as tf
# %%
# JacobianTest.testPfor / testWhileLoop (_jacobian)
for experimental_use_pfor in (True, False):
  persistent = not experimental_use_pfor
  with tf.GradientTape(persistent=persistent) as g:
    x = tf.constant([1., 2.])
    y = tf.constant([3., 4.])
    g.watch(x)
    g.watch(y)
    z = x * x * y
  jacobian = g.jacobian(
      z, [x, y], experimental_use_pfor=experimental_use_pfor)
  answer = [tf.linalg.diag(2 * x * y), tf.linalg.diag(x * x)]
  for j, a in zip(jacobian, answer):
    print(j)
# %%
# JacobianTest.testPersistentTape
with tf.GradientTape() as g:
  x = tf.constant([1.0, 2.0])
  g.watch(x)
  y = x * x
try:
  g.jacobian(y, x, experimental_use_pfor=False)
except RuntimeError as e:
  print(f"{type(e).__name__}: {e}")
# %%
# BatchJacobianTest.testPfor / testWhileLoop (_batch_jacobian)
for experimental_use_pfor in (True, False):
  persistent = not experimental_use_pfor
  with tf.GradientTape(persistent=persistent) as g:
    x = tf.constant([[1., 2.], [3., 4.]])
    y = tf.constant([[3., 4.], [5., 6.]])
    g.watch(x)
    z = x * x * y
  batch_jacobian = g.batch_jacobian(
      z, x, experimental_use_pfor=experimental_use_pfor)
  answer = tf.stack(
      [tf.linalg.diag(2 * x[0] * y[0]),
       tf.linalg.diag(2 * x[1] * y[1])])
  print(batch_jacobian)
# %%
# BatchJacobianTest.testPersistentTape
with tf.GradientTape() as g:
  x = tf.constant([[1.0, 2.0]])
  g.watch(x)
  y = x * x
try:
  g.batch_jacobian(y, x, experimental_use_pfor=False)
except RuntimeError as e:
  print(f"{type(e).__name__}: {e}")
# %%
# BatchJacobianTest.testBadShape
x = tf.constant(np.random.default_rng(0).uniform(size=[2, 3]), dtype=tf.float32)
with tf.GradientTape() as g:
  y = tf.concat([x, x], axis=0)
try:
  g.batch_jacobian(y, x)
except ValueError as e:
  print(f"{type(e).__name__}: {e}")
# %%
# BatchJacobianTest.testBadInputRank
x = tf.constant(np.random.default_rng(0).uniform(size=[2]), dtype=tf.float32)
with tf.GradientTape() as g:
  y = tf.constant(np.random.default_rng(0).uniform(size=[2, 2]), dtype=tf.float32)
try:
  g.batch_jacobian(y, x)
except ValueError as e:
  print(f"{type(e).__name__}: {e}")
# %%
# BatchJacobianTest.testBadOutputRank
x = tf.constant(np.random.default_rng(0).uniform(size=[2, 2]), dtype=tf.float32)
with tf.GradientTape() as g:
  y = tf.constant(np.random.default_rng(0).uniform(size=[2]), dtype=tf.float32)
try:
  g.batch_jacobian(y, x)
except ValueError as e:
  print(f"{type(e).__name__}: {e}")
# %%
# BatchJacobianTest.test_parallel_iterations
with tf.GradientTape(persistent=True) as g:
  x = tf.constant([[1., 2], [3, 4]])
  g.watch(x)
  w = tf.constant([[1., 2, 3, 4], [5, 6, 7, 8]])
  y = tf.linalg.matmul(x, w)
print(g.batch_jacobian(y, x, parallel_iterations=2))
print(g.batch_jacobian(y, x, parallel_iterations=3))
# %%
# BatchJacobianTest.test_degenerate_shape (use_function=False)
for use_pfor in (True, False):
  def f(x):
    with tf.GradientTape(persistent=True) as tape:
      tape.watch(x)
      y = x**2
    return tape.batch_jacobian(y, x, experimental_use_pfor=use_pfor)

  print(tf.shape(f(tf.zeros([1, 0]))))
