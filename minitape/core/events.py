"""Events: a running commentary on what the tape does, for anyone who listens.

Every recorded op, checkpoint boundary, backward step, recomputation and
``print`` is announced as an :class:`Event`.  Nothing is built unless someone
subscribed: :func:`emit` returns at once while :data:`listeners` is empty.
Pictures and the player (:mod:`minitape.viz`) are listeners; so is
:func:`timeline`, which collects events to replay later.

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

from minitape.core.state import innermost_tape

#: Every kind of event, with the fields its ``data`` carries.  Each event also carries
#: ``memory``: what the tape it names (else the innermost recording tape) holds, or None.
KINDS: dict[str, tuple[str, ...]] = {
    "watch": ("tape", "tensor"),                        # a tape starts following a tensor or variable
    "op": ("tape", "entry"),                            # an entry was recorded on a tape
    "checkpoint_enter": ("function",),                  # a checkpointed call starts, tapes paused
    "checkpoint_leave": ("function", "entry"),          # ...and is recorded as one entry
    "gradient_start": ("tape",),                        # tape.gradient begins its backward pass
    "backward_step": ("tape", "entry", "output_grads", "input_grads"),  # one entry's VJP ran
    "recompute_start": ("function", "entry"),           # a checkpoint's function runs again...
    "recompute_end": ("function", "entry", "tape"),     # ...under this local tape
    "schedule": ("entry", "action"),                    # checkpoint_chain performs one action
    "print": ("text",),                                 # tf.print wrote this text
    "gradient_end": ("tape",),                          # tape.gradient returned
}


@dataclass(frozen=True)
class Event:
    """One thing that happened: its ``kind`` (one of :data:`KINDS`) and the details in ``data``.

    >>> from minitape.core.events import Event
    >>> Event("print", {"text": "hi", "memory": None}).kind
    'print'
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)


Listener = Callable[[Event], None]

#: The subscribed listeners, filled and emptied in place.
listeners: list[Listener] = []


def subscribe(listener: Listener) -> Listener:
    """Call ``listener(event)`` for every event from now on; returns it.

    >>> import minitape as tf
    >>> heard = tf.events.subscribe(lambda event: print(event.kind))
    >>> tf.print("hello")
    print
    hello
    >>> tf.events.unsubscribe(heard)
    """
    listeners.append(listener)
    return listener


def unsubscribe(listener: Listener) -> None:
    """Stop calling ``listener`` (see :func:`subscribe`).

    >>> import minitape as tf
    >>> heard = tf.events.subscribe(lambda event: print("heard", event.kind))
    >>> tf.events.unsubscribe(heard)
    >>> tf.print("quiet")
    quiet
    """
    listeners.remove(listener)


def emit(kind: str, **data: Any) -> None:
    """Announce an event of ``kind`` to every listener; free while nobody listens.

    >>> import minitape as tf
    >>> with tf.events.timeline() as events:
    ...     tf.events.emit("print", text="by hand\\n")
    >>> events[0]
    Event(kind='print', data={'text': 'by hand\\n', 'memory': None})
    """
    if not listeners:
        return
    if set(data) != set(KINDS[kind]):
        raise TypeError(f"events.emit: a {kind!r} event carries {KINDS[kind]}, got {tuple(data)}.")
    tape = data.get("tape") or innermost_tape()
    event = Event(kind, {**data, "memory": tape.memory_info() if tape is not None else None})
    for listener in tuple(listeners):
        listener(event)


class Timeline(list):
    """The events of a ``with timeline()`` block, in order.

    A timeline keeps the values its events mention alive, so that any moment can be
    drawn later: ``scene(upto)`` and ``player()`` come from :mod:`minitape.viz`.

    >>> import minitape as tf
    >>> with tf.events.timeline() as events:
    ...     tf.print("once")
    once
    >>> len(events), events.names
    (1, None)
    """

    def __init__(self, events: Any = (), names: dict[str, Any] | None = None) -> None:
        super().__init__(events)
        self.names = names


@contextlib.contextmanager
def timeline(names: dict[str, Any] | None = None) -> Iterator[Timeline]:
    """Collect every event emitted inside the ``with`` block into a :class:`Timeline`.

    ``names`` (e.g. ``locals()``, or given after the block: ``events.names = locals()``)
    labels values in pictures with your variable names.

    >>> import minitape as tf
    >>> with tf.events.timeline() as events:
    ...     tf.print("hi")
    hi
    >>> [e.data["text"] for e in events]
    ['hi\\n']
    """
    collected = Timeline(names=names)
    subscribe(collected.append)
    try:
        yield collected
    finally:
        unsubscribe(collected.append)
