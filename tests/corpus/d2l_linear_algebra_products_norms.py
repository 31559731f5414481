# Source: https://d2l.ai/chapter_preliminaries/linear-algebra.html (d2l-ai/d2l-en, chapter_preliminaries/linear-algebra.md), "2.3.8 Dot Products" to "2.3.11 Norms", TensorFlow tab
# Changed: `import tensorflow as tf` -> `import minitape as tf`; d2lbook's `%%tab tensorflow` cell magics dropped;
#   the cells of "2.3.5" and "2.3.6" that define `A` and `x` come first
import minitape as tf
# %%
A = tf.reshape(tf.range(6, dtype=tf.float32), (2, 3))
B = A  # No cloning of A to B by allocating new memory
A, A + B
# %%
x = tf.range(3, dtype=tf.float32)
x, tf.reduce_sum(x)
# %%
y = tf.ones(3, dtype=tf.float32)
x, y, tf.tensordot(x, y, axes=1)
# %%
tf.reduce_sum(x * y)
# %%
A.shape, x.shape, tf.linalg.matvec(A, x)
# %%
B = tf.ones((3, 4), tf.float32)
tf.matmul(A, B)
# %%
u = tf.constant([3.0, -4.0])
tf.norm(u)
# %%
tf.reduce_sum(tf.abs(u))
# %%
tf.norm(tf.ones((4, 9)))
