"""Events: a running commentary on what the tape does, for anyone who listens.

Every recorded op, checkpoint boundary, backward step, recomputation and
``print`` is announced as an [`Event`][minitape.events.Event].  Nothing is built unless someone
subscribed: [`emit`][minitape.events.emit] returns at once while ``listening`` is zero.
Pictures and the player (``minitape.viz``) are listeners; so is
[`timeline`][minitape.events.timeline], which collects events to replay later.

Listeners belong to a thread, as tapes do: a listener hears what happens on the
thread that subscribed it (its ops, its tapes' gradients, its prints), never
another thread's work, so a timeline opened on one thread is not interleaved with
whatever other threads are computing.

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
import threading
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from minitape.core.state import innermost_tape

#: Every kind of event, with the fields its ``data`` carries.  Each event also carries
#: ``memory``: what the tape it names (else the innermost recording tape) holds, or None.
KINDS: dict[str, tuple[str, ...]] = {
    "watch": ("tape", "tensor"),                        # a tape starts following a tensor or variable
    "op": ("tape", "entry"),                            # an entry was recorded on a tape
    "checkpoint_enter": ("function",),                  # a checkpointed call starts, tapes paused
    "checkpoint_leave": ("function", "entry"),          # ...and is recorded as one entry (None: no tape records)
    "gradient_start": ("tape",),                        # tape.gradient begins its backward pass
    "backward_step": ("tape", "entry", "output_grads", "input_grads"),  # one entry's VJP ran
    "recompute_start": ("function", "entry", "tape"),   # a checkpoint's function runs again, under this local tape...
    "recompute_end": ("function", "entry", "tape"),     # ...which now holds the recomputation
    "schedule": ("entry", "action", "step_tape"),       # checkpoint_chain performs one action (a record: on this tape)
    "print": ("text",),                                 # tf.print wrote this text
    "gradient_end": ("tape",),                          # tape.gradient returned
}


class Event(NamedTuple):
    """One thing that happened: its ``kind`` (one of ``KINDS``) and the details in ``data``.

    >>> from minitape.core.events import Event
    >>> Event("print", {"text": "hi", "memory": None}).kind
    'print'
    """

    kind: str
    data: dict[str, Any]


Listener = Callable[[Event], None]
_FIELDS = {kind: frozenset(fields) for kind, fields in KINDS.items()}


class _Subscribed(threading.local):
    """Each thread's own listeners."""

    def __init__(self) -> None:
        self.listeners: list[Listener] = []


_subscribed = _Subscribed()
_counting = threading.Lock()

#: How many listeners are subscribed, on all threads together.  While it is zero no
#: event is built anywhere: the one check the recording path pays for events.
listening = 0


def subscribe(listener: Listener) -> Listener:
    """Call ``listener(event)`` for every event of this thread from now on; returns it.

    >>> import minitape as tf
    >>> heard = tf.events.subscribe(lambda event: print(event.kind))
    >>> tf.print("hello")
    print
    hello
    >>> tf.events.unsubscribe(heard)
    """
    global listening
    _subscribed.listeners.append(listener)
    with _counting:
        listening += 1
    return listener


def unsubscribe(listener: Listener) -> None:
    """Stop calling ``listener`` (see [`subscribe`][minitape.events.subscribe]; on the thread that subscribed it).

    >>> import minitape as tf
    >>> heard = tf.events.subscribe(lambda event: print("heard", event.kind))
    >>> tf.events.unsubscribe(heard)
    >>> tf.print("quiet")
    quiet
    """
    global listening
    _subscribed.listeners.remove(listener)
    with _counting:
        listening -= 1


def emit(kind: str, **data: Any) -> None:
    """Announce an event of ``kind`` to this thread's listeners; free while nobody listens.

    >>> import minitape as tf
    >>> with tf.events.timeline() as events:
    ...     tf.events.emit("print", text="by hand\\n")
    >>> events[0]
    Event(kind='print', data={'text': 'by hand\\n', 'memory': None})
    """
    if not listening:
        return
    listeners = _subscribed.listeners
    if not listeners:
        return                         # someone listens, on another thread
    if data.keys() != _FIELDS[kind]:
        raise TypeError(f"events.emit: a {kind!r} event carries {KINDS[kind]}, got {tuple(data)}.")
    tape = data.get("tape") or innermost_tape()
    data["memory"] = tape.memory_info() if tape is not None else None
    event = Event(kind, data)
    for listener in tuple(listeners):
        listener(event)


class Timeline(list):
    """The events of a ``with timeline()`` block, in order.

    A timeline keeps the values its events mention alive, so that any moment can be
    drawn later: ``scene(upto)`` and ``player()`` come from ``minitape.viz``.

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
    """Collect every event emitted inside the ``with`` block into a [`Timeline`][minitape.events.Timeline].

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
