# Source: https://keras.io/guides/intro_to_keras_for_researchers/ (keras-team/keras-io, guides/intro_to_keras_for_researchers.py at 092e21c653cd, its TensorFlow-era version), "Variables", "Doing math in TensorFlow" and "Gradients"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow import keras` -> `from minitape import keras`;
#   cells split where the guide's text blocks split them; each `tf.random.normal(shape=(2, 2))` ->
#   `tf.constant(rng.normal(size=(2, 2)), dtype=tf.float32)` with `rng = np.random.default_rng(0)` (seeded NumPy
#   draws, so the printed values agree), `import numpy as np` added for it
import numpy as np

import minitape as tf
from minitape import keras

rng = np.random.default_rng(0)
# %%
initial_value = tf.constant(rng.normal(size=(2, 2)), dtype=tf.float32)
a = tf.Variable(initial_value)
print(a)
# %%
new_value = tf.constant(rng.normal(size=(2, 2)), dtype=tf.float32)
a.assign(new_value)
for i in range(2):
    for j in range(2):
        assert a[i, j] == new_value[i, j]

added_value = tf.constant(rng.normal(size=(2, 2)), dtype=tf.float32)
a.assign_add(added_value)
for i in range(2):
    for j in range(2):
        assert a[i, j] == new_value[i, j] + added_value[i, j]
# %%
a = tf.constant(rng.normal(size=(2, 2)), dtype=tf.float32)
b = tf.constant(rng.normal(size=(2, 2)), dtype=tf.float32)

c = a + b
d = tf.square(c)
e = tf.exp(d)
# %%
a = tf.constant(rng.normal(size=(2, 2)), dtype=tf.float32)
b = tf.constant(rng.normal(size=(2, 2)), dtype=tf.float32)

with tf.GradientTape() as tape:
    tape.watch(a)  # Start recording the history of operations applied to `a`
    c = tf.sqrt(tf.square(a) + tf.square(b))  # Do some math using `a`
    # What's the gradient of `c` with respect to `a`?
    dc_da = tape.gradient(c, a)
    print(dc_da)
# %%
a = tf.Variable(a)

with tf.GradientTape() as tape:
    c = tf.sqrt(tf.square(a) + tf.square(b))
    dc_da = tape.gradient(c, a)
    print(dc_da)
# %%
with tf.GradientTape() as outer_tape:
    with tf.GradientTape() as tape:
        c = tf.sqrt(tf.square(a) + tf.square(b))
        dc_da = tape.gradient(c, a)
    d2c_da2 = outer_tape.gradient(dc_da, a)
    print(d2c_da2)
