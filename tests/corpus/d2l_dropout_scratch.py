# Source: https://d2l.ai/chapter_multilayer-perceptrons/dropout.html (d2l-ai/d2l-en, chapter_multilayer-perceptrons/dropout.md), "5.6.4 Implementation from Scratch", TensorFlow tab
# Changed: `import tensorflow as tf` -> `import minitape as tf`; d2lbook's `%%tab` cell magics dropped, and of the
#   cell's `if tab.selected(...)` branches only the TensorFlow one kept (unindented); inside `dropout_layer`,
#   `tf.random.uniform(shape=tf.shape(X), minval=0, maxval=1)` -> `tf.constant(rng.uniform(0, 1, size=X.shape),
#   dtype=tf.float32)` with `rng = np.random.default_rng(0)` (seeded NumPy draws, so the printed masks agree),
#   `import numpy as np` added for it
import numpy as np

import minitape as tf

rng = np.random.default_rng(0)
# %%
def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1: return tf.zeros_like(X)
    mask = tf.constant(rng.uniform(0, 1, size=X.shape), dtype=tf.float32) < 1 - dropout
    return tf.cast(mask, dtype=tf.float32) * X / (1.0 - dropout)
# %%
X = tf.reshape(tf.range(16, dtype=tf.float32), (2, 8))
print('dropout_p = 0:', dropout_layer(X, 0))
print('dropout_p = 0.5:', dropout_layer(X, 0.5))
print('dropout_p = 1:', dropout_layer(X, 1))
