"""The scalar chain of ``overhead.py`` (a) against PyTorch CPU eager: the price of one op, forward + backward.

2,000 float32 scalar ops (``y = y + tanh(sin(y)) * c``, 500 times) recorded and differentiated, in µs per op:
minitape's ``GradientTape`` against the same chain on 0-d ``torch`` tensors with ``requires_grad`` and
``torch.autograd.grad``.  Scalars make the arithmetic free, so this is each library's dispatch, recording
and backward loop.  Each side runs in its own fresh process, 1 thread, the two in turn round after round;
it prints each side's median and the median of the per-round ratios (target: minitape ≤ 0.9× PyTorch).
Times are CPU time (``time.process_time``): both sides run one thread, and on a shared machine the wall
clock also counts the time another program held the core.

Run:  .venv/bin/python benchmarks/chain.py --torch /tmp/torchvenv/bin/python [--rounds 7]
"""
from __future__ import annotations

import time

from sequence import against_torch, median_step, paired_rounds

STEPS = 500                # 4 ops each: sin, tanh, multiply, add


def minitape_figures(repeats: int) -> dict:
    import overhead
    assert overhead.CHAIN_STEPS == STEPS
    return {"µs/op": median_step(overhead.chain_once, repeats, warmup=10, clock=time.process_time) / (4 * STEPS) * 1e3}


def torch_figures(repeats: int) -> dict:
    import torch

    torch.set_num_threads(1)

    def chain_once() -> None:
        c = torch.tensor(0.5)
        y0 = torch.tensor(0.3, requires_grad=True)
        y = y0
        for _ in range(STEPS):
            y = y + torch.tanh(torch.sin(y)) * c
        torch.autograd.grad(y, y0)

    return {"torch µs/op": median_step(chain_once, repeats, warmup=10, clock=time.process_time) / (4 * STEPS) * 1e3,
            "torch": torch.__version__}


def main() -> None:
    run = paired_rounds(__doc__, __file__, minitape_figures, torch_figures, rounds=7, repeats=40)
    if run is None:
        return
    args, ours, theirs = run
    print(f"scalar chain, {4 * STEPS} ops forward + backward, CPU time, medians of {args.rounds} rounds, 1 thread")
    print(against_torch(ours, theirs, "µs/op", "torch µs/op", "µs/op"))

if __name__ == "__main__":
    main()
