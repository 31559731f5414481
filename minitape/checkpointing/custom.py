"""``custom_gradient``: give a function a hand-written gradient.

The function runs normally (its ops are recorded by nobody: the tape records
one call entry instead), and returns its value together with ``grad_fn``,
which becomes the entry's VJP.

>>> import minitape as tf
>>> @tf.custom_gradient
... def log1pexp(x):
...     e = tf.exp(x)
...     def grad(dy):
...         return dy * (1 - 1 / (1 + e))
...     return tf.math.log(1 + e), grad
>>> x = tf.constant(100.0)
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = log1pexp(x)
>>> tape.gradient(y, x).numpy()               # exp(100)/(1 + exp(100)) would be nan
np.float32(1.0)
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Container
from typing import Any

from minitape.core import nest
from minitape.core.state import record, watch_variable_reads
from minitape.core.tensor import Tensor, Variable, convert_to_tensor, wrap
from minitape.checkpointing.call import CallEntry, accepts_keyword, name_of, output_tensors, trainable_read


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
    return _CustomGradient(f)


class _CustomGradient:
    """``f`` with a hand-written gradient; on a class, it binds ``self`` first (TF's ``Bind``).

    A method's ``self`` is not an input: reading ``obj.method`` makes a new ``_CustomGradient`` of
    the bound method, so ``grad_fn`` returns one gradient per tensor argument only.

    >>> import minitape as tf
    >>> class Scale:
    ...     factor = 3.0
    ...     @tf.custom_gradient
    ...     def __call__(self, x):
    ...         return x * self.factor, lambda dy: dy * self.factor
    >>> x = tf.constant(1.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = Scale()(x)
    >>> tape.gradient(y, x).numpy()
    np.float32(3.0)
    """

    def __init__(self, f: Callable) -> None:
        functools.update_wrapper(self, f)
        self._f = f

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        return self if instance is None else _CustomGradient(self._f.__get__(instance, owner))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        f = self._f
        with watch_variable_reads() as read:
            result, grad_fn = _value_and_grad(f(*args, **kwargs), f)
        inputs = [convert_to_tensor(a) for a in nest.flatten(args)]
        variables = trainable_read(read, [args, kwargs])
        if variables and not accepts_keyword(grad_fn, "variables", or_any_keyword=True):
            raise TypeError(f"@tf.custom_gradient grad_fn must accept keyword argument 'variables', since "
                            f"function uses variables: {variables}")
        outputs = [wrap(t._value) for t in output_tensors(result, f)]
        record(CustomEntry(grad_fn, inputs, variables, outputs))
        return nest.pack_sequence_as(result, outputs) if nest.is_nested(result) else outputs[0]


def _value_and_grad(returned: Any, f: Callable) -> tuple[Any, Callable]:
    """``(y, grad_fn)`` as ``f`` returned them; anything else is TF's TypeError (or ValueError, for a wrong count)."""
    if not isinstance(returned, tuple | list):
        raise TypeError(f"@tf.custom_gradient: {name_of(f)} must return a pair (y, grad_fn), got "
                        f"{type(returned).__name__}; return the value and its gradient function.")
    if len(returned) != 2:
        raise ValueError(f"@tf.custom_gradient: {name_of(f)} must return a pair (y, grad_fn), got {len(returned)} "
                         f"values; return the value and its gradient function.")
    if not callable(returned[1]):
        raise TypeError(f"@tf.custom_gradient: the grad_fn that {name_of(f)} returns must be callable, got "
                        f"{type(returned[1]).__name__}.")
    return returned[0], returned[1]


class CustomEntry(CallEntry):
    """The tape's record of a ``custom_gradient`` call: its ``grad_fn`` is the VJP."""

    label = "custom_gradient"

    def __init__(self, grad_fn: Callable, inputs: list[Tensor], variables: list[Variable],
                 outputs: list[Tensor]) -> None:
        super().__init__(inputs, variables, outputs)
        self.grad_fn = grad_fn

    def backward(self, output_grads: list[Tensor | None], needed: Container[int]) -> list[Tensor | None]:
        """``grad_fn`` applied to the outputs' gradients (zeros, not None, where one has none, as TF)."""
        upstream = self.upstream(output_grads)
        variable_grads: list = []
        if self.variables:
            input_grads, variable_grads = self.grad_fn(*upstream, variables=self.variables)
            variable_grads = list(variable_grads)
            if len(variable_grads) != len(self.variables):
                raise ValueError("Must return gradient for each variable from @custom_gradient grad_fn.")
        else:
            input_grads = self.grad_fn(*upstream)
        flat = nest.flatten(input_grads)
        if len(flat) != len(self.arg_tensors):
            raise ValueError(f"custom_gradient function expected to return {len(self.arg_tensors)} gradients, but "
                             f"returned {len(flat)} instead.")
        return [None if g is None else convert_to_tensor(g) for g in flat + variable_grads]

    def kept(self) -> list[tuple[int | str, Tensor]]:
        return []       # whatever grad_fn's closure keeps is invisible from here


def grad_pass_through(f: Callable) -> Callable:
    """``f`` on the forward pass, the identity on the backward pass: the gradient goes straight through.

    For an ``f`` with no useful gradient (rounding, a lookup, an assignment), as in a
    straight-through estimator.  Variables ``f`` reads get no gradient.

    >>> import minitape as tf
    >>> x = tf.constant(1.3)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tf.grad_pass_through(lambda v: tf.math.floordiv(v, 1.0))(x) * 2.0   # floordiv has no gradient
    >>> y.numpy(), tape.gradient(y, x).numpy()
    (np.float32(2.0), np.float32(2.0))
    """
    @custom_gradient
    def passed_through(*args: Any, **kwargs: Any) -> tuple[Any, Callable]:
        if not callable(f):             # TF 2.21 too accepts anything here, and fails at the call
            raise TypeError(f"grad_pass_through: f must be callable, got {type(f).__name__}; pass the function.")

        def grad(*upstream: Tensor, variables: list[Variable] | None = None) -> Any:
            if variables is not None:
                return upstream, [None] * len(variables)
            return upstream
        return f(*args, **kwargs), grad
    return functools.wraps(f)(passed_through) if callable(f) else passed_through
