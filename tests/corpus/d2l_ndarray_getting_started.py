# Source: https://d2l.ai/chapter_preliminaries/ndarray.html (d2l-ai/d2l-en, chapter_preliminaries/ndarray.md), "2.1.1 Getting Started", TensorFlow tab
# Changed: `import tensorflow as tf` -> `import minitape as tf`; d2lbook's `%%tab tensorflow` cell magics dropped;
#   `tf.random.normal(shape=[3, 4])` -> `tf.constant(np.random.default_rng(0).normal(size=(3, 4)), dtype=tf.float32)`
#   (seeded NumPy draw, so the printed values agree), with `import numpy as np` added for it
import numpy as np

import minitape as tf
# %%
x = tf.range(12, dtype=tf.float32)
x
# %%
tf.size(x)
# %%
x.shape
# %%
X = tf.reshape(x, (3, 4))
X
# %%
tf.zeros((2, 3, 4))
# %%
tf.ones((2, 3, 4))
# %%
tf.constant(np.random.default_rng(0).normal(size=(3, 4)), dtype=tf.float32)
# %%
tf.constant([[2, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
