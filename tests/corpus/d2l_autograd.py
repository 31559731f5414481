# Source: https://d2l.ai/chapter_preliminaries/autograd.html (d2l-ai/d2l-en, chapter_preliminaries/autograd.md), "2.5.1 A Simple Function" to "2.5.3 Detaching Computation", TensorFlow tab
# Changed: `import tensorflow as tf` -> `import minitape as tf`; d2lbook's `%%tab tensorflow` cell magics dropped
import minitape as tf
# %%
x = tf.range(4, dtype=tf.float32)
x
# %%
x = tf.Variable(x)
# %%
# Record all computations onto a tape
with tf.GradientTape() as t:
    y = 2 * tf.tensordot(x, x, axes=1)
y
# %%
x_grad = t.gradient(y, x)
x_grad
# %%
x_grad == 4 * x
# %%
with tf.GradientTape() as t:
    y = tf.reduce_sum(x)
t.gradient(y, x)  # Overwritten by the newly calculated gradient
# %%
with tf.GradientTape() as t:
    y = x * x
t.gradient(y, x)  # Same as y = tf.reduce_sum(x * x)
# %%
# Set persistent=True to preserve the compute graph. 
# This lets us run t.gradient more than once
with tf.GradientTape(persistent=True) as t:
    y = x * x
    u = tf.stop_gradient(y)
    z = u * x

x_grad = t.gradient(z, x)
x_grad == u
# %%
t.gradient(y, x) == 2 * x
