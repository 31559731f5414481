# Source: https://d2l.ai/chapter_preliminaries/ndarray.html (d2l-ai/d2l-en, chapter_preliminaries/ndarray.md), "2.1.3 Operations" and "2.1.4 Broadcasting", TensorFlow tab
# Changed: `import tensorflow as tf` -> `import minitape as tf`; d2lbook's `%%tab tensorflow` cell magics dropped;
#   the cell of "2.1.1 Getting Started" that defines `x` comes first
import minitape as tf
# %%
x = tf.range(12, dtype=tf.float32)
x
# %%
tf.exp(x)
# %%
x = tf.constant([1.0, 2, 4, 8])
y = tf.constant([2.0, 2, 2, 2])
x + y, x - y, x * y, x / y, x ** y
# %%
X = tf.reshape(tf.range(12, dtype=tf.float32), (3, 4))
Y = tf.constant([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
tf.concat([X, Y], axis=0), tf.concat([X, Y], axis=1)
# %%
X == Y
# %%
tf.reduce_sum(X)
# %%
a = tf.reshape(tf.range(3), (3, 1))
b = tf.reshape(tf.range(2), (1, 2))
a, b
# %%
a + b
