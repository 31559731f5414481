# Source: https://github.com/tensorflow/tensorflow/blob/016bb3fc99d75a703956c00f0adf65736407da0f/tensorflow/python/eager/backprop_test.py (tensorflow/tensorflow, tensorflow/python/eager/backprop_test.py), "BackpropTest: testTapeStopRecording ... testWatchedVariablesRespectReset"
# Changed: `import minitape as tf` added (the test imports TF's internal modules); each test body is one cell, named
#   in a comment, with the internal names written as their public ones (`backprop.GradientTape` -> `tf.GradientTape`,
#   `constant_op.constant` -> `tf.constant`, `resource_variable_ops.ResourceVariable` and `variables.Variable` ->
#   `tf.Variable`, `array_ops.X`/`math_ops.X` -> `tf.X`); `self.evaluate(t)` -> `t`; every assertion turned into a print
#   of the value it asserts on
import minitape as tf
# %%
# testTapeStopRecording
with tf.GradientTape() as t:
  x = tf.Variable(1.0)
  with t.stop_recording():
    y = x * x
print(t.gradient(y, x))
# %%
# testTapeStopStartRecording
with tf.GradientTape(persistent=True) as t:
  x = tf.Variable(1.0)
  x2 = x * 2  # This should be differentiated through.
  with t.stop_recording():
    y = x2 * x2
  z = x2 * x2
print(t.gradient(y, x2))

# If the x*2 was not differentiated through, this would be 2.0, not 4.0
print(t.gradient(z, x2).numpy())
# %%
# testTapeReset
with tf.GradientTape() as t:
  v = tf.Variable(1.0)
  loss = v * v
  t.reset()
  loss += v * v
print(t.gradient(loss, v))
# %%
# testPythonMax
x = [
    tf.Variable(2.),
    tf.Variable(3.),
    tf.Variable(5.)
]
with tf.GradientTape() as t:
  f = max(x)
grad = t.gradient(f, x)
print(f)
print(grad)
# %%
# testAutomaticWatchedVariables
with tf.GradientTape() as t:
  print(len(t.watched_variables()))
  v = tf.Variable(1.0)
  loss = v * v
  print(t.watched_variables())

  t.reset()
  print(len(t.watched_variables()))
  loss += v * v
  print(t.watched_variables())
# %%
# testExplicitWatchedVariables
with tf.GradientTape() as t:
  print(len(t.watched_variables()))
  v = tf.Variable(1.0)
  t.watch(v)
  print(t.watched_variables())

  t.reset()
  print(len(t.watched_variables()))
  t.watch(v)
  print(t.watched_variables())
# %%
# testSelectivelyWatchVariables
x1 = tf.Variable(1.0)
x2 = tf.Variable(1.0)
with tf.GradientTape(watch_accessed_variables=False) as tape:
  tape.watch(x2)
  y = x1**2
  z = x2**3
print(tape.watched_variables())
dy, dz = tape.gradient([y, z], [x1, x2])
print(dy)
print(dz)
# %%
# testWatchedVariablesAfterNonPersistentGradientCall
with tf.GradientTape(persistent=False) as tape:
  x = tf.Variable(1.0)
  tape.watch(x)
tape.gradient(x, x)
print(tape.watched_variables())
# %%
# testWatchedVariablesOnlyHasVariablesFromLastTape
with tf.GradientTape(persistent=False) as tape:
  x = tf.Variable(1.0)
  tape.watch(x)
with tf.GradientTape(persistent=False) as tape:
  z = tf.Variable(2.0)
  tape.watch(z)
tape.gradient(z, z)
print(tape.watched_variables())
# %%
# testWatchedVariablesRespectReset
with tf.GradientTape(persistent=False) as tape:
  x = tf.Variable(1.0)
  tape.watch(x)
  print(tape.watched_variables())
  tape.reset()
  z = tf.Variable(2.0)
  tape.watch(z)
  print(tape.watched_variables())
tape.gradient(z, z)
print(tape.watched_variables())
