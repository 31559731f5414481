# %% [markdown]
# # 1. The tape
#
# **You will learn:** what a `GradientTape` records and when; how to watch tensors; why some
# gradients are `None`; persistent tapes; and tapes inside tapes.

# %%
import minitape as tf

# %% [markdown]
# ## Recording
# A tape records an op only if one of its inputs is something the tape follows: a watched
# tensor, a trainable variable it has seen read, or anything computed from those.

# %%
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
    z = tf.constant(2.0) * 5.0       # nothing the tape follows: not recorded
tape.print_saved()
tape.gradient(y, x)

# %% [markdown]
# ## `None` or zeros
# A source that the target does not depend on has no gradient: TensorFlow says `None`, unless
# you ask for zeros.

# %%
a, b = tf.constant(1.0), tf.constant(2.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch([a, b])
    c = a * 3.0
print(tape.gradient(c, [a, b]))
print(tape.gradient(c, [a, b], unconnected_gradients=tf.UnconnectedGradients.ZERO))

# %% [markdown]
# ## Variables are watched when read
# Trainable variables need no `watch`; non-trainable ones are ignored.

# %%
w = tf.Variable(2.0)
frozen = tf.Variable(5.0, trainable=False)
with tf.GradientTape() as tape:
    loss = w * w * frozen
tape.watched_variables(), tape.gradient(loss, [w, frozen])

# %% [markdown]
# ## Persistent tapes
# A tape lets go of everything after one `gradient` call, unless it is persistent.

# %%
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = x ** 3
print(tape.gradient(y, x), tape.gradient(y, x))
try:
    with tf.GradientTape() as once:
        once.watch(x)
        y = x ** 3
    once.gradient(y, x)
    once.gradient(y, x)
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# ## Tapes inside tapes
# The outer tape records what the inner tape's `gradient` computes, so it can differentiate it.

# %%
with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = x ** 3
    dy = inner.gradient(y, x)
dy, outer.gradient(dy, x)

# %% [markdown]
# ## Where tensors live
# Every tensor says which device holds it. `with tf.device("GPU:0"):` puts new tensors on a GPU
# through CuPy (`pip install 'minitape[gpu]'`). Without one, minitape says what is missing. The
# tape works the same on any backend; here it runs on array-api-strict, a stand-in library that
# has nothing but the Python array API standard.

# %%
print(x.device)
try:
    with tf.device("GPU:0"):
        on_gpu = tf.constant([1.0, 2.0])
    print("on", on_gpu.device)
except tf.errors.DeviceNotFoundError as error:
    print("DeviceNotFoundError:", error)

with tf.backends.use("array_api_strict"):
    s = tf.constant([0.5, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(s)
        y = tf.reduce_sum(tf.sin(s) * s)
    grad = tape.gradient(y, s)
type(grad._value), grad.numpy()

# %% [markdown]
# Two tensors on different devices never meet silently: copy one explicitly with `x.cpu()` or
# `tf.to_device`. The copy is an op, so gradients flow back across it.

# %%
try:
    s + tf.constant(1.0)
except tf.errors.InvalidArgumentError as error:
    print("InvalidArgumentError:", error)
s.cpu() + tf.constant(1.0)

# %% [markdown]
# ## Exercises
# 1. Predict `tape.gradient(y, x)` for `y = x * x + x` at `x = 3`, then check.
# 2. Why is the gradient of `tf.cast(x, tf.int32)` with respect to `x` `None`?
# 3. Use two nested tapes to compute the second derivative of `tf.sin` at 0.5; compare with `-sin(0.5)`.
