"""Pictures at scale (issue [viz]): a 10,000-entry tape folds to a readable frame, rendered fast.

For tapes of growing length, the time to lay out one frame of at most 200 op
nodes (folded beyond that), DOT generation included, and the time to record
the tape with nobody listening vs. with a timeline collecting events.

Run:  .venv/bin/python benchmarks/viz.py
"""
from __future__ import annotations

import statistics
import time

import minitape as tf


def chain(steps: int) -> tf.GradientTape:
    x = tf.constant(0.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(steps):
            y = tf.sin(y) * 0.9 + 0.01
    return tape


def best_of(run, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    print(f"{'entries':>8} {'op nodes drawn':>15} {'DOT + SVG':>10}   (target: a frame of ≤ 200 nodes in < 0.5 s)")
    for steps in (15, 60, 3334):
        tape = chain(steps)
        scene = tape.picture()
        dot = scene.to_dot(max_nodes=200)
        drawn = sum(1 for line in dot.splitlines() if line.startswith("  o") and "[label=" in line)
        seconds = best_of(lambda: scene.to_svg(max_nodes=200))
        print(f"{len(tape.entries()):>8} {drawn:>15} {seconds:>9.3f}s")
    listening = best_of(lambda: _recorded_with_timeline(2500), 3)
    silent = best_of(lambda: chain(2500), 3)
    print(f"recording 7,500 entries: {silent:.3f}s with nobody listening, {listening:.3f}s with a timeline")


def _recorded_with_timeline(steps: int) -> None:
    with tf.events.timeline():
        chain(steps)


if __name__ == "__main__":
    main()
