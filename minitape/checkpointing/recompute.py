"""``recompute_grad``: trade compute for memory by running a function twice.

Without checkpointing a tape keeps, for every op, what that op's derivative
needs.  ``recompute_grad(f)`` changes the deal for ``f``: the forward pass runs
``f`` with every tape paused and records **one** entry, holding only ``f``'s
inputs (and noting which trainable variables it read).  When ``tape.gradient``
reaches that entry it runs ``f`` again, under a local tape, and
differentiates that recomputation.

>>> import minitape as tf
>>> y = tf.Variable(2.0)
>>> def block(x):
...     tf.print("running")
...     return tf.tanh(x * y)
>>> block = tf.recompute_grad(block)
>>> with tf.GradientTape() as tape:
...     out = block(tf.constant(0.5))
running
>>> grad = tape.gradient(out, y)
running
"""
from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any

import numpy as np

from minitape.core import arrays, events, nest, random
from minitape.core.state import record, state, stop_recording, watch_variable_reads
from minitape.core.tensor import Tensor, Variable, wrap
from minitape.autodiff.requests import UnconnectedGradients
from minitape.autodiff.tape import GradientTape
from minitape.checkpointing.call import (CallEntry, accepts_keyword, context_snapshot, copy_metadata, layout,
                                         name_of, output_tensors, recomputing, room_for_one_more_level,
                                         trainable_read)
from minitape.ops import identity


class RecomputeMismatchError(RuntimeError):
    """A recomputed function gave outputs of another structure, shape, dtype (or value) than its forward pass.

    >>> import minitape as tf
    >>> issubclass(tf.RecomputeMismatchError, RuntimeError)
    True
    """


def recompute_grad(f: Callable, *, check_values: bool = False) -> Callable:
    """Wrap ``f`` so that its activations are recomputed during the backward pass, not stored.

    Gradients flow to ``f``'s tensor arguments (positional or keyword) and to
    every trainable variable ``f`` reads.  If ``f`` accepts ``is_recomputing``
    it receives ``False`` on the forward pass and ``True`` on recomputation.
    Random ops inside ``f`` are replayed exactly when it is recomputed.

    Args:
        f: a function, Keras layer or model returning a tensor or a structure of tensors.
        check_values: also check that the recomputed values equal the forward
            pass's (structure, shapes and dtypes are always checked).

    Returns:
        A function with ``f``'s name and docstring; ``__wrapped__`` is ``f``.

    >>> import minitape as tf
    >>> def double(x):
    ...     return 2.0 * x
    >>> g = tf.recompute_grad(double)
    >>> g.__name__, g.__wrapped__ is double
    ('double', True)
    """
    if not callable(f):
        raise TypeError(f"recompute_grad expects a callable (a function, Keras layer or model), "
                        f"got {type(f).__name__} {f!r}.")
    takes_flag = accepts_keyword(f, "is_recomputing")

    def flagged(kwargs: dict, recomputing: bool) -> dict:
        return {**kwargs, "is_recomputing": recomputing} if takes_flag else kwargs

    def checkpointed(*args: Any, **kwargs: Any) -> Any:
        events.emit("checkpoint_enter", function=name_of(f))
        with stop_recording(), watch_variable_reads() as read, random.replay(random.Source()) as source, \
                room_for_one_more_level():
            result = f(*args, **flagged(kwargs, False))       # called from here: one frame per level of nesting
        outputs = [wrap(t._value) for t in output_tensors(result, f)]     # new ids: the entry's outputs
        entry = None
        # No tape records a call made inside another checkpoint's forward pass (the tapes are paused
        # there), and a nest of depth n makes about n²/2 such calls while it recomputes: make no entry.
        if state.tapes:
            # Every trainable variable read counts, passed ones too: f may also read one it was passed.
            entry = RecomputeEntry(f, flagged, args, kwargs, trainable_read(read), outputs, layout(result),
                                   source.seed, check_values)
            entry.announce_reads()
            record(entry)
        events.emit("checkpoint_leave", function=name_of(f), entry=entry)
        return nest.pack_sequence_as(result, outputs) if nest.is_nested(result) else outputs[0]

    copy_metadata(checkpointed, f)
    return checkpointed


