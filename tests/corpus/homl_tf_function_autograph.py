# Source: https://github.com/ageron/handson-ml3/blob/main/12_custom_models_and_training_with_tensorflow.ipynb (ageron/handson-ml3, 12_custom_models_and_training_with_tensorflow.ipynb), "TensorFlow Functions" / "Using Autograph To Capture Control Flow"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; the cells that list
#   `get_concrete_function(...).graph.get_operations()` (graph internals) are left out
import minitape as tf
# %%
@tf.function
def add_10(x):
    for i in range(10):
        x += 1
    return x
# %%
add_10(tf.constant(5))
# %%
# extra code – shows how to use tf.while_loop (usually @tf.function is simpler)
@tf.function
def add_10(x):
    condition = lambda i, x: tf.less(i, 10)
    body = lambda i, x: (tf.add(i, 1), tf.add(x, 1))
    final_i, final_x = tf.while_loop(condition, body, [tf.constant(0), x])
    return final_x
# %%
add_10(tf.constant(5))
