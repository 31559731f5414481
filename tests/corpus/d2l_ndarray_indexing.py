# Source: https://d2l.ai/chapter_preliminaries/ndarray.html (d2l-ai/d2l-en, chapter_preliminaries/ndarray.md), "2.1.2 Indexing and Slicing", TensorFlow tab
# Changed: `import tensorflow as tf` -> `import minitape as tf`; d2lbook's `%%tab tensorflow` cell magics dropped;
#   the two cells of "2.1.1 Getting Started" that define `x` and `X` come first
import minitape as tf
# %%
x = tf.range(12, dtype=tf.float32)
x
# %%
X = tf.reshape(x, (3, 4))
X
# %%
X[-1], X[1:3]
# %%
X_var = tf.Variable(X)
X_var[1, 2].assign(9)
X_var
# %%
X_var = tf.Variable(X)
X_var[:2, :].assign(tf.ones(X_var[:2,:].shape, dtype=tf.float32) * 12)
X_var
