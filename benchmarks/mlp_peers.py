"""An MLP step in minitape against its peers: hand-written NumPy, PyTorch, MyGrad and autograd.

The step is ``overhead.py``'s: a 784-512-512-10 tanh MLP on a batch of 128, float32, the mean softmax
cross-entropy and its gradient with respect to every weight (no update).  Each library runs in its own
fresh process with 1 thread, on the same arrays (written once by this script to a temporary ``.npz``);
every round runs them all, each round in another order.  It prints each library's median step and the
median of its per-round ratios to NumPy's and to minitape's step of the same round.

Run:  .venv/bin/python benchmarks/mlp_peers.py --peers /tmp/torchvenv/bin/python [--rounds 7]
(``--peers`` names an interpreter that has torch, mygrad and autograd: a scratch virtualenv.)
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

from sequence import median_step, numpy_blas, worker_figures


def load(path: str):
    import numpy as np
    problem = np.load(path)
    params = [problem[f"p{k}"] for k in range(len(problem.files) - 2)]
    return params, problem["x"], problem["labels"]


def minitape_step(path: str):
    import minitape as tf
    from overhead import mlp_minitape
    params, x, labels = load(path)
    variables, x = [tf.Variable(p) for p in params], tf.constant(x)
    return lambda: mlp_minitape(variables, x, labels)


def numpy_step(path: str):
    from overhead import mlp_numpy
    params, x, labels = load(path)
    return lambda: mlp_numpy(params, x, labels)


def torch_step(path: str):
    import torch
    torch.set_num_threads(1)
    params, x, labels = load(path)
    weights = [torch.tensor(p, requires_grad=True) for p in params]
    x, labels = torch.from_numpy(x), torch.from_numpy(labels)

    def step():
        h = x
        for k in range(0, len(weights) - 2, 2):
            h = torch.tanh(h @ weights[k] + weights[k + 1])
        loss = torch.nn.functional.cross_entropy(h @ weights[-2] + weights[-1], labels)
        return loss, torch.autograd.grad(loss, weights)
    return step


def mygrad_step(path: str):
    import mygrad as mg
    from mygrad.nnet.losses import softmax_crossentropy
    params, x, labels = load(path)
    weights = [mg.Tensor(p) for p in params]

    def step():
        h = x
        for k in range(0, len(weights) - 2, 2):
            h = mg.tanh(h @ weights[k] + weights[k + 1])
        loss = softmax_crossentropy(h @ weights[-2] + weights[-1], labels)
        loss.backward()
        return loss, [w.grad for w in weights]
    return step


def autograd_step(path: str):
    import autograd.numpy as anp
    from autograd import value_and_grad
    params, x, labels = load(path)
    rows = anp.arange(len(labels))

    def loss(weights):
        h = x
        for k in range(0, len(weights) - 2, 2):
            h = anp.tanh(h @ weights[k] + weights[k + 1])
        logits = h @ weights[-2] + weights[-1]
        shifted = logits - anp.max(logits, axis=1, keepdims=True)      # autograd's logsumexp needs SciPy
        return anp.mean(anp.log(anp.sum(anp.exp(shifted), axis=1)) - shifted[rows, labels])
    step = value_and_grad(loss)
    return lambda: step(params)


STEPS = {"minitape": minitape_step, "numpy": numpy_step, "torch": torch_step, "mygrad": mygrad_step,
         "autograd": autograd_step}
PEERS = ("torch", "mygrad", "autograd")        # run by the --peers interpreter


def write_problem(path: str) -> None:
    import numpy as np
    from overhead import make_problem
    params, x, labels = make_problem()
    np.savez(path, x=x, labels=labels, **{f"p{k}": p for k, p in enumerate(params)})


def in_fresh_process(python: str, side: str, path: str, repeats: int) -> float:
    return worker_figures([python, __file__, "--side", side, "--problem", path, "--repeats", str(repeats)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", metavar="PYTHON", help="an interpreter with torch, mygrad and autograd")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=20, help="timed steps per process")
    parser.add_argument("--side", choices=list(STEPS), help=argparse.SUPPRESS)
    parser.add_argument("--problem", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side:
        return print(json.dumps(median_step(STEPS[args.side](args.problem), args.repeats)))
    sides = [(sys.executable, "minitape"), (sys.executable, "numpy")]
    sides += [(args.peers, peer) for peer in PEERS] if args.peers else []
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "problem.npz")
        write_problem(path)
        rounds = []
        for k in range(args.rounds):
            order = sides[k % len(sides):] + sides[:k % len(sides)]       # each library leads in turn
            rounds.append({side: in_fresh_process(python, side, path, args.repeats) for python, side in order})
            print(f"round {k + 1}/{args.rounds} done", file=sys.stderr)
    print(f"MLP 784-512-512-10, batch 128, forward + backward, 1 thread each, medians of {args.rounds} rounds; "
          f"{numpy_blas()}")
    for _, side in sides:
        ms = statistics.median(r[side] for r in rounds)
        to_numpy = statistics.median(r[side] / r["numpy"] for r in rounds)
        to_minitape = statistics.median(r[side] / r["minitape"] for r in rounds)
        print(f"    {side:>9}: {ms:7.2f} ms   {to_numpy:.3f}× NumPy   {to_minitape:.3f}× minitape")


if __name__ == "__main__":
    main()
