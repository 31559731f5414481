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

from minitape.core import arrays, events, nest
from minitape.core.state import record, state
from minitape.core.tensor import Tensor, Variable, wrap
from minitape.autodiff.requests import UnconnectedGradients
from minitape.autodiff.tape import GradientTape
from minitape.checkpointing.call import CallEntry, accepts_keyword, copy_metadata, layout, name_of, output_tensors
from minitape.checkpointing.replay import FirstRun, replaying, room_for_one_more_level, untraced
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

    def checkpointed(*args: Any, **kwargs: Any) -> Any:
        return call_checkpointed(f, args, kwargs, takes_flag, check_values)

    copy_metadata(checkpointed, f)
    return checkpointed


def call_checkpointed(f: Callable, args: tuple, kwargs: dict, takes_flag: bool = False,
                      check_values: bool = False) -> Any:
    """The forward pass of a checkpointed call: run ``f`` untraced, record one entry for the whole call.

    >>> import minitape as tf
    >>> from minitape.checkpointing.recompute import call_checkpointed
    >>> x = tf.constant(2.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = call_checkpointed(tf.square, (x,), {})
    >>> float(y), [entry.label for entry in tape.entries()]
    (4.0, ['recompute_grad(square)'])
    """
    events.emit("checkpoint_enter", function=name_of(f))
    with untraced() as first:                 # tapes paused; what running f again needs is noted
        result = f(*args, **with_flag(kwargs, takes_flag, False))
    outputs = [wrap(t._value) for t in output_tensors(result, f)]     # new ids: the entry's outputs
    entry = None
    if state.tapes:                           # none recording inside another checkpoint's forward pass
        entry = RecomputeEntry(f, args, kwargs, takes_flag, first, outputs, layout(result), check_values)
        entry.announce_reads()                # first.variables: every trainable variable f read
        record(entry)
    events.emit("checkpoint_leave", function=name_of(f), entry=entry)
    return nest.pack_sequence_as(result, outputs) if nest.is_nested(result) else outputs[0]


def with_flag(kwargs: dict, takes_flag: bool, recomputing: bool) -> dict:
    """``kwargs``, with ``is_recomputing=recomputing`` added for a function that takes it.

    >>> from minitape.checkpointing.recompute import with_flag
    >>> with_flag({"a": 1}, True, False), with_flag({"a": 1}, False, False)
    ({'a': 1, 'is_recomputing': False}, {'a': 1})
    """
    return {**kwargs, "is_recomputing": recomputing} if takes_flag else kwargs


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

    def __init__(self, f: Callable, args: tuple, kwargs: dict, takes_flag: bool, first: FirstRun,
                 outputs: list[Tensor], result_layout: str, check_values: bool) -> None:
        arg_tensors = [t for t in nest.flatten([args, kwargs]) if isinstance(t, Tensor | Variable)]
        super().__init__(arg_tensors, first.variables, outputs)
        self.function, self.args, self.kwargs, self.takes_flag = f, args, kwargs, takes_flag
        self.first = first              # its seed and settings (such as Keras' training mode), for the second run
        self.layout = result_layout
        self.forward_values = [t._value for t in outputs] if check_values else None
        self.label = f"recompute_grad({getattr(f, '__name__', None) or name_of(f)})"

    def backward(self, output_grads: list[Tensor | None], needed: Container[int]) -> list[Tensor | None]:
        """Run the function again under a local tape, then differentiate that recomputation."""
        upstream = self.upstream(output_grads)
        local = GradientTape()
        events.emit("recompute_start", function=name_of(self.function), entry=self, tape=local)
        fresh, args, kwargs = self._fresh_arguments()
        with room_for_one_more_level():
            with local:
                local.watch([t for t in fresh if t.dtype.is_floating] + self.variables)
                with replaying(self.first):                     # the same random seeds and settings
                    result = self.function(*args, **kwargs)
            events.emit("recompute_end", function=name_of(self.function), entry=self, tape=local)
            outputs = self._checked(result)
            grads = local.gradient(outputs, fresh + self.variables, output_gradients=upstream,
                                   unconnected_gradients=UnconnectedGradients.ZERO)
        return [g if i in needed else None for g, i in zip(grads, self.inputs)]

    def _fresh_arguments(self) -> tuple[list[Tensor], tuple, dict]:
        """A fresh copy of each tensor argument, and the call's arguments with the copies in their place.

        One copy per argument position (``f(x, x)`` has two), made before the local tape
        records: its gradient then holds only what flows through that argument, and a
        variable's own gradient only what flows through ``f`` reading it.  A function that
        takes ``is_recomputing`` is told ``True``.
        """
        fresh = [identity(t) for t in self.arg_tensors]
        copies = iter(fresh)
        leaves = [next(copies) if isinstance(leaf, Tensor | Variable) else leaf
                  for leaf in nest.flatten([self.args, self.kwargs])]
        args, kwargs = nest.pack_sequence_as([self.args, self.kwargs], leaves)
        return fresh, args, with_flag(kwargs, self.takes_flag, True)

    def _checked(self, result: Any) -> list[Tensor]:
        """The recomputation's output tensors, once checked to match the forward pass's."""
        outputs = output_tensors(result, self.function)
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
        return outputs


def _structure(tensors: list) -> list[tuple]:
    return [(tuple(t.shape), t.dtype.name) for t in tensors]


def _describe(structure: list[tuple]) -> str:
    return "[" + ", ".join(f"{dtype}{list(shape)}" for shape, dtype in structure) + "]"
