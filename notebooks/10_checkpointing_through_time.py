# %% [markdown]
# # 10. Checkpointing through time
#
# **You will learn:** what backpropagation through time keeps for a recurrent network, why
# checkpointing every step buys nothing for a small cell, and how Griewank's binomial schedule
# (Revolve, `tf.checkpoint_chain`) reverses a sequence of any length with a fixed number of stored
# states, recomputing the fewest steps possible — measured, and equal to the formula.

# %%
import matplotlib.pyplot as plt
import numpy as np

import minitape as tf
from minitape.checkpointing.revolve import revolve_recomputations

# %% [markdown]
# ## A recurrent cell, by hand
# One step reads the input at time *t* and the state, and returns the next state:
# `h = tanh(x_t @ Wx + h @ Wh + b)`. The same weights at every step; a counter tells how many
# times a step has run, forward or recomputed.

# %%
BATCH, INPUTS, UNITS, SNAPSHOTS = 4, 3, 16, 3
rng = np.random.default_rng(0)
Wx = tf.Variable(rng.normal(0, 0.5, (INPUTS, UNITS)).astype("float32"), name="Wx")
Wh = tf.Variable(rng.normal(0, 0.25, (UNITS, UNITS)).astype("float32"), name="Wh")
b = tf.Variable(np.zeros(UNITS, "float32"), name="b")
runs = 0

def cell(x, h):
    global runs
    runs += 1
    return tf.tanh(x @ Wx + h @ Wh + b)

def sequence(length):
    """The inputs, one tensor per step (ours, made before any tape), and the steps that read them."""
    xs = [tf.constant(rng.normal(size=(BATCH, INPUTS)).astype("float32")) for _ in range(length)]
    return [lambda h, x=x: cell(x, h) for x in xs]

# %% [markdown]
# ## Three schedules
# * **plain**: the tape records every step.
# * **per step**: each step under `tf.recompute_grad`.
# * **Revolve**: `tf.checkpoint_chain(steps, h0, snapshots=3)`: at most 3 states stored (the input
#   among them), the steps between them recomputed as the backward pass needs them.
#
# For each, the bytes the tape holds after the forward pass, the number of step runs (forward and
# backward together) and the gradients.

# %%
def run(steps, schedule):
    global runs
    runs, h0 = 0, tf.zeros((BATCH, UNITS))
    with tf.GradientTape() as tape:
        tape.watch(h0)
        if schedule == "Revolve":
            h = tf.checkpoint_chain(steps, h0, snapshots=SNAPSHOTS)
        else:
            h = h0
            for step in steps:
                h = (tf.recompute_grad(step) if schedule == "per step" else step)(h)
        held = tape.memory_info()["current"]
        loss = tf.reduce_sum(h * h)
    grads = tape.gradient(loss, [h0, Wx, Wh, b])
    return held, runs, [g.numpy() for g in grads]

# %% [markdown]
# ## The theory
# With `A` the bytes of one state (`BATCH × UNITS` floats) and `T` steps:
#
# * **plain**: `matmul` keeps its inputs — `x_t` (ours) and the previous state, which is the
#   previous `tanh`'s output; `tanh` keeps its output; the additions keep nothing. So one state per
#   step: `T·A` (the first state is ours). Runs: `T`.
# * **per step**: each entry keeps its input, the previous state: `(T − 1)·A`. No saving: this cell
#   keeps nothing but its state, so checkpointing it only doubles the work. Runs: `2·T`.
# * **Revolve**: the stored states other than the input (`SNAPSHOTS − 1`), and the last step,
#   recorded under a tape of its own, with its own copy of its input and its output: `(SNAPSHOTS + 1)·A`,
#   whatever `T`. Runs: `T + revolve_recomputations(T, SNAPSHOTS)`, Griewank and Walther's minimum
#   `t·T − C(c+t, c+1)`.

# %%
A = BATCH * UNITS * 4
lengths = [8, 16, 32, 64, 128, 256]
schedules = ["plain", "per step", "Revolve"]
held, executions = {s: [] for s in schedules}, {s: [] for s in schedules}
for T in lengths:
    steps = sequence(T)
    theory = {"plain": (T * A, T), "per step": ((T - 1) * A, 2 * T),
              "Revolve": ((SNAPSHOTS + 1) * A, T + revolve_recomputations(T, SNAPSHOTS))}
    results = {s: run(steps, s) for s in schedules}
    for s in schedules:
        bytes_held, count, grads = results[s]
        assert (bytes_held, count) == theory[s], (T, s, bytes_held, count, theory[s])
        assert all(np.allclose(g, p, rtol=1e-5, atol=1e-6) for g, p in zip(grads, results["plain"][2]))
        held[s].append(bytes_held)
        executions[s].append(count)
    print(f"T={T:3}: held {[results[s][0] for s in schedules]} bytes, runs {[results[s][1] for s in schedules]}")
