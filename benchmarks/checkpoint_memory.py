"""What does checkpointing save?  Bytes held after the forward pass, measured by tracemalloc.

A chain of 32 blocks ``tanh(x @ W + b)`` (256→256, batch 256, float32).  One
activation is 256 KiB.  Theory, counting what the tape holds plus the output
the caller holds (the input is the caller's, allocated before):

* plain tape: each ``tanh`` keeps its output, nothing else: 32 activations (8.00 MiB);
* every block under ``recompute_grad``: each later block's input, plus the output: 32 (8.00 MiB)
  — minitape's plain tape already keeps only one activation per block;
* 4 checkpointed segments of 8 blocks: 3 segment inputs plus the output: 4 (1.00 MiB).

It also times forward + backward of each mode against the plain tape, side by side.

Run:  .venv/bin/python benchmarks/checkpoint_memory.py
"""
from __future__ import annotations

import gc
import statistics
import time
import tracemalloc

import numpy as np

import minitape as tf

DEPTH, WIDTH, BATCH = 32, 256, 256
MIB = 2**20
ACTIVATION = BATCH * WIDTH * 4


def build_chain(seed: int = 0):
    rng = np.random.default_rng(seed)
    layers = [(tf.Variable(rng.normal(size=(WIDTH, WIDTH)).astype(np.float32) / 16),
               tf.Variable(np.zeros(WIDTH, np.float32))) for _ in range(DEPTH)]

    def block(k):
        W, b = layers[k]
        return lambda x: tf.tanh(x @ W + b)

    return [block(k) for k in range(DEPTH)], [v for pair in layers for v in pair]


def sequence(functions):
    def run(x):
        for f in functions:
            x = f(x)
        return x
    return run


def modes(blocks):
    return {
        "plain tape": (sequence(blocks), DEPTH),
        "per block": (sequence([tf.recompute_grad(b) for b in blocks]), DEPTH),
        "4 segments": (sequence([tf.recompute_grad(sequence(blocks[i:i + 8])) for i in range(0, DEPTH, 8)]), 4),
    }


def held_bytes(forward, x) -> int:
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    with tf.GradientTape() as tape:
        out = forward(x)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del tape, out
    return held


def timed(forward, x, variables) -> float:
    start = time.perf_counter()
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(forward(x))
    tape.gradient(loss, variables)
    return time.perf_counter() - start


def main() -> None:
    blocks, variables = build_chain()
    x = tf.constant(np.random.default_rng(1).normal(size=(BATCH, WIDTH)).astype(np.float32))
    table = modes(blocks)
    times = {name: [] for name in table}
    for _ in range(12):                       # interleaved, so machine drift hits every mode alike
        for name, (forward, _) in table.items():
            times[name].append(timed(forward, x, variables))
    plain = statistics.median(times["plain tape"][2:])
    print(f"{'mode':<12} {'held (tracemalloc)':>19} {'theory':>9} {'time vs plain':>14}")
    for name, (forward, activations) in table.items():
        held = held_bytes(forward, x)
        ratio = statistics.median(times[name][2:]) / plain
        print(f"{name:<12} {held / MIB:>15.2f} MiB {activations * ACTIVATION / MIB:>5.2f} MiB {ratio:>13.2f}x")


if __name__ == "__main__":
    main()
