"""Did a change cost speed?  This tree against another checkout of minitape, in paired fresh processes.

Each round starts one fresh Python process per tree, in turn (the order swapped every round, so
machine drift falls on both sides), and each process times the same workloads:

* ``chain``: the scalar chain of ``overhead.py`` (2,000 ops recorded and differentiated), µs per op;
* ``mlp``: the 784-512-512-10 MLP step of ``overhead.py``, forward + backward, ms;
* ``checkpoint none`` and ``checkpoint √L``: the 32-block chain of ``checkpoint.py`` with no
  checkpoints and with √L segments, forward + backward, ms.

It prints each workload's median in both trees and the median of the per-round ratios (this tree
over the other): below 1.00 this tree is faster.

Run:  .venv/bin/python benchmarks/against.py OTHER_CHECKOUT [--rounds 9]
      (for example ``git worktree add /tmp/base main`` first, for the tree before a change)
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

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

params, x, labels = overhead.make_problem()
variables, xs = [tf.Variable(p) for p in params], tf.constant(x)
chain = checkpoint.Chain()
h = tf.constant(np.random.default_rng(1).normal(size=(checkpoint.BATCH, checkpoint.WIDTH)).astype(np.float32))
forwards = checkpoint.modes(chain)
print(json.dumps({
    "chain": best(overhead.chain_once, 40) / (4 * overhead.CHAIN_STEPS) * 1e6,
    "mlp": best(lambda: overhead.mlp_minitape(variables, xs, labels), 30) * 1e3,
    "checkpoint none": best(lambda: checkpoint.step_time(forwards["none"][0], chain, h), 10) * 1e3,
    "checkpoint √L": best(lambda: checkpoint.step_time(forwards["√L segments"][0], chain, h), 10) * 1e3,
}))
"""

UNITS = {"chain": "µs/op", "mlp": "ms", "checkpoint none": "ms", "checkpoint √L": "ms"}


def measure(tree: Path) -> dict[str, float]:
    """One fresh process's figures for ``tree``: its own minitape, its own benchmark modules."""
    env = {**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{tree / 'benchmarks'}",
           "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", WORKER], env=env, cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="another checkout of minitape (the reference)")
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    this, other = HERE.parent, args.other.resolve()
    ours, theirs = [], []
    for k in range(args.rounds):
        pair = [(this, ours), (other, theirs)]
        for tree, results in pair if k % 2 == 0 else reversed(pair):
            results.append(measure(tree))
        print(f"round {k + 1}/{args.rounds} done", file=sys.stderr)
    print(f"{'workload':<18}{'this tree':>16}{'other':>16}{'ratio':>8}   (medians of {args.rounds} paired rounds)")
    for name, unit in UNITS.items():
        ratios = [a[name] / b[name] for a, b in zip(ours, theirs)]
        mine, reference = (statistics.median(r[name] for r in side) for side in (ours, theirs))
        print(f"{name:<18}{mine:>10.3f} {unit:<5}{reference:>10.3f} {unit:<5}{statistics.median(ratios):>8.3f}")


if __name__ == "__main__":
    main()
