"""Cost at scale (issue [reliability]): figures that must grow with the work, not faster.

* ``memory_info()`` and a picture of a long chain, displayed as Jupyter displays it (the
  ``image/svg+xml`` and ``text/plain`` of IPython's display formatter), at 10k, 40k and 100k ops;
  target: under 2 s at 100,000 ops;
* recording under ``events.timeline()`` against recording with nobody listening, at 10k and
  40k ops; target: within 3×, the same ratio at both sizes;
* the peak memory (tracemalloc) of the Jacobian of an 8,000-vector with respect to a scalar;
  all its seeds at once would be an 8,000 × 8,000 float32 identity, 256 MB;
* the plan of ``checkpoint_chain`` (Revolve's binomial schedule) for 1,000 to 3,000 steps;
  target: under 1 s at 3,000 steps;
* the process memory a recorded op takes: tracemalloc's bytes per entry of a scalar ``sin``
  chain, and the growth of the resident set (RSS) while recording one, beside what
  ``memory_info()`` counts (only the tensors the tape keeps);
* the deepest nest of ``recompute_grad`` that differentiates under Python's default recursion
  limit, probed up to 1,000 levels (recomputation makes a nest's backward pass quadratic).

Run:  .venv/bin/python benchmarks/scale.py          (about a minute; ``--quick`` skips the nests)
      .venv/bin/python benchmarks/scale.py --memory (the memory per op alone)
"""
from __future__ import annotations

import gc
import os
import statistics
import sys
import time
import tracemalloc

import minitape as tf
from minitape.checkpointing.revolve import chain_schedule


def chain(ops: int, tape: tf.GradientTape | None = None) -> tf.GradientTape:
    """A tape (a new one, or ``tape``) recording a chain of ``ops`` scalar ops."""
    x = tf.constant(0.5)
    with tape or tf.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(ops // 3):
            y = tf.sin(y) * 0.9 + 0.01
    return tape


def heard(ops: int) -> None:
    with tf.events.timeline():
        chain(ops)


def seconds(run, repeats: int = 3, setup=None) -> float:
    """The median time of ``run()``, or of ``run(setup())`` with ``setup`` left out of the timing."""
    times = []
    for _ in range(repeats):
        gc.collect()
        made = setup() if setup else None
        start = time.perf_counter()
        run(made) if setup else run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def displayed(tape: tf.GradientTape) -> None:
    """What a notebook does with ``tape.memory_info()`` and then ``tape.picture()`` as a cell's value."""
    tape.memory_info()
    scene = tape.picture()
    try:
        from IPython.core.formatters import DisplayFormatter
    except ImportError:                 # no IPython: the SVG is what Jupyter would ask for
        scene._repr_svg_(), repr(scene)
        return
    DisplayFormatter().format(scene)


def pictures() -> None:
    print(f"{'ops':>8} {'memory_info + picture shown':>28}   (target: < 2 s at 100,000 ops)")
    for ops in (10_000, 40_000, 100_000):
        tape = chain(ops)
        print(f"{ops:>8,} {seconds(lambda: displayed(tape), 3 if ops < 100_000 else 1):>27.2f}s")


def timelines() -> None:
    print(f"\n{'ops':>8} {'silent':>8} {'timeline':>9} {'ratio':>6}   (target: within 3×, the same at both sizes)")
    for ops in (10_000, 40_000):
        silent, listening = seconds(lambda: chain(ops)), seconds(lambda: heard(ops))
        print(f"{ops:>8,} {silent:>7.3f}s {listening:>8.3f}s {listening / silent:>5.2f}×")


def plans() -> None:
    print(f"\n{'steps':>8} {'snapshots':>9} {'actions':>8} {'plan':>8}   "
          f"(checkpoint_chain's schedule; target: < 1 s at 3,000 steps)")
    for steps, snapshots in ((1_000, 30), (3_000, 20), (3_000, 2)):
        plan = chain_schedule(steps, snapshots)
        took = seconds(lambda: chain_schedule(steps, snapshots))
        print(f"{steps:>8,} {snapshots:>9} {len(plan.actions):>8,} {took * 1e3:>6.1f}ms")


def sin_chain(ops: int) -> tf.GradientTape:
    """A tape recording ``ops`` scalar ``sin`` ops, one after another: each keeps its 4-byte input."""
    x = tf.constant(0.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(ops):
            y = tf.sin(y)
    return tape


def resident_bytes() -> int:
    """This process's resident set size (Linux's /proc; 0 where there is none)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


def memory_per_op(ops: int = 200_000) -> None:
    gc.collect()
    before = resident_bytes()
    tape = sin_chain(ops)
    grown, held = resident_bytes() - before, tape.memory_info()["current"]
    del tape
    gc.collect()
    tracemalloc.start()
    try:
        tape = sin_chain(ops // 4)
        traced = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    print(f"\nmemory per recorded op (a scalar sin chain): {traced / (ops // 4):,.0f} bytes traced "
          f"(tracemalloc, {ops // 4:,} ops), {grown / ops:,.0f} bytes of RSS growth ({ops:,} ops); "
          f"memory_info() counts {held / ops:.0f}")


def jacobian_and_peak(n: int) -> tuple[tf.Tensor, int]:
    """The Jacobian of ``sin(x · [0, 1, ..., n-1])`` w.r.t. the scalar x, and the peak bytes it took (tracemalloc)."""
    x = tf.constant(0.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sin(x * tf.range(n, dtype=tf.float32))
    gc.collect()
    tracemalloc.start()
    try:
        return tape.jacobian(y, x), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def jacobian_peak(n: int = 8_000) -> None:
    start = time.perf_counter()
    _, peak = jacobian_and_peak(n)
    print(f"\njacobian of a {n:,}-vector w.r.t. a scalar: peak {peak / 1e6:.1f} MB (all seeds at once: "
          f"{n * n * 4 / 1e6:.0f} MB), {time.perf_counter() - start:.1f} s under tracemalloc")


def nest(depth: int):
    """``sin`` inside ``depth`` levels of recomputed functions, each calling the next."""
    def level(inner):
        return lambda x: inner(x) * 1.0     # one frame of the user's per level, as plain nesting has
    f = tf.sin
    for _ in range(depth):
        f = tf.recompute_grad(level(f))
    return f


def nests() -> None:
    print(f"\nrecompute_grad nests (recursion limit {sys.getrecursionlimit()}):")
    for depth in (250, 500, 1_000):
        x = tf.constant(0.5)
        start = time.perf_counter()
        try:
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = nest(depth)(x)
            grad = tape.gradient(y, x)
        except RecursionError:
            print(f"{depth:>8,} levels: RecursionError")
            return
        print(f"{depth:>8,} levels: gradient {float(grad):.6f} in {time.perf_counter() - start:.1f} s")
    print(f"deepest nest tried that differentiates: {depth:,} levels")


def main() -> None:
    memory_per_op()                   # first: RSS grows most in a process that has not yet freed memory
    if "--memory" in sys.argv:
        return
    pictures()
    timelines()
    plans()
    jacobian_peak()
    if "--quick" not in sys.argv:
        nests()


if __name__ == "__main__":
    main()
