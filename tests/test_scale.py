"""Cost that grows with the work, not faster: memory accounting, pictures and timelines of long
tapes, the seeds of a Jacobian, and deep nests of recomputed functions (issue [reliability]).

These tests count work and bytes, never seconds; benchmarks/scale.py reports the timings.
"""
import re
import sys
from pathlib import Path

import numpy as np

import minitape as tf

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
from scale import chain, heard, jacobian_and_peak, nest  # noqa: E402  (the benchmark's workloads)


def calls_made(run):
    """How many Python and C functions ``run()`` calls: a count of work that no other process disturbs."""
    count = 0

    def profiler(frame, event, arg):
        nonlocal count
        count += event in ("call", "c_call")

    sys.setprofile(profiler)
    try:
        run()
    finally:
        sys.setprofile(None)
    return count


class Visits(list):
    """A tape's list of entries that counts how many entries are read from it."""

    visited = 0

    def __iter__(self):
        for entry in super().__iter__():
            self.visited += 1
            yield entry

    def __getitem__(self, index):
        got = super().__getitem__(index)
        self.visited += len(got) if isinstance(index, slice) else 1
        return got


def test_memory_accounting_reads_each_entry_once():
    tape = tf.GradientTape()
    tape._entries = entries = Visits()
    with tf.events.timeline():                           # every event asks the tape what it holds...
        chain(1800, tape)
    for _ in range(3):
        tape.memory_info()                               # ...and so does the user, again and again
    assert len(entries) == 1800
    assert entries.visited == len(entries)               # each entry counted once, not once per question


def test_a_picture_reads_only_the_values_it_draws(monkeypatch):
    tape = chain(3000)
    read = []
    numpy = tf.Tensor.numpy
    monkeypatch.setattr(tf.Tensor, "numpy", lambda tensor: read.append(tensor) or numpy(tensor))
    dot = tape.picture().to_dot(max_nodes=200)
    drawn = len(re.findall(r"^  v\d+ \[", dot, re.MULTILINE))
    assert "more entries" in dot and 0 < len(read) <= drawn < 500      # not one read per value of the tape


def test_a_long_tapes_picture_describes_itself_briefly():
    # Jupyter shows repr() as the text beside every picture it displays.
    assert repr(chain(3000).picture()) == "<Scene: 3,000 ops, 5,001 values; recorded add, keeping nothing>"


def test_pictures_and_timelines_cost_work_linear_in_the_tape():
    small, large = 900, 3600                             # ops
    drawing = [calls_made(lambda: (tape.memory_info(), tape.picture().to_dot())) for tape in map(chain, (small, large))]
    assert drawing[1] < 4.2 * drawing[0]
    ratios = [calls_made(lambda: heard(ops)) / calls_made(lambda: chain(ops)) for ops in (small, large)]
    assert max(ratios) < 3 and abs(ratios[1] - ratios[0]) < 0.02 * ratios[0]   # the same extra work per op


def test_a_jacobian_makes_its_seeds_one_at_a_time():
    n = 2000
    jacobian, peak = jacobian_and_peak(n)
    k = np.arange(n)
    np.testing.assert_allclose(jacobian.numpy(), k * np.cos(0.5 * k), rtol=1e-4, atol=1e-3)
    every_seed_at_once = n * n * 4                       # the float32 identity, 16 MB
    assert peak < 1024 * n < every_seed_at_once / 7      # about half a kilobyte per row


def test_a_thousand_nested_recomputations_differentiate():
    limit = sys.getrecursionlimit()
    f, x = nest(1000), tf.constant(0.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert float(tape.gradient(y, x)) == np.float32(np.cos(0.5))
    assert sys.getrecursionlimit() == limit              # the room lent to the nest is given back
