# Source: https://d2l.ai/chapter_builders-guide/custom-layer.html (d2l-ai/d2l-en, chapter_builders-guide/custom-layer.md), "6.5.1 Layers without Parameters", TensorFlow tab
# Changed: `import tensorflow as tf` -> `import minitape as tf`; d2lbook's `%%tab` cell magics dropped;
#   `from d2l import tensorflow as d2l` -> a class `d2l` holding the one alias used (tensor = tf.constant, as in
#   d2l/tensorflow.py); the cell showing `tf.reduce_mean(Y)` of a randomly initialised layer (a float32
#   rounding residue near 0) is left out
import minitape as tf


class d2l:
    tensor = tf.constant
# %%
class CenteredLayer(tf.keras.Model):
    def __init__(self):
        super().__init__()

    def call(self, X):
        return X - tf.reduce_mean(X)
# %%
layer = CenteredLayer()
layer(d2l.tensor([1.0, 2, 3, 4, 5]))
# %%
net = tf.keras.Sequential([tf.keras.layers.Dense(128), CenteredLayer()])
