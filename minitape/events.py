"""Events: a running commentary on what the tape does, for anyone who listens.

Every recorded op, checkpoint boundary, backward step, recomputation and
``print`` is announced as an :class:`Event`.  Nothing is built unless someone
subscribed: the op path pays one truth test of :data:`listeners`.

>>> import minitape as tf
>>> with tf.events.timeline() as events:
...     with tf.GradientTape() as tape:
...         x = tf.constant(3.0)
...         tape.watch(x)
...         y = x * x
...     _ = tape.gradient(y, x)
>>> [e.kind for e in events]
['watch', 'op', 'gradient_start', 'backward_step', 'gradient_end']
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened: its ``kind`` and the details in ``data``."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)


Listener = Callable[[Event], None]

#: The subscribed listeners.  Emitters test it before building an event.
listeners: list[Listener] = []


def subscribe(listener: Listener) -> Listener:
    """Call ``listener(event)`` for every event from now on; returns it."""
    listeners.append(listener)
    return listener


def unsubscribe(listener: Listener) -> None:
    """Stop calling ``listener``."""
    listeners.remove(listener)


def emit(kind: str, **data: Any) -> None:
    """Announce an event to every listener (callers check :data:`listeners` first)."""
    event = Event(kind, data)
    for listener in tuple(listeners):
        listener(event)


class Timeline(list):
    """The events of a ``with timeline()`` block, in order: a list that can also be drawn.

    A timeline keeps the values its events mention alive, so that any moment can be drawn later.
    """

    def __init__(self, events: Any = (), names: dict[str, Any] | None = None) -> None:
        super().__init__(events)
        self.names = names

    def scene(self, upto: int | None = None) -> Any:
        """The picture after the first ``upto`` events (all of them by default)."""
        from minitape.viz import Scene, name_map
        scene = Scene(names=name_map(self.names))
        for event in self[:upto]:
            scene.apply(event)
        return scene

    def player(self, **options: Any) -> Any:
        """An animated player over this timeline (see :class:`minitape.player.Player`)."""
        from minitape.player import Player
        return Player(self, **options)

    def _repr_svg_(self) -> str:
        return self.scene().to_svg()


@contextlib.contextmanager
def timeline(names: dict[str, Any] | None = None) -> Iterator[Timeline]:
    """Collect every event emitted inside the ``with`` block into a :class:`Timeline`.

    ``names`` (e.g. ``locals()``, given again after the block: ``events.names = locals()``)
    labels values in pictures with your variable names.
    """
    collected = Timeline(names=names)
    subscribe(collected.append)
    try:
        yield collected
    finally:
        unsubscribe(collected.append)
