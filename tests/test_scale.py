"""Cost that grows with the work, not faster: memory accounting and timelines of long tapes, the
plan of a long chain, the seeds of a Jacobian, and deep nests of recomputed functions.

Growth is measured as it happens, in seconds or bytes: a count of Python calls cannot see a
C-level copy (a slice of the tape's entries per op costs one call but n copies).  Each timing
is a ratio of the fastest runs at two sizes 4× apart, so that a shared, noisy machine cannot fail it:
linear work grows about 4×, quadratic work 16×, and the tests fail only above ``LINEAR``.
benchmarks/scale.py reports the timings themselves.
"""
import gc
import importlib.util
import re
import sys
from pathlib import Path

import numpy as np

import minitape as tf

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
from scale import chain, heard, jacobian_and_peak, nest, seconds  # noqa: E402  (the benchmark's workloads)

LINEAR = 8              # the most that linear work may grow, noise included, when the size grows 4×


def growth(run, small, large, repeats=5, setup=lambda: None):
    """How many times longer ``run(large, setup())`` takes than ``run(small, setup())``.

    The sizes alternate, and each keeps its fastest run: a busy machine only ever adds time,
    and whatever it adds falls on both sizes alike.  Python's garbage collector is paused while
    they run: when it walks the whole heap depends on everything the process holds (the rest of
    the test suite), not on the work measured (a timeline of 40,000 ops measured 6× one of 10,000
    with it, 11× inside the suite, and 4.3× without it).
    """
    fastest = {small: float("inf"), large: float("inf")}
    gc.disable()
    try:
        for _ in range(repeats):
            for size in fastest:
                fastest[size] = min(fastest[size], seconds(lambda made: run(size, made), 1, setup))
    finally:
        gc.enable()
    return fastest[large] / fastest[small]


def test_the_measure_sees_a_c_level_copy():
    # One slice per step costs one Python call, and is quadratic: what a count of calls missed.
    def copies(n, _):
        items = list(range(n))
        for k in range(n):
            items[:k]
    def once(n, _):
        items = list(range(n))
        for k in range(n):
            items[k]
    assert growth(copies, 2_000, 8_000) > LINEAR > growth(once, 2_000, 8_000)


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


def test_recording_and_memory_accounting_take_time_linear_in_the_tape():
    assert growth(lambda ops, _: chain(ops).memory_info(), 10_000, 40_000) < LINEAR


def test_a_timeline_costs_the_same_per_op_at_every_length():
    assert growth(lambda ops, _: heard(ops), 10_000, 40_000) < LINEAR
    ops = 20_000
    assert seconds(lambda: heard(ops), 5) < 4 * seconds(lambda: chain(ops), 5)     # about 2× here


def fresh_planner():
    """A new copy of the Revolve planner's module: a plan made with it reuses nothing an earlier plan worked out."""
    path = Path(tf.checkpointing.revolve.__file__)
    spec = importlib.util.spec_from_file_location("fresh_revolve", path)
    module = sys.modules["fresh_revolve"] = importlib.util.module_from_spec(spec)   # dataclasses look it up
    spec.loader.exec_module(module)
    return module


def test_planning_a_chain_takes_time_linear_in_the_plan():
    # The plan of n steps has about n·t actions, t growing like log n: here 867 and 3,355 actions.
    # Searching every split of every sub-chain instead grows 16× (0.1 s and 2 s).
    assert growth(lambda n, planner: planner.chain_schedule(n, 8), 200, 800, repeats=7, setup=fresh_planner) < LINEAR


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
