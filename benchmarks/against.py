"""Did a change cost speed?  This tree against another checkout of minitape, in paired fresh processes.

Each round starts one fresh Python process per tree, in turn (the order swapped every round, so
machine drift falls on both sides), and each process times the same workloads:

* ``chain``: the scalar chain of ``overhead.py`` (2,000 ops recorded and differentiated), µs per op;
* ``mlp``: the 784-512-512-10 MLP step of ``overhead.py``, forward + backward, ms;
* ``checkpoint none`` and ``checkpoint √L``: the 32-block chain of ``checkpoint.py`` with no
  checkpoints and with √L segments, forward + backward, ms;
* on request (``--only``): ``lstm``, the LSTM pass of ``rnn.py``, and ``transformer``, the training
  step of ``sequence.py`` (no checkpointing), ms.

It prints each workload's median in both trees and the median of the per-round ratios (this tree
over the other): below 1.00 this tree is faster.

Run:  .venv/bin/python benchmarks/against.py OTHER_CHECKOUT [--rounds 9] [--only chain,lstm]
      (for example ``git worktree add /tmp/base main`` first, for the tree before a change)
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

from sequence import worker_figures

HERE = Path(__file__).resolve().parent

# Run inside each fresh process, with that tree's minitape and benchmarks on its path.
WORKER = r"""
import json, statistics, time
import numpy as np
import minitape as tf
import overhead, checkpoint

def best(run, repeats):
    run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)

import sys
wanted = sys.argv[1].split(",")

def mlp():
    params, x, labels = overhead.make_problem()
    variables, xs = [tf.Variable(p) for p in params], tf.constant(x)
    return best(lambda: overhead.mlp_minitape(variables, xs, labels), 30) * 1e3

def checkpointed(mode):
    chain = checkpoint.Chain()
    h = tf.constant(np.random.default_rng(1).normal(size=(checkpoint.BATCH, checkpoint.WIDTH)).astype(np.float32))
    return best(lambda: checkpoint.step_time(checkpoint.modes(chain)[mode][0], chain, h), 10) * 1e3

def sequence_step():
    import sequence
    tf_, model = sequence.minitape_model()
    x, y = (tf.constant(a) for a in sequence.data())
    optimizer = tf.keras.optimizers.Adam(1e-3)
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, model(x)))
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return best(step, 10) * 1e3

WORKLOADS = {
    "chain": lambda: best(overhead.chain_once, 40) / (4 * overhead.CHAIN_STEPS) * 1e6,
    "mlp": mlp,
    "checkpoint none": lambda: checkpointed("none"),
    "checkpoint √L": lambda: checkpointed("√L segments"),
    "lstm": lambda: __import__("rnn").minitape_figures(7)["LSTM ms"],
    "transformer": sequence_step,
}
print(json.dumps({name: WORKLOADS[name]() for name in wanted}))
"""

UNITS = {"chain": "µs/op", "mlp": "ms", "checkpoint none": "ms", "checkpoint √L": "ms", "lstm": "ms",
         "transformer": "ms"}
DEFAULT = "chain,mlp,checkpoint none,checkpoint √L"


def measure(tree: Path, workloads: str) -> dict[str, float]:
    """One fresh process's figures for ``tree``: its own minitape, its own benchmark modules."""
    return worker_figures([sys.executable, "-c", WORKER, workloads],
                          {"PYTHONPATH": f"{tree}{os.pathsep}{tree / 'benchmarks'}"}, cwd=tree)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="another checkout of minitape (the reference)")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--only", default=DEFAULT, help=f"workloads, comma-separated, of: {', '.join(UNITS)}")
    args = parser.parse_args()
    this, other = HERE.parent, args.other.resolve()
    ours, theirs = [], []
    for k in range(args.rounds):
        pair = [(this, ours), (other, theirs)]
        for tree, results in pair if k % 2 == 0 else reversed(pair):
            results.append(measure(tree, args.only))
        print(f"round {k + 1}/{args.rounds} done", file=sys.stderr)
    print(f"{'workload':<18}{'this tree':>16}{'other':>16}{'ratio':>8}   (medians of {args.rounds} paired rounds)")
    for name in args.only.split(","):
        unit = UNITS[name]
        ratios = [a[name] / b[name] for a, b in zip(ours, theirs)]
        mine, reference = (statistics.median(r[name] for r in side) for side in (ours, theirs))
        print(f"{name:<18}{mine:>10.3f} {unit:<5}{reference:>10.3f} {unit:<5}{statistics.median(ratios):>8.3f}")


if __name__ == "__main__":
    main()
