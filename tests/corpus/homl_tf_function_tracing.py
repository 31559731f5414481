# Source: https://github.com/ageron/handson-ml3/blob/main/12_custom_models_and_training_with_tensorflow.ipynb (ageron/handson-ml3, 12_custom_models_and_training_with_tensorflow.ipynb), "TensorFlow Functions" / "How TF Functions Trace Python Functions to Extract Their Computation Graphs"
# Changed: `import tensorflow as tf` -> `import minitape as tf`
# xfail: `tf.function` does not trace: the Python `print` runs on every call with the eager value (`x = tf.Tensor(2.0,
#   ...)`) where TF prints the symbolic `x = Tensor("x:0", shape=(), dtype=float32)` once per new input signature
import minitape as tf
# %%
@tf.function
def tf_cube(x):
    print(f"x = {x}")
    return x ** 3
# %%
result = tf_cube(tf.constant(2.0))
# %%
result
# %%
result = tf_cube(2)
# %%
result = tf_cube(3)
# %%
result = tf_cube(tf.constant([[1., 2.]]))  # New shape: trace!
# %%
result = tf_cube(tf.constant([[3., 4.], [5., 6.]]))  # New shape: trace!
# %%
result = tf_cube(tf.constant([[7., 8.], [9., 10.]]))  # Same shape: no trace
