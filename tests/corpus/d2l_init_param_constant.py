# Source: https://d2l.ai/chapter_builders-guide/init-param.html (d2l-ai/d2l-en, chapter_builders-guide/init-param.md), "6.3 Parameter Initialization" and "6.3.1 Built-in Initialization", TensorFlow tab
# Changed: `import tensorflow as tf` -> `import minitape as tf`; d2lbook's `%%tab tensorflow` cell magics dropped;
#   the cells that show randomly initialised weights (normal, Xavier, MyInit) are left out
import minitape as tf
# %%
net = tf.keras.models.Sequential([
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(4, activation=tf.nn.relu),
    tf.keras.layers.Dense(1),
])

X = tf.random.uniform((2, 4))
net(X).shape
# %%
net = tf.keras.models.Sequential([
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(
        4, activation=tf.nn.relu,
        kernel_initializer=tf.keras.initializers.Constant(1),
        bias_initializer=tf.zeros_initializer()),
    tf.keras.layers.Dense(1),
])

net(X)
net.weights[0], net.weights[1]
