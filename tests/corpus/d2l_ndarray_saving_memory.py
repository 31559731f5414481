# Source: https://d2l.ai/chapter_preliminaries/ndarray.html (d2l-ai/d2l-en, chapter_preliminaries/ndarray.md), "2.1.5 Saving Memory", TensorFlow tab
# Changed: `import tensorflow as tf` -> `import minitape as tf`; d2lbook's `%%tab tensorflow` cell magics dropped;
#   the cell of "2.1.3 Operations" that defines `X` and `Y` comes first; the cell that prints `id(Z)` (an
#   object address) is left out
import minitape as tf
# %%
X = tf.reshape(tf.range(12, dtype=tf.float32), (3, 4))
Y = tf.constant([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
tf.concat([X, Y], axis=0), tf.concat([X, Y], axis=1)
# %%
before = id(Y)
Y = Y + X
id(Y) == before
# %%
@tf.function
def computation(X, Y):
    Z = tf.zeros_like(Y)  # This unused value will be pruned out
    A = X + Y  # Allocations will be reused when no longer needed
    B = A + Y
    C = B + Y
    return C + Y

computation(X, Y)
