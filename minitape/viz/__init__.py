"""Pictures: a tape drawn, any moment of a timeline drawn, and the player that animates them.

* ``minitape.viz.scene``: what a picture shows, built by replaying events;
* ``minitape.viz.dot``: the scene as Graphviz DOT text;
* ``minitape.viz.render``: DOT laid out as SVG or PNG (pygraphviz, imported on first use);
* ``minitape.viz.memory``: what each tape holds, their sum and its peak;
* ``minitape.viz.memory_timeline``: that memory after every step, drawn over time (``minitape.viz.plot``);
* ``minitape.viz.layout``: a whole timeline laid out once, restyled frame by frame;
* ``minitape.viz.player``, ``minitape.viz.page``, ``minitape.viz.animate``: the frames,
  as one self-contained web page or an animated image (each frame a slide: ``minitape.viz.slides``).

The core never imports this package.  Instead, importing it teaches the core's
classes to draw themselves: Jupyter's display hooks (``_repr_svg_``) and the
``picture()``, ``scene()`` and ``player()`` methods are attached here.

>>> import minitape as tf
>>> x = tf.constant(2.0)
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = tf.sin(x)
>>> type(tape.picture()).__name__
'Scene'
"""
from __future__ import annotations

import gc
from typing import Any

from minitape.autodiff.tape import GradientTape
from minitape.core.events import Timeline
from minitape.core.tensor import _TensorLike
from minitape.viz import animate, dot, layout, memory, names, page, player, render, scene  # noqa: F401
from minitape.viz import memory_timeline, plot, slides  # noqa: F401
from minitape.viz.memory_timeline import MemoryComparison, MemoryTimeline, compare_memory  # noqa: F401
from minitape.viz.player import Player
from minitape.viz.render import to_svg  # noqa: F401
from minitape.viz.dot import value_svg
from minitape.viz.names import name_map, tape_names  # noqa: F401
from minitape.viz.scene import Scene


def picture(tape: GradientTape, names: dict[str, Any] | None = None) -> Scene:
    """A ``Scene`` of what ``tape`` holds now (display it, or call ``to_dot``/``to_svg``).

    >>> import minitape as tf
    >>> x = tf.constant(1.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tf.exp(x)
    >>> [op.name for op in tape.picture(names=locals()).ops.values()]
    ['exp']
    """
    # A picture of a long tape makes hundreds of thousands of objects that all live on; Python's cycle
    # collector would walk them again and again as they are made (none forms a cycle).  Paused, a
    # 100,000-op picture takes about 13% less time (benchmarks/scale.py).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return Scene.of_tape(tape, names)
    finally:
        if collecting:
            gc.enable()


def timeline_scene(timeline: Timeline, upto: int | None = None) -> Scene:
    """The picture after the first ``upto`` events of ``timeline`` (all of them by default).

    >>> import minitape as tf
    >>> with tf.events.timeline() as events:
    ...     with tf.GradientTape() as tape:
    ...         x = tf.constant(1.0)
    ...         tape.watch(x)
    ...         y = tf.exp(x)
    >>> events.scene(upto=1).said
    'the tape watches #1'
    """
    drawn = Scene.named(timeline.names)
    for event in timeline[:upto]:
        drawn.apply(event)
    return drawn


def timeline_player(timeline: Timeline, **options: Any) -> Player:
    """An animated player over ``timeline`` (see ``Player``).

    >>> import minitape as tf
    >>> with tf.events.timeline() as events:
    ...     tf.print("hello")
    hello
    >>> player = events.player(max_frames=10)
    >>> len(player.frames), player.frames[0].said
    (1, "printed 'hello'")
    """
    return Player(timeline, **options)


def _value_svg(value: Any) -> str:
    return value_svg(value, getattr(value, "name", ""))


# Display hooks and drawing methods, attached from here so that the core never imports viz.
_TensorLike._repr_svg_ = _value_svg
GradientTape.picture = picture
GradientTape._repr_svg_ = lambda tape: picture(tape).to_svg()
Timeline.scene = timeline_scene
Timeline.player = timeline_player
Timeline.memory_timeline = memory_timeline.memory_timeline
Timeline._repr_svg_ = lambda timeline: timeline_scene(timeline).to_svg()
