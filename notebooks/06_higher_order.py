# %% [markdown]
# # 6. Higher derivatives, Jacobians and Hessian-vector products
#
# **You will learn:** to nest tapes for second derivatives, to compute Jacobians, and to multiply by
# a Hessian without ever forming it.

# %%
import numpy as np
import minitape as tf

# %% [markdown]
# ## Second derivatives
# Every derivative in minitape is written with minitape ops, so an outer tape can record it.

# %%
x = tf.constant(0.7, tf.float64)
with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = tf.sin(x) * x
    dy = inner.gradient(y, x)
d2y = outer.gradient(dy, x)
print(dy.numpy(), np.cos(0.7) * 0.7 + np.sin(0.7))
print(d2y.numpy(), -np.sin(0.7) * 0.7 + 2 * np.cos(0.7))

# %% [markdown]
# ## Jacobians
# `jacobian` gives every partial derivative; `batch_jacobian` one Jacobian per example.

# %%
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = x * x
print(tape.jacobian(y, x).shape)
tape.batch_jacobian(y, x)

# %% [markdown]
# ## Hessian-vector products
# `H·v` is the gradient of `(∇f)·v`: two backward passes, no `n × n` matrix.

# %%
f = lambda t: tf.reduce_sum(tf.sin(t) * tf.reduce_prod(t + 2.0))
x = tf.constant([0.3, -0.8, 1.2], tf.float64)
v = tf.constant([1.0, 0.5, -2.0], tf.float64)
with tf.GradientTape(persistent=True) as outer:      # persistent: we ask it two questions
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = f(x)
    g = inner.gradient(y, x)
    g_dot_v = tf.reduce_sum(g * v)
hvp = outer.gradient(g_dot_v, x)       # H·v, from one more backward pass
hessian = outer.jacobian(g, x)         # the whole H, one backward pass per entry: only to check
hvp.numpy(), (hessian.numpy() @ v.numpy())

# %% [markdown]
# ## Exercises
# 1. Compute the third derivative of `tf.exp` at 0 with three tapes.
# 2. For `f(x) = x @ A @ x` with a symmetric `A`, what is the Hessian? Check with `jacobian`.
# 3. Does a second derivative work through `tf.recompute_grad`? Try it with `tf.sin`.
