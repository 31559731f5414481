"""Cost at scale (issue [reliability]): figures that must grow with the work, not faster.

* ``memory_info()`` and a picture of a long chain, displayed as Jupyter displays it (the
  ``image/svg+xml`` and ``text/plain`` of IPython's display formatter), at 5k to 100k ops;
  target: under 5 s at 100,000 ops;
* recording under ``events.timeline()`` against recording with nobody listening, at 10k and
  40k ops; target: within 3×, the same ratio at both sizes;
* the peak memory (tracemalloc) of the Jacobian of an 8,000-vector with respect to a scalar;
  all its seeds at once would be an 8,000 × 8,000 float32 identity, 256 MB;
* the deepest nest of ``recompute_grad`` that differentiates under Python's default recursion
  limit, probed up to 1,000 levels (recomputation makes a nest's backward pass quadratic).

Run:  .venv/bin/python benchmarks/scale.py          (about a minute; ``--quick`` skips the nests)
"""
from __future__ import annotations

import gc
import statistics
import sys
import time
import tracemalloc

import minitape as tf


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
    print(f"{'ops':>8} {'memory_info + picture shown':>28}   (target: < 5 s at 100,000 ops)")
    for ops in (5_000, 10_000, 20_000, 40_000, 100_000):
        tape = chain(ops)
        print(f"{ops:>8,} {seconds(lambda: displayed(tape), 3 if ops < 100_000 else 1):>27.2f}s")


def timelines() -> None:
    print(f"\n{'ops':>8} {'silent':>8} {'timeline':>9} {'ratio':>6}   (target: within 3×, the same at both sizes)")
    for ops in (10_000, 40_000):
        silent, listening = seconds(lambda: chain(ops)), seconds(lambda: heard(ops))
        print(f"{ops:>8,} {silent:>7.3f}s {listening:>8.3f}s {listening / silent:>5.2f}×")


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
    pictures()
    timelines()
    jacobian_peak()
    if "--quick" not in sys.argv:
        nests()


if __name__ == "__main__":
    main()
