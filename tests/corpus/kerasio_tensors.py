# Source: https://keras.io/guides/intro_to_keras_for_researchers/ (keras-team/keras-io, guides/intro_to_keras_for_researchers.py at 092e21c653cd, its TensorFlow-era version), "Setup" and "Tensors"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow import keras` -> `from minitape import keras`;
#   cells split where the guide's text blocks split them
import minitape as tf
from minitape import keras
# %%
x = tf.constant([[5, 2], [1, 3]])
print(x)
# %%
x.numpy()
# %%
print("dtype:", x.dtype)
print("shape:", x.shape)
# %%
print(tf.ones(shape=(2, 1)))
print(tf.zeros(shape=(2, 1)))
# %%
x = tf.random.normal(shape=(2, 2), mean=0.0, stddev=1.0)

x = tf.random.uniform(shape=(2, 2), minval=0, maxval=10, dtype="int32")
