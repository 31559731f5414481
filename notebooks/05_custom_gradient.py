# %% [markdown]
# # 5. `custom_gradient`: writing your own derivative
#
# **You will learn:** to give a function a hand-written gradient — for numerical stability, and to
# clip gradients — and how checkpointing is built on the same idea.

# %%
import numpy as np
import minitape as tf

# %% [markdown]
# ## A numerically stable gradient
# `log(1 + exp(x))` overflows for large `x`, and so does its naive derivative.

# %%
def naive(x):
    return tf.math.log(1.0 + tf.exp(x))

@tf.custom_gradient
def stable(x):
    def grad(dy):
        return dy * tf.sigmoid(x)           # d/dx log(1 + e^x) = sigmoid(x), never inf
    return tf.math.softplus(x), grad

x = tf.constant([0.0, 10.0, 100.0])
for f in (naive, stable):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    print(f.__name__, y.numpy(), tape.gradient(y, x).numpy())

# %% [markdown]
# ## Clipping the gradient, not the value

# %%
@tf.custom_gradient
def clip_gradient(x):
    def grad(dy):
        return tf.clip_by_value(dy, -0.1, 0.1)
    return tf.identity(x), grad

x = tf.constant(2.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = 10.0 * clip_gradient(x)
tape.gradient(y, x)

# %% [markdown]
# ## Variables need `variables=`
# When the function reads a variable, `grad` must also return its gradient.

# %%
w = tf.Variable(3.0)

@tf.custom_gradient
def scaled(x):
    def grad(dy, variables=None):
        return dy * w, [dy * x]
    return x * w, grad

x = tf.constant(2.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = scaled(x)
tape.gradient(y, [x, w])

# %% [markdown]
# ## Exercises
# 1. Write `@tf.custom_gradient` for `tf.norm`-like `sqrt(sum(x²))` that returns 0 (not nan) at x = 0.
# 2. What happens if `grad` returns one gradient for a function of two inputs? Try it.
# 3. Read `minitape/checkpointing/recompute.py`: which part of `recompute_grad` plays the role of `grad`?
