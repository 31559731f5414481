"""Recording state: which tapes are listening on this thread, and how an entry reaches them.

A tape does not look for ops; ops come to it.  Entering ``with GradientTape()``
pushes the tape onto this thread's ``state``, and every op that runs
offers its entry to [`record`][minitape.core.state.record], which appends it to each recording tape
that follows one of the op's inputs.  Nothing here knows what a tape is
beyond the two methods it calls, so the core never imports the tape.

>>> import minitape as tf
>>> from minitape.core.state import state
>>> with tf.GradientTape() as tape:
...     len(state.tapes)
1
>>> len(state.tapes)
0
"""
from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np


class _ThreadState(threading.local):
    """Per-thread stacks: each thread records onto its own tapes."""

    def __init__(self) -> None:
        self.tapes: list[Any] = []                  # tapes recording on this thread, innermost last
        self.variable_watchers: list[dict] = []     # collectors of variable reads, by id (checkpointing)


state = _ThreadState()


def record(entry: Any) -> None:
    """Offer ``entry`` to every tape recording on this thread; each keeps it if it follows an input.

    >>> import minitape as tf
    >>> x = tf.constant(1.0)
    >>> with tf.GradientTape() as tape:
    ...     y = tf.sin(x)                  # x is not watched: sin is not recorded
    >>> len(tape.entries())
    0
    """
    for tape in state.tapes:
        tape._offer(entry)


def first_order_numpy(*tensors: Any) -> bool:
    """Whether a VJP may work its gradient out in NumPy, without ops: no tape records the backward pass (so
    the gradient is never differentiated again) and every tensor holds a NumPy array.

    The fused ops' VJPs (dense, attention, the normalizations, convolution, the recurrent ops) ask this
    before taking their first-order NumPy path; under a recording tape they run ops, which a tape sees.

    >>> import minitape as tf
    >>> from minitape.core.state import first_order_numpy
    >>> x = tf.constant([1.0])
    >>> first_order_numpy(x)
    True
    >>> with tf.GradientTape():
    ...     first_order_numpy(x)
    False
    """
    return not state.tapes and all(type(t._value) is np.ndarray for t in tensors)


def variable_accessed(variable: Any) -> None:
    """Called on every variable read: tapes may start watching it, checkpoints note it.

    >>> import minitape as tf
    >>> v = tf.Variable(1.0)
    >>> with tf.GradientTape() as tape:
    ...     _ = v * 2.0                    # reading v makes the tape watch it
    >>> tape.watched_variables() == (v,)
    True
    """
    for tape in state.tapes:
        tape._variable_read(variable)
    for watcher in state.variable_watchers:
        watcher[variable._id] = variable


def innermost_tape() -> Any:
    """The tape that started recording last on this thread, or None.

    >>> from minitape.core.state import innermost_tape
    >>> innermost_tape() is None
    True
    """
    return state.tapes[-1] if state.tapes else None


@contextlib.contextmanager
def stop_recording() -> Iterator[None]:
    """Pause every tape of this thread inside the block (a checkpoint's forward pass runs inside this).

    >>> import minitape as tf
    >>> from minitape.core.state import stop_recording
    >>> x = tf.constant(1.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     with stop_recording():
    ...         y = x * x
    >>> print(tape.gradient(y, x))
    None
    """
    paused, state.tapes = state.tapes, []
    try:
        yield
    finally:
        state.tapes = paused + state.tapes


@contextlib.contextmanager
def watch_variable_reads() -> Iterator[dict[int, Any]]:
    """Collect, into the yielded dict (id to variable), every variable read inside the block.

    >>> import minitape as tf
    >>> from minitape.core.state import watch_variable_reads
    >>> v = tf.Variable(1.0, name="v")
    >>> with watch_variable_reads() as read:
    ...     _ = v + 1.0
    >>> [variable.name for variable in read.values()]
    ['v:0']
    """
    seen: dict[int, Any] = {}
    state.variable_watchers.append(seen)
    try:
        yield seen
    finally:
        state.variable_watchers.pop()      # watchers nest like the with blocks that push them
