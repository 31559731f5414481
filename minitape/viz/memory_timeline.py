"""Memory over time: the bytes each tape holds after every step of a timeline, and their picture.

A timeline is replayed through a ``Scene`` (as the player replays it), and after each event the
scene's memory rows are read: each row is that tape's ``memory_info()["current"]`` as the event
carried it, so every number here is one the public API gave at that step.  Drawn against the
step, forward then backward, the total is the plot that makes checkpointing's trade visible:
the plain tape climbs through the forward pass and falls in the backward pass; a checkpointed
one stays low and saw-tooths as each block is recomputed and let go, and takes more steps.

>>> import minitape as tf
>>> with tf.events.timeline() as events:
...     with tf.GradientTape() as tape:
...         x = tf.constant([1.0, 2.0])
...         tape.watch(x)
...         y = tf.reduce_sum(tf.exp(x))
...     _ = tape.gradient(y, x)
>>> memory = events.memory_timeline()
>>> [(row.kind, row.total) for row in memory]
[('watch', 0), ('op', 8), ('op', 8), ('gradient_start', 8), ('backward_step', 8), ('backward_step', 8), ('gradient_end', 0)]
>>> memory.peak.total, memory.backward_starts
(8, [3])
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from minitape.core.events import Timeline
from minitape.viz.plot import COLOURS, Line, Mark, Rule, short_bytes, step_plot
from minitape.viz.scene import Scene

STEPS = "step: each event (an op recorded, a backward step...); a checkpointed call's forward is one step"
#: Beyond this many local tapes with different names, their lines are drawn as one ("local tapes").
MOST_LOCAL_LINES = 3


@dataclass(frozen=True)
class MemoryStep:
    """The memory after one event: its index ``step`` in the timeline, its ``kind``, what happened
    (``said``, the player's words), the bytes each tape alive holds (``tapes``: its name -> bytes),
    their sum ``total``, and the ``phase`` ("forward", "backward", or "done" after a gradient)."""

    step: int
    kind: str
    said: str
    tapes: dict[str, int]
    total: int
    phase: str


class MemoryTimeline:
    """The bytes held after every event of a timeline, per tape and in total; displays as an SVG plot.

    Made by ``events.memory_timeline()``; a sequence of [`MemoryStep`][minitape.viz.memory_timeline.MemoryStep].

    >>> import minitape as tf
    >>> f = tf.recompute_grad(lambda x: tf.sin(tf.sin(x)))
    >>> with tf.events.timeline() as events:
    ...     with tf.GradientTape() as tape:
    ...         x = tf.constant(1.0)
    ...         tape.watch(x)
    ...         y = f(x)
    ...     _ = tape.gradient(y, x)
    >>> memory = events.memory_timeline(names=locals())
    >>> sorted({name for row in memory for name in row.tapes})
    ['local tape (<lambda>)', 'tape']
    >>> memory.peak.tapes, memory.recomputed
    ({'tape': 4, 'local tape (<lambda>)': 4}, 2)
    >>> memory.to_svg().startswith("<svg")
    True
    """

    def __init__(self, timeline: Timeline, names: dict[str, Any] | None = None, title: str = "") -> None:
        scene = Scene.named(names if names is not None else timeline.names)
        self.rows: list[MemoryStep] = []
        self.backward_starts: list[int] = []        # steps where a gradient of the user's tapes begins
        self.recomputed = 0                         # ops recorded again, on the local tapes of recomputations
        self.title = title
        for index, event in enumerate(timeline):
            scene.apply(event)
            row = scene.tapes.rows.get(id(event.data.get("tape")))      # None: not a tape the scene knows
            if event.kind == "op" and row is not None and row.local:
                self.recomputed += 1
            if event.kind == "gradient_start" and row is not None and not row.local:
                self.backward_starts.append(index)
            held: dict[str, int] = {}
            for row in scene.tapes.rows.values():
                held[row.label] = held.get(row.label, 0) + row.current
            self.rows.append(MemoryStep(index, event.kind, scene.said, held, scene.tapes.total(), scene.phase))

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[MemoryStep]:
        return iter(self.rows)

    def __getitem__(self, index: int) -> MemoryStep:
        return self.rows[index]

    @property
    def peak(self) -> MemoryStep:
        """The first step at which the tapes together held the most (a step holding 0 for an empty timeline).

        >>> import minitape as tf
        >>> with tf.events.timeline() as events, tf.GradientTape() as tape:
        ...     x = tf.constant([1.0, 2.0])
        ...     tape.watch(x)
        ...     y = tf.exp(x)
        >>> peak = events.memory_timeline().peak
        >>> peak.step, peak.kind, peak.total
        (1, 'op', 8)
        """
        if not self.rows:
            return MemoryStep(0, "", "nothing happened", {}, 0, "forward")
        return max(self.rows, key=lambda row: (row.total, -row.step))

    def lines(self) -> list[Line]:
        """A line per tape (many local tapes' as one), then the total, for ``step_plot``.

        >>> import minitape as tf
        >>> with tf.events.timeline() as events, tf.GradientTape() as tape:
        ...     x = tf.constant(1.0)
        ...     tape.watch(x)
        ...     y = tf.exp(x)
        >>> [(line.label, line.points) for line in events.memory_timeline().lines()]
        [('tape (all the memory held)', [(0, 0), (1, 4)])]
        """
        names = list(dict.fromkeys(name for row in self.rows for name in row.tapes))
        users = [name for name in names if not name.startswith("local tape")]
        local = [name for name in names if name.startswith("local tape")]
        groups = {name: [name] for name in users}
        if len(local) > MOST_LOCAL_LINES:
            groups["local tapes (recomputations)"] = local
        else:
            groups.update({name: [name] for name in local})
        lines = []
        for k, (label, members) in enumerate(groups.items()):
            points = [(row.step, _held(row, members)) for row in self.rows]
            lines.append(Line(label, points, COLOURS[k % len(COLOURS)], width=1.5, dashed=label not in users))
        if len(groups) == 1:
            lines[0].label += " (all the memory held)"
            lines[0].area = True
            return lines
        total = [(row.step, row.total) for row in self.rows]
        return lines + [Line("together", total, "#4b3f8f", width=2.5, area=True)]

    def to_svg(self, width: int = 760, height: int = 320) -> str:
        """The plot: bytes held against step, a line per tape and their sum, the peak and the backward pass marked.

        >>> import minitape as tf
        >>> with tf.events.timeline() as events, tf.GradientTape() as tape:
        ...     x = tf.constant(1.0)
        ...     tape.watch(x)
        ...     y = tf.exp(x)
        >>> svg = events.memory_timeline().to_svg(width=600)
        >>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="600"'), "peak 4 B (step 1)" in svg
        (True, True)
        """
        peak = self.peak
        title = self.title or f"memory held at each step: peak {peak.total:,} bytes"
        rules = [Rule(step, "backward →") for step in self.backward_starts]
        mark = Mark(peak.step, peak.total, f"peak {short_bytes(peak.total)} (step {peak.step:,})")
        return step_plot(self.lines(), [mark], rules, title=title, x_label=STEPS, width=width, height=height)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def __repr__(self) -> str:
        return f"<MemoryTimeline: {len(self.rows):,} steps, peak {self.peak.total:,} bytes at step {self.peak.step:,}>"


def _held(row: MemoryStep, members: list[str]) -> int | None:
    """What the tapes ``members`` hold at ``row``; None while none of them is alive (a gap in its line)."""
    alive = [row.tapes[name] for name in members if name in row.tapes]
    return sum(alive) if alive else None


def memory_timeline(timeline: Timeline, names: dict[str, Any] | None = None) -> MemoryTimeline:
    """The bytes held after each event of ``timeline``, per tape and in total (``events.memory_timeline()``).

    >>> import minitape as tf
    >>> with tf.events.timeline() as events:
    ...     with tf.GradientTape() as tape:
    ...         x = tf.constant([1.0, 2.0, 3.0])
    ...         tape.watch(x)
    ...         y = tf.tanh(x)
    >>> [row.tapes for row in events.memory_timeline()]
    [{'tape': 0}, {'tape': 12}]
    """
    return MemoryTimeline(timeline, names)


class MemoryComparison:
    """Several timelines of one model's memory on one axis: a line each, its peak and length in the legend.

    >>> import minitape as tf
    >>> blocks = [lambda h: tf.tanh(h * 1.1)] * 8
    >>> def run(step):
    ...     with tf.events.timeline() as events:
    ...         with tf.GradientTape() as tape:
    ...             x = tf.ones([100])
    ...             tape.watch(x)
    ...             y = tf.reduce_sum(step(x))
    ...         tape.gradient(y, x)
    ...     return events
    >>> plain = run(tf.checkpointing.schedules.in_order(blocks))
    >>> chain = run(lambda x: tf.checkpoint_chain(blocks, x, snapshots=2))
    >>> comparison = tf.viz.compare_memory({"plain": plain, "Revolve, 2 states": chain})
    >>> [(name, memory.peak.total) for name, memory in comparison.timelines.items()]
    [('plain', 3632), ('Revolve, 2 states', 2008)]
    """

    def __init__(self, timelines: Mapping[str, Timeline | MemoryTimeline], names: dict[str, Any] | None = None,
                 title: str = "") -> None:
        if not timelines:
            raise ValueError("compare_memory: give at least one timeline, e.g. {'plain': events}.")
        self.timelines = {name: t if isinstance(t, MemoryTimeline) else MemoryTimeline(t, names)
                          for name, t in timelines.items()}
        self.title = title

    def to_svg(self, width: int = 760, height: int = 340) -> str:
        """Every timeline's total against its own steps, on one axis: the longer lines did more work.

        >>> import minitape as tf
        >>> with tf.events.timeline() as events, tf.GradientTape() as tape:
        ...     x = tf.constant(1.0)
        ...     tape.watch(x)
        ...     y = tf.exp(x)
        >>> "plain — peak 4 bytes, 2 steps, 0 ops recorded again" in tf.viz.compare_memory({"plain": events}).to_svg()
        True
        """
        lines, marks, rules = [], [], []
        for k, (name, memory) in enumerate(self.timelines.items()):
            colour, peak = COLOURS[k % len(COLOURS)], memory.peak
            note = (f"peak {peak.total:,} bytes, {len(memory):,} steps, {memory.recomputed:,} ops recorded again"
                    + (" (+ unrecorded advances)" if _advances(memory) else ""))
            lines.append(Line(name, [(row.step, row.total) for row in memory], colour, width=2.0, note=note))
            marks.append(Mark(peak.step, peak.total, short_bytes(peak.total), colour))
            rules += [Rule(step, "", colour) for step in memory.backward_starts[:1]]
        lines.append(Line("the backward pass begins (in the schedule's colour)", [], "#555555", width=1, dashed=True))
        title = self.title or "memory held by all the tapes together, per schedule"
        return step_plot(lines, marks, rules, title=title, width=width, height=height, x_label=STEPS)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def __repr__(self) -> str:
        peaks = ", ".join(f"{name}: {memory.peak.total:,} bytes" for name, memory in self.timelines.items())
        return f"<MemoryComparison: peaks {peaks}>"


def _advances(memory: MemoryTimeline) -> bool:
    """Whether a ``checkpoint_chain`` also ran steps with the tapes paused (their work is not in the count)."""
    return any(row.kind == "schedule" and row.said.startswith("checkpoint_chain: advance") for row in memory)


def compare_memory(timelines: Mapping[str, Timeline | MemoryTimeline], names: dict[str, Any] | None = None,
                   title: str = "") -> MemoryComparison:
    """Draw several schedules' memory over time on one axis (``tf.viz.compare_memory({"plain": events, ...})``).

    >>> import minitape as tf
    >>> with tf.events.timeline() as events:
    ...     with tf.GradientTape() as tape:
    ...         x = tf.constant(2.0)
    ...         tape.watch(x)
    ...         y = x * x
    >>> tf.viz.compare_memory({"plain": events})
    <MemoryComparison: peaks plain: 4 bytes>
    """
    return MemoryComparison(timelines, names, title)
