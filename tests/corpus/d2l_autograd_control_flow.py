# Source: https://d2l.ai/chapter_preliminaries/autograd.html (d2l-ai/d2l-en, chapter_preliminaries/autograd.md), "2.5.4 Gradients and Python Control Flow", TensorFlow tab
# Changed: `import tensorflow as tf` -> `import minitape as tf`; d2lbook's `%%tab tensorflow` cell magics dropped;
#   `tf.random.normal(shape=())` -> `tf.constant(np.random.default_rng(0).normal(), dtype=tf.float32)` (seeded
#   NumPy draw, so the printed values agree), with `import numpy as np` added for it
import numpy as np

import minitape as tf
# %%
def f(a):
    b = a * 2
    while tf.norm(b) < 1000:
        b = b * 2
    if tf.reduce_sum(b) > 0:
        c = b
    else:
        c = 100 * b
    return c
# %%
a = tf.Variable(tf.constant(np.random.default_rng(0).normal(), dtype=tf.float32))
with tf.GradientTape() as t:
    d = f(a)
d_grad = t.gradient(d, a)
d_grad
# %%
d_grad == d / a
