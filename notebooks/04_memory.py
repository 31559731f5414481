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
# The plan for 12 steps with 3 stored states, against time. Time runs to the right, one unit per step
# run or reversed; height is the position along the chain. Grey lines advance unrecorded (the first is
# the forward pass, the others are recomputations), blue ones run a step under the tape, red ones push the
# gradient back through it. The green bands are the stored states: the chain's input, kept throughout,
# and the snapshots the plan stores and frees.
#
# A plan is a list of *actions*, each a tuple; state `i` is the chain's value before step `i` (state 0
# is its input, stored from the start), and step `i` takes state `i` to state `i + 1`:
#
# | action | what it does |
# | --- | --- |
# | `("advance", i, j)` | run steps `i` … `j − 1` from state `i` (stored, or in hand), tapes paused: state `j` is in hand |
# | `("store", i)` | keep state `i`, in hand, as a snapshot (it counts against the stored states) |
# | `("free", i)` | let snapshot `i` go |
# | `("record", i)` | run step `i` from state `i` under a tape, keeping its activations |
# | `("backward", i)` | push the gradient back through step `i` (recorded, the last not yet reversed) |
#
# `chain_schedule(n, c).actions` is the optimal plan; `exercises.check_schedule` checks one you write.

# %%
def draw_schedule(plan):
    fig, ax = plt.subplots(figsize=(7, 3.5))
    colour = {"advance": "0.55", "record": "C0", "backward": "C3"}
    time, stored_since = 0, {0: 0}
    for kind, i, *rest in plan.actions:
        if kind == "store":
            stored_since[i] = time
        elif kind == "free":
            ax.hlines(i, stored_since.pop(i), time, color="C2", lw=8, alpha=0.35)
        else:
            length = rest[0] - i if kind == "advance" else 1
            start, end = (i + 1, i) if kind == "backward" else (i, i + length)
            ax.plot([time, time + length], [start, end], color=colour[kind], lw=2)
            time += length
    for i, since in stored_since.items():
        ax.hlines(i, since, time, color="C2", lw=8, alpha=0.35)
    ax.plot([], [], color="0.55", label="advance (unrecorded)")
    ax.plot([], [], color="C0", label="record a step")
    ax.plot([], [], color="C3", label="backward through it")
    ax.plot([], [], color="C2", lw=8, alpha=0.35, label="stored state")
    ax.set(xlabel="time (steps run or reversed)", ylabel="position in the chain",
           title=f"chain_schedule({plan.steps}, {plan.snapshots}): {plan.recomputations} recomputations, "
                 f"{plan.peak_snapshots} states stored at most")
    ax.legend(loc="upper left", bbox_to_anchor=(1, 1), frameon=False)

draw_schedule(chain_schedule(12, 3))

# %% [markdown]
# ## Memory over time
# The same trade as the tapes live it: the bytes held after every step of one gradient, for the first
# 12 blocks run plainly and by `checkpoint_chain` with 3 stored states (the plan above). Plainly the
# tape climbs through the forward pass and holds it all until the gradient is done. The chain holds
# its snapshots, and each step it reverses is recorded, differentiated and let go: the saw-tooth,
# never higher than one step's activations above the snapshots. Its steps run with the tapes paused
# while it advances, so the recomputations show as the steps recorded again (in the legend).

# %%
def memory_of(forward):
    with tf.events.timeline() as events:
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(forward(x))
        tape.gradient(loss, [v for pair in weights[:12] for v in pair])
    return events

tf.viz.compare_memory({
    "plain": memory_of(in_order(blocks[:12])),
    "checkpoint_chain (Revolve), 3 states": memory_of(lambda h: tf.checkpoint_chain(blocks[:12], h, snapshots=3)),
})

# %% [markdown]
# ## Exercises
# 1. Which `segments` minimises the held bytes of `checkpoint_sequential` on 32 blocks? What does it cost?
# 2. With 2 stored states, how many recomputations does a 100-step chain need? Check with `revolve_recomputations`.
# 3. Why does "per block" hold about as much as "plain" here? (Hint: `tape.print_saved()`.)
