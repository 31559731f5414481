# %% [markdown]
# # 4. Memory against compute
#
# **You will learn:** to measure what a tape holds, what checkpointing saves and costs, √L segments,
# and the optimal (binomial) schedule — with the theory beside the measurements.

# %%
import math
import numpy as np
import matplotlib.pyplot as plt

import minitape as tf
from minitape.checkpointing.schedules import chain_schedule, in_order, revolve_recomputations

# %% [markdown]
# ## A chain of 32 blocks
# Each block is `tanh(x @ W + b)`; one activation (batch 64, width 128, float32) is 32 KiB.

# %%
rng = np.random.default_rng(0)
weights = [(tf.Variable(rng.normal(size=(128, 128)).astype("float32") / 12), tf.Variable(np.zeros(128, "float32")))
           for _ in range(32)]
runs = {"count": 0}

def make_block(W, b):
    def block(x):
        runs["count"] += 1
        return tf.tanh(x @ W + b)
    return block

blocks = [make_block(W, b) for W, b in weights]
x = tf.constant(rng.normal(size=(64, 128)).astype("float32"))
activation = 64 * 128 * 4

modes = {
    "plain": in_order(blocks),
    "per block": in_order([tf.recompute_grad(b) for b in blocks]),
    "6 segments": lambda h: tf.checkpoint_sequential(blocks, 6, h),
    "chain, c=4": lambda h: tf.checkpoint_chain(blocks, h, snapshots=4),
}
for name, forward in modes.items():
    runs["count"] = 0
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(forward(x))
    held = tape.memory_info()["current"]
    tape.gradient(loss, [v for pair in weights for v in pair])
    print(f"{name:>11}: holds {held / activation:5.1f} activations, runs the blocks {runs['count']} times")

# %% [markdown]
# ## The optimal trade
# With `c` stored states, reversing `n` steps needs at least `t·n − C(c+t, c+1)` recomputations
# (Griewank and Walther). `checkpoint_chain` reaches it exactly:

# %%
measured = []
for c in range(1, 9):
    runs["count"] = 0
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.checkpoint_chain(blocks, x, snapshots=c))
    tape.gradient(loss, weights[0][0])
    measured.append(runs["count"] - 32)
theory = [revolve_recomputations(32, c) for c in range(1, 9)]
print(measured == theory, measured)

fig, ax = plt.subplots(figsize=(6, 3.5))
ax.step(range(1, 9), theory, where="mid", color="0.6", label="theory: t·n − C(c+t, c+1)")
ax.plot(range(1, 9), measured, "o", color="C3", label="checkpoint_chain, measured")
ax.set(xlabel="stored states c", ylabel="recomputations", yscale="log", title="32 blocks")
ax.legend();

# %% [markdown]
# ## The schedule, drawn
# Each action of the plan for 8 steps with 3 stored states:

# %%
plan = chain_schedule(8, 3)
print(plan.recomputations, "recomputations;", plan.peak_snapshots, "states at most")
for action in plan.actions:
    print(*action)

# %% [markdown]
# ## Exercises
# 1. Which `segments` minimises the held bytes of `checkpoint_sequential` on 32 blocks? What does it cost?
# 2. With 2 stored states, how many recomputations does a 100-step chain need? Check with `revolve_recomputations`.
# 3. Why does "per block" hold about as much as "plain" here? (Hint: `tape.print_saved()`.)
