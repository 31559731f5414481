"""Pictures and the player at scale (issue [player]).

* the tour's player (notebooks/00_tour.py: four ``recompute_grad`` calls and their gradient),
  built and written as its page; target: under 1 s;
* a player for a 10,000-entry tape (a chain of ``sin``, ``multiply``, ``add``; about 20,000
  events), built and written; target: under 10 s, and readable: at most 200 ops drawn, the
  rest folded into one node that counts them, labels never drawn below 10 px;
* one frame of a long tape as a static picture (DOT + SVG), and recording with and without
  a timeline listening.

Run:  .venv/bin/python benchmarks/viz.py
"""
from __future__ import annotations

import contextlib
import io
import statistics
import sys
import time
from pathlib import Path

import minitape as tf
from minitape.viz.page import SMALLEST_FIT

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from conftest import seed_function_timeline  # noqa: E402  (the tour's example, as the tests record it)


def chain(steps: int) -> tf.GradientTape:
    x = tf.constant(0.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(steps):
            y = tf.sin(y) * 0.9 + 0.01
    return tape


def tour_timeline() -> tf.events.Timeline:
    """The tour's section 2 (the seeds' first example, as tests/conftest.py records it); its prints hushed."""
    with contextlib.redirect_stdout(io.StringIO()):
        return seed_function_timeline()


def long_timeline(entries: int) -> tf.events.Timeline:
    """A chain of ``entries`` ops recorded, then differentiated: every event of both passes."""
    with tf.events.timeline() as events:
        x = tf.constant(0.5)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in range(entries // 3):
                y = tf.sin(y) * 0.9 + 0.01
        tape.gradient(y, x)
    return events


def best_of(run, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    events = tour_timeline()
    start = time.perf_counter()
    player = events.player()
    player.to_html()
    first = time.perf_counter() - start                 # the first picture also loads Graphviz and its fonts
    seconds = best_of(lambda: events.player().to_html())
    print(f"tour: {len(events)} events, {len(player.frames)} frames; player built and its page written "
          f"in {first:.3f}s the first time, {seconds:.3f}s after (target < 1 s)")

    events = long_timeline(10_000)
    start = time.perf_counter()
    player = events.player()
    html = player.to_html()
    seconds = time.perf_counter() - start
    print(f"10,000-entry tape: {len(events):,} events, {len(player.frames)} frames; built and written in "
          f"{seconds:.2f}s (target < 10 s); {len(player.layout.shown_ops)} ops drawn, "
          f"{len(player.layout.folded):,} folded into one node; page {len(html) / 1e6:.1f} MB; "
          f"labels at least {10 * 4 / 3 * SMALLEST_FIT:.0f} px high")

    print(f"{'entries':>8} {'op nodes drawn':>15} {'DOT + SVG':>10}   (a static picture of a tape)")
    for steps in (15, 60, 3334):
        tape = chain(steps)
        scene = tape.picture()
        dot = scene.to_dot(max_nodes=200)
        drawn = sum(1 for line in dot.splitlines() if line.startswith("  o") and '[id="o' in line)
        print(f"{len(tape.entries()):>8} {drawn:>15} {best_of(lambda: scene.to_svg(max_nodes=200)):>9.3f}s")
    listening = best_of(lambda: _recorded_with_timeline(2500), 3)
    silent = best_of(lambda: chain(2500), 3)
    print(f"recording 7,500 entries: {silent:.3f}s with nobody listening, {listening:.3f}s with a timeline")


def _recorded_with_timeline(steps: int) -> None:
    with tf.events.timeline():
        chain(steps)


if __name__ == "__main__":
    main()