class RecomputeEntry(CallEntry):
    """The tape's record of a checkpointed call: its arguments and the variables it read, not its activations.

    >>> import minitape as tf
    >>> f = tf.recompute_grad(lambda x: tf.tanh(tf.sin(x)))
    >>> x = tf.ones((100,))
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = f(x)
    >>> len(tape.entries()), tape.memory_info()["current"]     # x is the user's: nothing held
    (1, 0)
    """

    def __init__(self, f: Callable, flagged: Callable, args: tuple, kwargs: dict, variables: list[Variable],
                 outputs: list[Tensor], result_layout: str, seed: int | None, check_values: bool) -> None:
        arg_tensors = [t for t in nest.flatten([args, kwargs]) if isinstance(t, Tensor | Variable)]
        super().__init__(arg_tensors, variables, outputs)
        self.function, self._flagged, self.args, self.kwargs = f, flagged, args, kwargs
        self.layout = result_layout
        self.seed = seed
        self.context = context_snapshot()          # e.g. Keras' training mode, restored when recomputing
        self.forward_values = [t._value for t in outputs] if check_values else None
        self.label = f"recompute_grad({getattr(f, '__name__', None) or name_of(f)})"

    def backward(self, output_grads: list[Tensor | None], needed: Container[int]) -> list[Tensor | None]:
        """Run the function again under a local tape, then differentiate that recomputation.

        The local tape watches a fresh copy of every argument and the variables read,
        so its gradients are exactly this call's input gradients.
        """
        upstream = self.upstream(output_grads)
        events.emit("recompute_start", function=name_of(self.function), entry=self)
        # One fresh copy per argument position (f(x, x) has two), made before the local tape
        # records: its gradient then holds only what flows through that argument, and a
        # variable's own gradient only what flows through f reading it.
        fresh = [identity(t) for t in self.arg_tensors]
        copies = iter(fresh)
        leaves = [next(copies) if isinstance(leaf, Tensor | Variable) else leaf
                  for leaf in nest.flatten([self.args, self.kwargs])]
        args, kwargs = nest.pack_sequence_as([self.args, self.kwargs], leaves)
        with room_for_one_more_level():
            with GradientTape() as local:
                local.watch([t for t in fresh if t.dtype.is_floating])
                local.watch(self.variables)
                # The forward pass's randomness and settings again; state-holding layers see is_recomputing().
                with random.replay(random.Source(self.seed)), recomputing(self.context):
                    result = self.function(*args, **self._flagged(kwargs, True))
            events.emit("recompute_end", function=name_of(self.function), entry=self, tape=local)
            outputs = output_tensors(result, self.function)
            self._check(result, outputs)
            grads = local.gradient(outputs, fresh + list(self.variables), output_gradients=upstream,
                                   unconnected_gradients=UnconnectedGradients.ZERO)
        return [g if i in needed else None for g, i in zip(grads, self.inputs)]

    def _check(self, result: Any, outputs: list[Tensor]) -> None:
        name = name_of(self.function)
        if layout(result) != self.layout:
            raise RecomputeMismatchError(
                f"recompute_grad: recomputing {name} returned {layout(result)}, but the forward pass returned "
                f"{self.layout} (· is a tensor). A recomputed function must return the same structure twice: "
                f"don't change state between the passes.")
        if _structure(outputs) != _structure(self._output_specs):
            raise RecomputeMismatchError(
                f"recompute_grad: recomputing {name} gave outputs {_describe(_structure(outputs))}, but the forward "
                f"pass gave {_describe(_structure(self._output_specs))}. A recomputed function must compute the same "
                f"thing twice: keep randomness in minitape.random (it is replayed) and don't change state between "
                f"the passes.")
        if self.forward_values is not None:
            for k, (before, t) in enumerate(zip(self.forward_values, outputs)):
                # A debugging check: compared on the host, with NumPy's NaN-aware equality.
                if not np.array_equal(arrays.to_numpy(before), arrays.to_numpy(t._value), equal_nan=True):
                    raise RecomputeMismatchError(f"recompute_grad: recomputing {name} changed the values of output {k}.")


def _structure(tensors: list) -> list[tuple]:
    return [(tuple(t.shape), t.dtype.name) for t in tensors]


def _describe(structure: list[tuple]) -> str:
    return "[" + ", ".join(f"{dtype}{list(shape)}" for shape, dtype in structure) + "]"
