# %% [markdown]
# # 2. `recompute_grad`: what is kept, what is recomputed
#
# **You will learn:** what a checkpointed call leaves on the tape, when `running` is printed and
# why, how variables and keyword arguments get their gradients, and why randomness is replayed.

# %%
import numpy as np
import minitape as tf

# %% [markdown]
# ## What the tape holds
# Without checkpointing, each op keeps what its derivative needs. With it, one entry keeps the inputs.

# %%
W = tf.Variable(np.random.default_rng(0).normal(size=(64, 64)).astype("float32") / 8)

def block(x):
    return tf.tanh(tf.tanh(x @ W) @ W)

x = tf.ones((32, 64))
for name, f in [("plain", block), ("checkpointed", tf.recompute_grad(block))]:
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = f(f(x))
    print(f"{name:>12}: {len(tape.entries())} entries, {tape.memory_info()['current']:,} bytes held")

# %% [markdown]
# ## When is `running` printed?
# Once per call in the forward pass; once per call again when `gradient` recomputes it.

# %%
def loud(x):
    tf.print("running on", x)
    return x * W[0, 0]

loud_checkpointed = tf.recompute_grad(loud)
with tf.GradientTape() as tape:
    r = tf.constant(1.0)
    r = loud_checkpointed(loud_checkpointed(r))
print("-- gradient --")
grad = tape.gradient(r, W)

# %% [markdown]
# ## Watching the recomputation
# The same two calls, recorded as a timeline and played: in the forward pass each call is one entry
# that keeps only its input; `gradient` recomputes each call under a local tape (orange, in a dashed
# cluster), differentiates it, and lets that tape go. Press ▶, or step with ◀ ▶▶.

# %%
with tf.events.timeline() as events:
    with tf.GradientTape() as tape:
        r = tf.constant(1.0)
        tape.watch(r)
        middle = loud_checkpointed(r)
        out = loud_checkpointed(middle)
    grad = tape.gradient(out, [r, W])
events.player(names=locals())

# %% [markdown]
# ## Variables and keyword arguments
# Every trainable variable the function reads gets its gradient, and so do tensors passed by keyword.

# %%
scale = tf.Variable(3.0)
f = tf.recompute_grad(lambda x, shift=None: tf.sin(x * scale) + shift)
x, shift = tf.constant(0.5), tf.constant(1.0)
with tf.GradientTape() as tape:
    tape.watch([x, shift])
    y = f(x, shift=shift)
tape.gradient(y, {"x": x, "shift": shift, "scale": scale})

# %% [markdown]
# ## Randomness is replayed
# A recomputation must compute the same thing. minitape gives each checkpointed call its own
# random seed and replays it, so dropout masks match (TensorFlow does not promise this).

# %%
noisy = tf.recompute_grad(lambda x: tf.nn.dropout(x, rate=0.5), check_values=True)
x = tf.ones((8,))
with tf.GradientTape() as tape:
    tape.watch(x)
    out = noisy(x)
out.numpy(), tape.gradient(out, x).numpy()

# %% [markdown]
# ## Exercises
# 1. Give `block` an `is_recomputing` keyword and print it. What does it say, and when?
# 2. Mark `scale` as non-trainable. What is its gradient now?
# 3. Remove `check_values=True` and make the function draw with NumPy's random generator instead.
#    What goes wrong, and would you notice?
