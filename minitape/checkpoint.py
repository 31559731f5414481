"""Checkpointing: ``recompute_grad`` trades compute for memory; ``custom_gradient`` is its tool.

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

import functools
import inspect
from collections.abc import Callable, Container
from typing import Any

import numpy as np

from minitape import backends, events, nest, random
from minitape.ops import Discarded, identity, zeros_like
from minitape.tape import (Entry, GradientTape, UnconnectedGradients, memory_now, record, stop_recording,
                           variable_accessed, watch_variable_reads)
from minitape.tensor import Tensor, Variable, convert_to_tensor, wrap


class RecomputeMismatchError(RuntimeError):
    """A recomputed function gave outputs of another structure, shape, dtype (or value) than its forward pass."""


# --------------------------------------------------------------------------- recompute_grad

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
    takes_flag = _accepts_keyword(f, "is_recomputing")

    def run(args: tuple, kwargs: dict, recomputing: bool) -> Any:
        if takes_flag:
            kwargs = {**kwargs, "is_recomputing": recomputing}
        return f(*args, **kwargs)

    def checkpointed(*args: Any, **kwargs: Any) -> Any:
        if events.listeners:
            events.emit("checkpoint_enter", function=_name(f), memory=memory_now())
        with stop_recording(), watch_variable_reads() as read, random.replay(random.Source()) as source:
            result = run(args, kwargs, recomputing=False)
        outputs = _output_tensors(result, f)
        entry = RecomputeEntry(f, run, args, kwargs, _trainable(read, args, kwargs), outputs, source.seed, check_values)
        for variable in entry.variables:
            variable_accessed(variable)       # outer tapes watch what f read, as if read here
        fresh = [wrap(t._value) for t in outputs]   # new ids: the entry's outputs
        entry.outputs = tuple(t._id for t in fresh)
        record(entry)
        if events.listeners:
            events.emit("checkpoint_leave", function=_name(f), entry=entry, memory=memory_now())
        return nest.pack_sequence_as(result, fresh) if nest.is_nested(result) else fresh[0]

    _copy_metadata(checkpointed, f)
    return checkpointed


class RecomputeEntry(Entry):
    """The tape's record of a checkpointed call: inputs and variables, not activations."""

    def __init__(self, f: Callable, run: Callable, args: tuple, kwargs: dict, variables: list[Variable],
                 outputs: list[Tensor], seed: int | None, check_values: bool) -> None:
        self.function, self._run, self.args, self.kwargs = f, run, args, kwargs
        self.variables = variables
        self.seed, self.check_values = seed, check_values
        self.arg_tensors = [t for t in nest.flatten([args, kwargs]) if isinstance(t, Tensor | Variable)]
        self.inputs = tuple(t._id for t in self.arg_tensors) + tuple(v._id for v in variables)
        self.output_specs = [Discarded.of(t) for t in outputs]
        self.forward_values = [t._value for t in outputs] if check_values else None
        self.outputs: tuple[int, ...] = ()

    def backward(self, output_grads: list[Tensor | None], needed: Container[int]) -> list[Tensor | None]:
        upstream = [g if g is not None else zeros_like(s) for g, s in zip(output_grads, self.output_specs)]
        if events.listeners:
            events.emit("recompute_start", function=_name(self.function), entry=self, memory=memory_now())
        with GradientTape() as local:
            fresh = {id(t): identity(t) for t in self.arg_tensors}
            local.watch([t for t in fresh.values() if t.dtype.is_floating])
            local.watch(self.variables)
            args, kwargs = nest.pack_sequence_as(
                [self.args, self.kwargs], [fresh.get(id(leaf), leaf) for leaf in nest.flatten([self.args, self.kwargs])])
            with random.replay(random.Source(self.seed)):      # the forward pass's randomness, again
                result = self._run(args, kwargs, recomputing=True)
        if events.listeners:
            events.emit("recompute_end", function=_name(self.function), entry=self, tape=local, memory=local.memory_info())
        outputs = _output_tensors(result, self.function)
        self._check(outputs)
        sources = list(fresh.values()) + list(self.variables)
        grads = local.gradient(outputs, sources, output_gradients=upstream,
                               unconnected_gradients=UnconnectedGradients.ZERO)
        return [g if i in needed else None for g, i in zip(grads, self.inputs)]

    @property
    def name(self) -> str:
        """A short label for pictures: ``recompute_grad(block)``."""
        return f"recompute_grad({getattr(self.function, '__name__', None) or _name(self.function)})"

    def residuals(self) -> list[tuple[int | str, Tensor]]:
        return [(k, t) for k, t in enumerate(self.arg_tensors) if isinstance(t, Tensor)]

    def _check(self, outputs: list[Tensor]) -> None:
        name = _name(self.function)
        if _structure(outputs) != _structure(self.output_specs):
            raise RecomputeMismatchError(
                f"recompute_grad: recomputing {name} gave outputs {_describe(_structure(outputs))}, but the forward "
                f"pass gave {_describe(_structure(self.output_specs))}. A recomputed function must compute the same thing twice: "
                f"keep randomness in minitape.random (it is replayed) and don't change state between the passes.")
        if self.forward_values is not None:
            for k, (before, t) in enumerate(zip(self.forward_values, outputs)):
                # A debugging check: compared on the host, with NumPy's NaN-aware equality.
                if not np.array_equal(backends.to_numpy(before), backends.to_numpy(t._value), equal_nan=True):
                    raise RecomputeMismatchError(f"recompute_grad: recomputing {name} changed the values of output {k}.")


# --------------------------------------------------------------------------- custom_gradient

