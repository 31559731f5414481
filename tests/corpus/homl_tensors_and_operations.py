# Source: https://github.com/ageron/handson-ml3/blob/main/12_custom_models_and_training_with_tensorflow.ipynb (ageron/handson-ml3, 12_custom_models_and_training_with_tensorflow.ipynb), "Tensors and Operations"
# Changed: `import tensorflow as tf` -> `import minitape as tf` (the setup cell's version check dropped with it);
#   the "Keras's low-level API" cell (`tf.keras.backend.square`, gone from Keras 3) is left out
import minitape as tf
# %%
t = tf.constant([[1., 2., 3.], [4., 5., 6.]]) # matrix
t
# %%
t.shape
# %%
t.dtype
# %%
t[:, 1:]
# %%
t[..., 1, tf.newaxis]
# %%
t + 10
# %%
tf.square(t)
# %%
t @ tf.transpose(t)
# %%
tf.constant(42)
# %%
tf.square(tf.transpose(t)) + 10
