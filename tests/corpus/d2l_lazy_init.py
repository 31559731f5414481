# Source: https://d2l.ai/chapter_builders-guide/lazy-init.html (d2l-ai/d2l-en, chapter_builders-guide/lazy-init.md), "6.4 Lazy Initialization", TensorFlow tab
# Changed: `import tensorflow as tf` -> `import minitape as tf`; d2lbook's `%%tab tensorflow` cell magics dropped
import minitape as tf
# %%
net = tf.keras.models.Sequential([
    tf.keras.layers.Dense(256, activation=tf.nn.relu),
    tf.keras.layers.Dense(10),
])
# %%
[net.layers[i].get_weights() for i in range(len(net.layers))]
# %%
X = tf.random.uniform((2, 20))
net(X)
[w.shape for w in net.get_weights()]
