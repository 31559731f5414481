# Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/master/chapter03_introduction-to-ml-frameworks.ipynb
#   (fchollet/deep-learning-with-python-notebooks, chapter03_introduction-to-ml-frameworks.ipynb, the 3rd edition), "First
#   steps with TensorFlow"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `import keras`/`from keras import ...` -> `from minitape import
#   keras`/`from minitape.keras import ...`; the random tensors' and variable's `print(x)`/`print(v)` -> `print(x.shape,
#   x.dtype)`/`print(v.shape, v.dtype)` (TF's and minitape's unseeded draws differ)
# %%
import minitape as tf
tf.ones(shape=(2, 1))
# %%
tf.zeros(shape=(2, 1))
# %%
tf.constant([1, 2, 3], dtype="float32")
# %%
x = tf.random.normal(shape=(3, 1), mean=0., stddev=1.)
print(x.shape, x.dtype)
# %%
x = tf.random.uniform(shape=(3, 1), minval=0., maxval=1.)
print(x.shape, x.dtype)
# %%
import numpy as np

x = np.ones(shape=(2, 2))
x[0, 0] = 0.0
# %%
v = tf.Variable(initial_value=tf.random.normal(shape=(3, 1)))
print(v.shape, v.dtype)
# %%
v.assign(tf.ones((3, 1)))
# %%
v[0, 0].assign(3.)
# %%
v.assign_add(tf.ones((3, 1)))
# %%
a = tf.ones((2, 2))
b = tf.square(a)
c = tf.sqrt(a)
d = b + c
e = tf.matmul(a, b)
f = tf.concat((a, b), axis=0)
# %%
def dense(inputs, W, b):
    return tf.nn.relu(tf.matmul(inputs, W) + b)
# %%
input_var = tf.Variable(initial_value=3.0)
with tf.GradientTape() as tape:
    result = tf.square(input_var)
gradient = tape.gradient(result, input_var)
# %%
input_const = tf.constant(3.0)
with tf.GradientTape() as tape:
    tape.watch(input_const)
    result = tf.square(input_const)
gradient = tape.gradient(result, input_const)
# %%
time = tf.Variable(0.0)
with tf.GradientTape() as outer_tape:
    with tf.GradientTape() as inner_tape:
        position = 4.9 * time**2
    speed = inner_tape.gradient(position, time)
acceleration = outer_tape.gradient(speed, time)
# %%
@tf.function
def dense(inputs, W, b):
    return tf.nn.relu(tf.matmul(inputs, W) + b)
# %%
@tf.function(jit_compile=True)
def dense(inputs, W, b):
    return tf.nn.relu(tf.matmul(inputs, W) + b)
