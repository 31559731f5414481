"""Memory against compute, measured: five ways to differentiate one chain (issue [memory]).

A chain of 32 blocks ``tanh(x @ W + b)`` (256→256, batch 256, float32); one
activation is 256 KiB.  For each mode: the bytes held after the forward pass
(the tape's own accounting and tracemalloc side by side; the forward keeps only
a scalar loss), the peak traced during forward + backward, how many times the
blocks ran, and the forward+backward time as a ratio to mode none.

Mode none is also timed against the same step written by hand in NumPy (forward
keeping every activation, loss = sum of the output, backward to dW and db of each
block), after checking once that both give the same gradients: paired runs, order
alternated, the median of the per-pair ratios (target ≤ 1.1).  Every time is CPU time
(``time.process_time``; run it with one BLAS thread, ``OPENBLAS_NUM_THREADS=1``): on a shared machine the
wall clock also counts the time other programs held the core.

Theory (held after forward, input excluded): none 8.00 MiB (every tanh output),
per-block 7.75 (each later block's input), √L = 6 segments 1.25 (5 segment inputs),
checkpoint_sequential(6) the same, checkpoint_chain(c=4) its snapshots plus the
last step's input and output.

It also plots stored states against recomputations for c = 1..8 (measured
points and Griewank–Walther's curve) into benchmarks/checkpoint_tradeoff.png.

Run:  .venv/bin/python benchmarks/checkpoint.py
"""
from __future__ import annotations

import gc
import math
import statistics
import time
import tracemalloc
from pathlib import Path

import numpy as np

import minitape as tf
from minitape.checkpointing.schedules import chain_schedule, in_order, revolve_recomputations
from sequence import numpy_blas

DEPTH, WIDTH, BATCH = 32, 256, 256
ACTIVATION = BATCH * WIDTH * 4
MIB = 2**20
ROOT = round(math.sqrt(DEPTH))          # 6 segments
CLOCK = time.process_time


