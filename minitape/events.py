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


@contextlib.contextmanager
def timeline() -> Iterator[list[Event]]:
    """Collect every event emitted inside the ``with`` block into a list."""
    collected: list[Event] = []
    subscribe(collected.append)
    try:
        yield collected
    finally:
        unsubscribe(collected.append)