print("held bytes and step runs equal the theory, and the gradients agree, for every length")

# %% [markdown]
# ## Memory against time, plotted
# Left, what each schedule holds; right, how many steps it runs, with Revolve's binomial optimum
# drawn from the formula alone.

# %%
figure, (memory, time) = plt.subplots(1, 2, figsize=(10, 4))
for s, marker in zip(schedules, "o^s"):
    memory.plot(lengths, np.array(held[s]) / A, marker=marker, label=s)
    time.plot(lengths, executions[s], marker=marker, label=s)
time.plot(lengths, [T + revolve_recomputations(T, SNAPSHOTS) for T in lengths], "k:",
          label="T + revolve_recomputations(T, 3)")
memory.set(xscale="log", yscale="log", xlabel="sequence length T", ylabel="held after the forward pass (states)")
time.set(xscale="log", yscale="log", xlabel="sequence length T", ylabel="step runs, forward + backward")
memory.legend()
time.legend()
plt.tight_layout()

# %% [markdown]
# ## Memory over time: the saw-tooth
# The plot above gives one number per schedule: what the tape holds when the forward pass ends. Here is
# every step of one gradient for `T = 16`: the bytes all the tapes hold after each event, forward then
# backward (`tf.viz.compare_memory`; every number is a tape's `memory_info()["current"]` at that step).
#
# * **plain** climbs one state per step through the forward pass, holds all 16 until `tape.gradient`
#   reaches the first step, and lets go at the end.
# * **per step** climbs the same way (each entry keeps the state it was given), and in the backward pass
#   saw-tooths just above it: each step is recorded again under a local tape (+one state), differentiated,
#   and let go. A higher peak than plain, and twice the work.
# * **Revolve** stays flat and low: its stored states, plus one step recorded at a time. Each tooth is a
#   step recomputed from the nearest stored state, differentiated and dropped; the line is longer because
#   it recorded more (in the legend: the ops recorded again). Its forward pass is short: the steps it
#   advances run with the tapes paused, seen by no tape.

# %%
def memory_of(steps, schedule):
    with tf.events.timeline() as events:
        run(steps, schedule)
    return events

steps = sequence(16)
over_time = tf.viz.compare_memory({s: memory_of(steps, s) for s in schedules})
for s, memory in over_time.timelines.items():
    end_of_steps = memory[memory.backward_starts[0] - 3]       # before the loss's two ops: h * h, reduce_sum
    assert end_of_steps.tapes["tape"] == run(steps, s)[0]      # the user's tape holds what memory_info said
    print(f"{s:>8}: peak {memory.peak.total:5,} bytes, {len(memory):3} steps, {memory.recomputed} ops recorded again")
over_time

# %% [markdown]
# ## Watching a sequence reversed
# Four steps under `checkpoint_chain` with 2 stored states: the input `h0` and one more. The forward pass
# advances with the tapes paused, stores a state, and records only the last step. `tape.gradient` then
# reverses the steps from the last: for each, it advances from the nearest stored state (paused again),
# records the step under a local tape, goes back through it, and lets it go. Press ▶.

# %%
x0, x1, x2, x3 = [tf.constant(rng.normal(size=(BATCH, INPUTS)).astype("float32")) for _ in range(4)]
four = [lambda h, x=x: cell(x, h) for x in (x0, x1, x2, x3)]
h0 = tf.zeros((BATCH, UNITS))
with tf.events.timeline() as events:
    with tf.GradientTape() as tape:
        tape.watch(h0)
        h = tf.checkpoint_chain(four, h0, snapshots=2)
        loss = tf.reduce_sum(h * h)
    grads = tape.gradient(loss, [h0, Wx, Wh, b])
events.names = locals()
events.player()

# %% [markdown]
# ## More to try
# 1. Give the cell a hidden layer (`tanh(tanh(x @ Wx + h @ Wh + b) @ Wo)`). Does per-step
#    checkpointing pay now? Predict, then measure.
# 2. Change `SNAPSHOTS` to 2, then 5. How do the runs for `T = 256` change? Compare with
#    `revolve_recomputations(256, c)`.
# 3. `tf.checkpointing.revolve.chain_schedule(8, 3).actions` is the plan for 8 steps: follow it by hand.
