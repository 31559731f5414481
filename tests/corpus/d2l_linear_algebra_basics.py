# Source: https://d2l.ai/chapter_preliminaries/linear-algebra.html (d2l-ai/d2l-en, chapter_preliminaries/linear-algebra.md), "2.3.1 Scalars" to "2.3.4 Tensors", TensorFlow tab
# Changed: `import tensorflow as tf` -> `import minitape as tf`; d2lbook's `%%tab tensorflow` cell magics dropped
import minitape as tf
# %%
x = tf.constant(3.0)
y = tf.constant(2.0)

x + y, x * y, x / y, x**y
# %%
x = tf.range(3)
x
# %%
x[2]
# %%
len(x)
# %%
x.shape
# %%
A = tf.reshape(tf.range(6), (3, 2))
A
# %%
tf.transpose(A)
# %%
A = tf.constant([[1, 2, 3], [2, 0, 4], [3, 4, 5]])
A == tf.transpose(A)
# %%
tf.reshape(tf.range(24), (2, 3, 4))
