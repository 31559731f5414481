# Source: https://www.tensorflow.org/guide/variable (tensorflow/docs, site/en/guide/variable.ipynb), "Lifecycles, naming, and watching" and "Placing variables and tensors"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; the cell of "Create a variable" that
#   defines `my_tensor` runs first (verbatim, with the variables it also creates)
# xfail: complex dtypes are not supported (`tf.Variable([5 + 4j, 6 + 1j])`), a declared difference
import minitape as tf
# %%
my_tensor = tf.constant([[1.0, 2.0], [3.0, 4.0]])
my_variable = tf.Variable(my_tensor)

# Variables can be all kinds of types, just like tensors
bool_variable = tf.Variable([False, False, False, True])
complex_variable = tf.Variable([5 + 4j, 6 + 1j])
# %%
# Create a and b; they will have the same name but will be backed by
# different tensors.
a = tf.Variable(my_tensor, name="Mark")
# A new variable with the same name, but different value
# Note that the scalar add is broadcast
b = tf.Variable(my_tensor + 1, name="Mark")

# These are elementwise-unequal, despite having the same name
print(a == b)
# %%
step_counter = tf.Variable(1, trainable=False)
# %%
with tf.device('CPU:0'):

  # Create some tensors
  a = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
  b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
  c = tf.matmul(a, b)

print(c)
