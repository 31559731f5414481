"""The backward pass: a tape played in reverse, one entry at a time.

Reverse-mode differentiation keeps, for every value, the gradient of the
target with respect to it (its *cotangent*).  It starts from the targets'
seeds (ones, for ``tape.gradient``) and walks the entries from last to first.
By the time an entry is reached every entry after it has run, so its outputs'
gradients are complete: take them out (freeing memory as the pass goes), ask
the entry for its inputs' gradients, and add those into what is kept — a value
used twice receives the sum of its two gradients.

>>> import minitape as tf
>>> x = tf.constant(3.0)
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = x * x + x                      # x is used three times
>>> tape.gradient(y, x).numpy()            # 2x + 1
np.float32(7.0)
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from minitape.core import events
from minitape.core.entry import Entry
from minitape.core.tensor import Tensor


def backprop(entries: Sequence[Entry], seeds: dict[int, Tensor], sources: Iterable[int],
             tape: Any = None, reach: set[int] | None = None) -> dict[int, Tensor]:
    """Reverse-mode accumulation over ``entries``; returns the gradient of every id reached.

    ``seeds`` maps each target's id to its upstream gradient.  Only entries on a
    path from a source to a target do any work.  ``tape`` labels the events.
    ``reach``, the ids that depend on some source, is worked out here
    (``connected``) unless the caller knows that every entry is connected.

    >>> from minitape.autodiff.backward import backprop
    >>> x = tf.constant(2.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tf.sin(x) * x
    >>> grads = backprop(tape.entries(), {y._id: tf.constant(1.0)}, [x._id])
    >>> round(float(grads[x._id]), 6)                 # cos(2)·2 + sin(2)
    0.077004
    """
    sources = set(sources)
    relevant, reach = connected(entries, sources) if reach is None else (entries, reach)
    grads = {i: g for i, g in seeds.items() if i in reach}
    for entry in reversed(relevant):
        out_grads = take_output_grads(grads, entry.outputs, sources)
        if out_grads is None:
            continue                                   # nothing flows back through this entry
        in_grads = entry.backward(out_grads, reach)
        if events.listening:            # saves building the event's arguments for nobody, at every step
            events.emit("backward_step", tape=tape, entry=entry, output_grads=out_grads, input_grads=in_grads)
        for i, g in zip(entry.inputs, in_grads):
            if g is not None:
                grads[i] = grads[i] + g if i in grads else g   # a value used twice sums its gradients
    return grads


def take_output_grads(grads: dict[int, Tensor], outputs: tuple[int, ...], sources: set[int]) -> list | None:
    """The gradients of an entry's outputs (None for an output that has none), or None if none has one.

    Every later entry has run, so each gradient is complete: take it out of ``grads``,
    freeing memory as the pass goes, unless a source needs it at the end.

    >>> from minitape.autodiff.backward import take_output_grads
    >>> grads = {1: "g1"}
    >>> take_output_grads(grads, (1, 2), sources=set()), grads
    (['g1', None], {})
    >>> print(take_output_grads(grads, (1,), sources=set()))
    None
    """
    taken, found = [], False
    for i in outputs:
        g = grads.get(i) if i in sources else grads.pop(i, None)
        taken.append(g)
        found = found or g is not None
    return taken if found else None


def connected(entries: Sequence[Entry], sources: set[int]) -> tuple[list[Entry], set[int]]:
    """The entries that read something depending on ``sources``, and the ids of everything that does.

    >>> from minitape.autodiff.backward import connected
    >>> x, c = tf.constant(1.0), tf.constant(2.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch([x, c])
    ...     y = tf.sin(x)
    ...     z = tf.cos(c)
    >>> [e.label for e in connected(tape.entries(), {x._id})[0]]
    ['sin']
    """
    reach = set(sources)
    relevant = []
    for entry in entries:
        if not reach.isdisjoint(entry.inputs):
            reach.update(entry.outputs)
            relevant.append(entry)
    return relevant, reach