class Chain:
    """The 32 blocks, counting how often they run."""

    def __init__(self, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.weights = [(tf.Variable(rng.normal(size=(WIDTH, WIDTH)).astype(np.float32) / 16),
                         tf.Variable(np.zeros(WIDTH, np.float32))) for _ in range(DEPTH)]
        self.runs = 0
        self.blocks = [self._block(W, b) for W, b in self.weights]

    def _block(self, W: tf.Variable, b: tf.Variable):
        def block(x):
            self.runs += 1
            return tf.tanh(x @ W + b)
        return block

    @property
    def variables(self) -> list[tf.Variable]:
        return [v for pair in self.weights for v in pair]


def modes(chain: Chain) -> dict:
    blocks = chain.blocks
    size = DEPTH // ROOT
    plan = chain_schedule(DEPTH, 4)
    chain_states = len({a[1] for a in plan.forward_actions if a[0] == "store"} | {DEPTH - 1, DEPTH})
    return {
        "none": (in_order(blocks), DEPTH),
        "per-block": (in_order([tf.recompute_grad(b) for b in blocks]), DEPTH - 1),
        "√L segments": (in_order([tf.recompute_grad(in_order(blocks[i:i + size])) for i in range(0, size * (ROOT - 1), size)]
                                 + [tf.recompute_grad(in_order(blocks[size * (ROOT - 1):]))]), ROOT - 1),
        "checkpoint_sequential": (lambda x: tf.checkpoint_sequential(blocks, ROOT, x), ROOT - 1),
        "checkpoint_chain(c=4)": (lambda x: tf.checkpoint_chain(blocks, x, snapshots=4), chain_states),
    }


def profile(forward, chain: Chain, x: tf.Tensor) -> dict:
    """Held bytes (tape and tracemalloc), traced peak and block runs of one forward + backward."""
    gc.collect()
    chain.runs = 0
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(forward(x))
    gc.collect()
    traced = tracemalloc.get_traced_memory()[0] - before
    held = tape.memory_info()["current"]
    tape.gradient(loss, chain.variables)
    peak = tracemalloc.get_traced_memory()[1] - before
    tracemalloc.stop()
    return {"held": held, "traced": traced, "peak": peak, "runs": chain.runs}


def step_time(forward, chain: Chain, x: tf.Tensor) -> float:
    start = CLOCK()
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(forward(x))
    tape.gradient(loss, chain.variables)
    return CLOCK() - start


def numpy_step(params: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """Mode none by hand: the loss and [dW, db] of every block, in the order of ``Chain.variables``."""
    activations = [x]
    for W, b in params:
        activations.append(np.tanh(activations[-1] @ W + b))
    loss = activations[-1].sum()
    grads: list[np.ndarray] = [None] * (2 * DEPTH)
    d = np.ones_like(activations[-1])                       # d loss / d output
    for k in range(DEPTH - 1, -1, -1):
        out = activations[k + 1]
        d = d * (1 - out * out)                             # through tanh
        grads[2 * k], grads[2 * k + 1] = activations[k].T @ d, d.sum(axis=0)
        if k:                                               # the input is a constant: no gradient for it
            d = d @ params[k][0].T
    return loss, grads


def numpy_ratio(chain: Chain, x: tf.Tensor, rounds: int = 30, warmup: int = 3) -> None:
    """Mode none against ``numpy_step``: same gradients, then paired timings with the order alternated."""
    params = [(W.numpy(), b.numpy()) for W, b in chain.weights]
    x_np = x.numpy()
    forward = in_order(chain.blocks)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(forward(x))
    ours = tape.gradient(loss, chain.variables)
    their_loss, theirs = numpy_step(params, x_np)
    assert np.allclose(loss.numpy(), their_loss, rtol=1e-4)
    assert all(np.allclose(a.numpy(), b, rtol=1e-4, atol=1e-4) for a, b in zip(ours, theirs)), "gradients differ"
    pairs = []
    for k in range(warmup + rounds):
        if k % 2 == 0:      # the second run of a pair finds warmer caches: alternate who goes first
            pairs.append((step_time(forward, chain, x), _seconds(numpy_step, params, x_np)))
        else:
            theirs_first = _seconds(numpy_step, params, x_np)
            pairs.append((step_time(forward, chain, x), theirs_first))
    pairs = pairs[warmup:]
    ratio = statistics.median([o / t for o, t in pairs])
    print(f"(c) mode none vs hand-written NumPy: ratio {ratio:.3f} (median of {len(pairs)} paired runs; "
          f"{numpy_blas()})")
    print(f"    minitape {statistics.median([o for o, _ in pairs]) * 1e3:.2f} ms, "
          f"NumPy {statistics.median([t for _, t in pairs]) * 1e3:.2f} ms (medians); target ≤ 1.1; gradients agree")


def _seconds(run, *args) -> float:
    start = CLOCK()
    run(*args)
    return CLOCK() - start


def table(chain: Chain, x: tf.Tensor, rounds: int = 30) -> None:
    runs = modes(chain)
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):                    # interleaved, so machine drift touches every mode alike
        for name, (forward, _) in runs.items():
            times[name].append(step_time(forward, chain, x))
    base = statistics.median(times["none"][3:])
    print(f"{'mode':<22} {'held: tape':>10} {'tracemalloc':>11} {'theory':>8} {'peak':>8} {'block runs':>10} {'time':>6}")
    for name, (forward, states) in runs.items():
        row = profile(forward, chain, x)
        ratio = statistics.median(times[name][3:]) / base
        print(f"{name:<22} {row['held'] / MIB:>6.2f} MiB {row['traced'] / MIB:>7.2f} MiB {states * ACTIVATION / MIB:>4.2f} MiB "
              f"{row['peak'] / MIB:>4.2f} MiB {row['runs']:>10} {ratio:>5.2f}x")


def tradeoff_plot(chain: Chain, x: tf.Tensor, path: Path) -> None:
    """Stored states against recomputations for c = 1..8: measured block runs and the theory."""
    measured = []
    for c in range(1, 9):
        forward = lambda h, c=c: tf.checkpoint_chain(chain.blocks, h, snapshots=c)   # noqa: E731
        measured.append(profile(forward, chain, x)["runs"] - DEPTH)
        assert measured[-1] == revolve_recomputations(DEPTH, c)
    print("recomputations for c = 1..8:", measured, "(equal to t·n − C(c+t, c+1) for each c)")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib is not installed: no plot)")
        return
    cs = np.arange(1, 9)
    fine = np.arange(1, 9, 0.01)
    theory = [revolve_recomputations(DEPTH, int(c)) for c in np.floor(fine)]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.step(fine, theory, where="post", color="0.6", label="Griewank–Walther minimum, t·n − C(c+t, c+1)")
    ax.plot(cs, measured, "o", color="C3", label="checkpoint_chain, measured")
    ax.set_xlabel("stored states c (the input included)")
    ax.set_ylabel(f"block recomputations ({DEPTH}-block chain)")
    ax.set_yscale("log")
    ax.set_title("Memory against recomputation")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"plot written to {path}")


def main() -> None:
    chain = Chain()
    x = tf.constant(np.random.default_rng(1).normal(size=(BATCH, WIDTH)).astype(np.float32))
    table(chain, x)
    numpy_ratio(chain, x)
    tradeoff_plot(chain, x, Path(__file__).with_name("checkpoint_tradeoff.png"))


if __name__ == "__main__":
    main()