def custom_gradient(f: Callable) -> Callable:
    """Give ``f`` a hand-written gradient: ``f`` returns ``(y, grad_fn)``.

    ``grad_fn(*dy)`` returns one gradient per input.  When ``f`` reads trainable
    variables, ``grad_fn`` must accept ``variables=`` and return
    ``(input_grads, variable_grads)``.

    >>> import minitape as tf
    >>> @tf.custom_gradient
    ... def clip_gradient(x):
    ...     def grad(dy):
    ...         return tf.clip_by_value(dy, -0.1, 0.1)
    ...     return tf.identity(x), grad
    >>> x = tf.constant(1.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = 5.0 * clip_gradient(x)
    >>> tape.gradient(y, x).numpy()
    np.float32(0.1)
    """
    @functools.wraps(f)
    def decorated(*args: Any, **kwargs: Any) -> Any:
        with watch_variable_reads() as read:
            result, grad_fn = f(*args, **kwargs)
        inputs = [convert_to_tensor(a) for a in nest.flatten(args)]
        variables = _trainable(read, args, kwargs)
        if variables and not _accepts_keyword(grad_fn, "variables", or_any_keyword=True):
            raise TypeError(f"@tf.custom_gradient grad_fn must accept keyword argument 'variables', since "
                            f"function uses variables: {variables}")
        outputs = [wrap(t._value) for t in _output_tensors(result, f)]
        record(CustomEntry(grad_fn, inputs, variables, outputs))
        return nest.pack_sequence_as(result, outputs) if nest.is_nested(result) else outputs[0]

    return decorated


class CustomEntry(Entry):
    """The tape's record of a ``custom_gradient`` call: its ``grad_fn`` is the VJP."""

    def __init__(self, grad_fn: Callable, inputs: list[Tensor], variables: list[Variable],
                 outputs: list[Tensor]) -> None:
        self.grad_fn, self.variables = grad_fn, variables
        self.arg_count = len(inputs)
        self.inputs = tuple(t._id for t in inputs) + tuple(v._id for v in variables)
        self.outputs = tuple(t._id for t in outputs)
        self.output_specs = [Discarded.of(t) for t in outputs]

    def backward(self, output_grads: list[Tensor | None], needed: Container[int]) -> list[Tensor | None]:
        # TF hands zeros, not None, for outputs that received no gradient.
        upstream = [g if g is not None else zeros_like(s) for g, s in zip(output_grads, self.output_specs)]
        variable_grads: list = []
        if self.variables:
            input_grads, variable_grads = self.grad_fn(*upstream, variables=self.variables)
            variable_grads = list(variable_grads)
            if len(variable_grads) != len(self.variables):
                raise ValueError("Must return gradient for each variable from @custom_gradient grad_fn.")
        else:
            input_grads = self.grad_fn(*upstream)
        flat = nest.flatten(input_grads)
        if len(flat) != self.arg_count:
            raise ValueError(f"custom_gradient function expected to return {self.arg_count} gradients, but "
                             f"returned {len(flat)} instead.")
        return [None if g is None else convert_to_tensor(g) for g in flat + variable_grads]

    name = "custom_gradient"

    def residuals(self) -> list[tuple[int | str, Tensor]]:
        return []       # whatever grad_fn's closure keeps is invisible from here


# --------------------------------------------------------------------------- helpers

def _output_tensors(result: Any, f: Callable) -> list[Tensor]:
    """The tensors ``f`` returned (numbers convert, as in TF); anything else is an error."""
    tensors = []
    for leaf in nest.flatten(result):
        try:
            tensors.append(convert_to_tensor(leaf))
        except (TypeError, ValueError):
            raise TypeError(f"{_name(f)} must return a Tensor or a list/tuple/dict of Tensors, but returned "
                            f"{type(leaf).__name__} {leaf!r}.") from None
    if not tensors:
        raise TypeError(f"{_name(f)} must return at least one Tensor, but returned {result!r}.")
    return tensors


def _trainable(read: dict[int, Variable], args: tuple, kwargs: dict) -> list[Variable]:
    """Trainable variables read by the call, other than those passed in, in creation order."""
    passed = {v._id for v in nest.flatten([args, kwargs]) if isinstance(v, Variable)}
    return [read[i] for i in sorted(read) if read[i].trainable and i not in passed]


def _structure(tensors: list[Tensor] | list[Discarded]) -> list[tuple]:
    return [(tuple(t.shape), t.dtype.name) for t in tensors]


def _describe(structure: list[tuple]) -> str:
    return "[" + ", ".join(f"{dtype}{list(shape)}" for shape, dtype in structure) + "]"


def _name(f: Callable) -> str:
    return getattr(f, "__qualname__", None) or getattr(f, "name", None) or type(f).__name__


def _accepts_keyword(f: Callable, keyword: str, or_any_keyword: bool = False) -> bool:
    """Whether ``f`` can be called with ``keyword=...`` (``**kwargs`` counts only if ``or_any_keyword``)."""
    try:
        parameters = inspect.signature(f).parameters.values()
    except (TypeError, ValueError):
        return False
    named = (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return any(p.name == keyword and p.kind in named for p in parameters) or (
        or_any_keyword and any(p.kind is p.VAR_KEYWORD for p in parameters))


def _copy_metadata(wrapper: Callable, f: Callable) -> None:
    """``functools.wraps`` for functions and callable objects alike; never copies an object's state."""
    functools.update_wrapper(wrapper, f, updated=() if not inspect.isfunction(f) else functools.WRAPPER_UPDATES)
    if not inspect.isfunction(f) and not hasattr(f, "__name__"):
        wrapper.__name__ = wrapper.__qualname__ = type(f).__name__
    wrapper.__wrapped__ = f
