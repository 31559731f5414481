"""A picture of a long tape costs time linear in the tape (issue [correctness], cost).

tests/test_scale.py counts Python calls, which cannot see a copy made in C (``entries[:k + 1]``
for every entry made ``tape.picture()`` quadratic while the call count stayed linear). This
test measures what grows: the processor time per op, at 10,000 and at 40,000 ops.
"""
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
from scale import chain  # noqa: E402  (the benchmark's workload: a chain of sin, *, +)


def seconds_per_op(ops: int, repeats: int = 3) -> float:
    """The least processor time ``tape.picture()`` took per op (other processes' work is not counted)."""
    tape, best = chain(ops), float("inf")
    for _ in range(repeats):
        gc.collect()
        gc.disable()                 # the collector's passes grow with the heap, not with this code
        try:
            start = time.process_time()
            tape.picture()
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    return best / ops


def test_a_pictures_cost_per_op_does_not_grow_with_the_tape():
    small, large = seconds_per_op(10_000), seconds_per_op(40_000)
    # Linear: about 1 (measured 1.0-1.2).  Quadratic, as before: about 2.4 and growing with the tape.
    assert large < 1.7 * small, f"{small * 1e6:.1f} µs/op at 10k ops, {large * 1e6:.1f} µs/op at 40k"
