# Source: https://d2l.ai/chapter_preliminaries/linear-algebra.html (d2l-ai/d2l-en, chapter_preliminaries/linear-algebra.md), "2.3.5 Basic Properties of Tensor Arithmetic" to "2.3.7 Non-Reduction Sum", TensorFlow tab
# Changed: `import tensorflow as tf` -> `import minitape as tf`; d2lbook's `%%tab tensorflow` cell magics dropped
import minitape as tf
# %%
A = tf.reshape(tf.range(6, dtype=tf.float32), (2, 3))
B = A  # No cloning of A to B by allocating new memory
A, A + B
# %%
A * B
# %%
a = 2
X = tf.reshape(tf.range(24), (2, 3, 4))
a + X, (a * X).shape
# %%
x = tf.range(3, dtype=tf.float32)
x, tf.reduce_sum(x)
# %%
A.shape, tf.reduce_sum(A)
# %%
A.shape, tf.reduce_sum(A, axis=0).shape
# %%
A.shape, tf.reduce_sum(A, axis=1).shape
# %%
tf.reduce_sum(A, axis=[0, 1]), tf.reduce_sum(A)  # Same as tf.reduce_sum(A)
# %%
tf.reduce_mean(A), tf.reduce_sum(A) / tf.size(A).numpy()
# %%
tf.reduce_mean(A, axis=0), tf.reduce_sum(A, axis=0) / A.shape[0]
# %%
sum_A = tf.reduce_sum(A, axis=1, keepdims=True)
sum_A, sum_A.shape
# %%
A / sum_A
# %%
tf.cumsum(A, axis=0)
