"""Memory accounting: how many bytes a tape keeps alive for its backward pass.

What counts is what the tape's entries keep ([`Entry.kept`][minitape.core.entry.Entry.kept]), each
buffer once however many entries or views refer to it, and nothing the user
made before the tape started (inputs, variables' values): those would be
alive anyway.  Recording only adds to what is held, so counting the entries
recorded since the last count keeps the running total exact; the peak is the
most held at any moment before a release.

A value made while recording may still be the user's memory: ``tf.identity(x)``,
``tf.reshape(x, ...)``, ``x[:]`` and ``tf.expand_dims(x, 0)`` look into ``x``'s
buffer.  So a kept buffer that is a watched value's (a watched tensor or variable
made before the tape) is not counted either: the tape does not keep it alive alone.

>>> import minitape as tf
>>> x = tf.ones((1000,))                       # 4,000 bytes, the user's
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = tf.tanh(x)                         # tanh keeps its output: 4,000 bytes
...     z = tf.reduce_sum(y * 2.0 + y)         # `*` keeps y (counted once) and the 4-byte 2.0
>>> tape.memory_info()
{'current': 4004, 'peak': 4004}
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     z = tf.reshape(x, (10, 100)) * 2.0     # `*` keeps a view of x (the user's) and the 4-byte 2.0
>>> tape.memory_info()
{'current': 4, 'peak': 4}
"""
from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

from minitape.core import arrays, backends
from minitape.core.entry import Entry
from minitape.core.primitive import Discarded, OpEntry


class HeldMemory:
    """The running count of one tape's held bytes.

    >>> from minitape.autodiff.memory import HeldMemory
    >>> held = HeldMemory(first_id=0)
    >>> held.count([]), held.as_dict()
    (0, {'current': 0, 'peak': 0})
    """

    def __init__(self, first_id: int) -> None:
        self.first_id = first_id           # values with a smaller id are the user's
        self.buffers: dict[int, Any] = {}  # counted buffers by id (the entries keep them alive)
        self.current = 0
        self.peak = 0
        self.counted = 0                   # entries already counted
        self.watched: dict[int, weakref.ref] = {}  # the watched tensors and variables (not kept alive), by id
        self.users: set[int] = set()       # ids of the buffers of those made before the tape: the user's

    def watch(self, value: Any) -> None:
        """``value`` (a tensor or variable) is watched: if it is the user's, so is every view of its buffer."""
        self.watched[id(value)] = weakref.ref(value)

    def count(self, entries: Sequence[Entry]) -> int:
        """Add the buffers of the entries recorded since the last count; returns the bytes now held."""
        users = self._user_buffers()
        if users != self.users:                 # a new watch, or a variable given a new buffer: count again
            self.buffers, self.current, self.counted = {}, 0, 0
        self.users, first_id, buffers, current = users, self.first_id, self.buffers, self.current
        for entry in entries[self.counted:]:
            for value in _kept_values(entry):
                if type(value) is Discarded or value._id < first_id:
                    continue                            # a record of a value not kept; or the user's: alive anyway
                buffer = value._value
                size = _SCALAR_SIZES.get(type(buffer))  # a NumPy scalar is its own buffer, of its type's size
                if size is None:
                    if id(buffer) in buffers:
                        continue                        # counted already (an op's output, kept as the next one's input)
                    buffer = root_buffer(buffer)
                    size = arrays.nbytes(buffer)
                key = id(buffer)
                if key not in buffers and key not in users:     # not a view of the user's
                    buffers[key] = buffer
                    current += size
        self.counted, self.current = len(entries), current
        self.peak = max(self.peak, self.current)
        return self.current

    def _user_buffers(self) -> set[int]:
        """The ids of the buffers of the watched values made before the tape.

        An id stands for its buffer while the watched value is alive; one that is gone leaves ``watched``,
        and the ids change: everything is counted again.
        """
        alive = [value for value in (ref() for ref in self.watched.values()) if value is not None]
        if len(alive) < len(self.watched):
            self.watched = {id(value): weakref.ref(value) for value in alive}
        return {id(root_buffer(value._value)) for value in alive if value._id < self.first_id}

    def release(self) -> None:
        """Everything is let go (the tape was reset); the peak is remembered."""
        self.buffers, self.current, self.counted = {}, 0, 0

    def as_dict(self) -> dict[str, int]:
        return {"current": self.current, "peak": self.peak}


def root_buffer(array: Any) -> Any:
    """The array that owns the memory a view looks into (the array itself if it owns it).

    >>> from minitape.autodiff.memory import root_buffer
    >>> a = np.zeros(4)
    >>> root_buffer(a[1:]) is a
    True
    """
    try:
        base = array.base           # NumPy and CuPy views know their base...
    except AttributeError:
        return array                # ...the standard has no such thing (nor do NumPy scalars need one)
    while base is not None and hasattr(base, "nbytes"):
        array, base = base, base.base
    return array


def _kept_values(entry: Entry) -> Sequence[Any]:
    """The values of ``entry.kept()``, without their roles; for an op's entry, some records among them.

    Just an optimization, with ``_SCALAR_SIZES``: an op's entry (``OpEntry.kept``, no residual) is
    read directly, and a NumPy scalar's size is looked up by its type.  Memory is counted at every
    ``gradient`` of a tape that lets go: this saves 1,800 instructions of 43,300 per op of the scalar
    chain (4%: callgrind, collector off).
    """
    if type(entry).kept is _OP_KEPT and not entry.op.residual:
        return entry.saved + (entry.ans,)
    return [value for _, value in entry.kept()]


_OP_KEPT = OpEntry.kept
_SCALAR_SIZES = {kind: dtype.itemsize for kind, dtype in backends.SCALARS.items()}
