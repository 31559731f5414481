"""Arguments: how the values users pass become the tensors, shapes and axes ops run on.

TensorFlow converts a Python number or list to a tensor of the dtype of the
tensor it meets (``x + 1`` is float32 when ``x`` is), and never mixes two
dtypes silently.  These helpers are those rules, in one place.

>>> import minitape as tf
>>> from minitape.ops.arguments import pair, as_axes
>>> x, one = pair("add", tf.constant([1.0, 2.0]), 1)
>>> one.dtype, as_axes(-1, 2, "reduce_sum")
(minitape.float32, (1,))
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from minitape.core import arrays, backends
from minitape.core.backends import FLOATING, SCALARS, by_type
from minitape.core.errors import InvalidArgumentError
from minitape.core.tensor import Tensor, Variable, array_on, constant, wrap


def as_operand(value: Any) -> Tensor:
    """A tensor for an op input: tensors pass, variables are read, anything else becomes a constant."""
    if type(value) is Tensor:
        return value
    if isinstance(value, Variable):
        return value.read_value()
    return constant(value)


def like(value: Any, other: Tensor) -> Tensor:
    """Convert a non-tensor operand to the dtype and device of the tensor it meets (TF's rule)."""
    kind = type(value)
    if kind is Variable:
        return value.read_value()
    array = other._value
    if kind is float or kind is int:
        if by_type.get(type(array)) is np:
            if kind is int or type(array.dtype) in FLOATING:
                return wrap(array.dtype.type(value))    # NumPy's fast path: a scalar, no conversion rules
        elif kind is int or backends.is_floating(array):
            return wrap(arrays.full_beside(array, (), value))
    if isinstance(value, Tensor | Variable):
        return as_operand(value)
    backend = backends.backend_of(array)
    try:
        return wrap(array_on(backend, value, dtype=other.dtype))
    except TypeError:
        return wrap(array_on(backend, value))           # then the dtype check names both dtypes


def operands(name: str, *values: Any) -> tuple[Tensor, ...]:
    """Tensors for an elementwise op: non-tensors take the dtype of the first tensor; dtypes must agree."""
    anchor = next((v for v in values if isinstance(v, Tensor | Variable)), None)
    anchor = as_operand(values[0] if anchor is None else anchor)
    tensors = tuple(v if type(v) is Tensor else like(v, anchor) for v in values)
    if any(t._value.dtype is not tensors[0]._value.dtype for t in tensors[1:]):
        _agree(name, *tensors)
    return tensors


def pair(name: str, x: Any, y: Any) -> tuple[Tensor, Tensor]:
    """``operands`` for two values, the common case, without building generators."""
    if type(x) is Tensor:
        if type(y) is not Tensor:
            y = like(y, x)
    elif type(y) is Tensor:
        x = like(x, y)
    else:
        x, y = operands(name, x, y)
    xv, yv = x._value, y._value
    # Two NumPy scalars of one type share their dtype; anything else compares dtypes.
    if (type(xv) is not type(yv) or type(xv) not in SCALARS) and xv.dtype is not yv.dtype:
        _agree(name, x, y)
    return x, y


def _agree(name: str, *tensors: Tensor) -> None:
    """Raise unless the tensors share one device and one dtype: minitape converts neither silently."""
    arrays.check_same_device(name, tuple(t._value for t in tensors))
    first = tensors[0].dtype
    k, other = next(((k, t.dtype) for k, t in enumerate(tensors) if t.dtype is not first), (None, None))
    if other is None:
        return
    raise InvalidArgumentError(f"{name}: input {k} is {other.name} but input 0 is {first.name}; minitape never "
                               f"converts silently. Use tf.cast(x, tf.{first.name}) on one of them.")


def needs_floating(name: str, t: Tensor) -> None:
    if not backends.is_floating(t._value):
        raise InvalidArgumentError(f"{name} needs a floating-point tensor (float16/32/64), got {t.dtype.name}; "
                                   f"use tf.cast(x, tf.float32) first.")


# ---- argument helpers

def plain(value: Any) -> Any:
    """Tensors given as arguments (shapes, axes, indices) become plain NumPy values."""
    if isinstance(value, Tensor | Variable):
        return value.numpy()
    if isinstance(value, list | tuple):
        return type(value)(plain(v) for v in value)
    return value


def ints(value: Any) -> tuple[int, ...]:
    """An int, a list or tuple of ints, or a tensor of them, as a tuple of Python ints."""
    if type(value) is int:
        return (value,)
    if type(value) in (tuple, list) and all(type(n) is int for n in value):
        return tuple(value)         # the common case, checked without building NumPy arrays
    return tuple(int(n) for n in np.asarray(plain(value), dtype=np.int64).reshape(-1))


def as_shape(shape: Any) -> tuple[int, ...]:
    """A shape given as an int, list, tuple or tensor, as a tuple of ints."""
    return ints(shape)


def as_axes(axis: Any, ndim: int, name: str) -> tuple[int, ...]:
    axes = ints(axis)
    for a in axes:
        if ndim == 0:
            raise InvalidArgumentError(f"{name}: axis {a} given, but a scalar has no axes.")
        if not -ndim <= a < ndim:
            raise InvalidArgumentError(f"{name}: axis {a} is out of range for a tensor of rank {ndim} "
                                       f"(valid: {-ndim} to {ndim - 1}).")
    return tuple(a % ndim for a in axes)

def count(x: Any, axis: Sequence[int]) -> int:
    """How many values the ``axis`` of ``x`` (a tensor, or a plain shape) hold together."""
    shape = tuple(x.shape) if hasattr(x, "shape") else x
    return math.prod(shape[a] for a in axis)
