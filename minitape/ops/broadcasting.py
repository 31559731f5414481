"""Broadcasting and summing: two ops that are each other's derivative.

``broadcast_to`` copies a value along new or length-1 axes; the gradient of a
copy is the sum of the copies' gradients, so its VJP sums over those axes
(``unbroadcast``).  ``reduce_sum`` adds values up; every value added
contributes with weight one, so its VJP broadcasts the gradient back
(``spread``).  Every op whose inputs broadcast against each other (``add``,
``multiply``, ``where``...) ends its VJPs with ``unbroadcast``.

>>> import minitape as tf
>>> from minitape.ops.broadcasting import unbroadcast
>>> unbroadcast(tf.ones((4, 2, 3)), (2, 1)).numpy()
array([[12.],
       [12.]], dtype=float32)
"""
from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from minitape.core.errors import InvalidArgumentError
from minitape.core.primitive import Discarded, Op, apply
from minitape.core.state import first_order_numpy
from minitape.core.tensor import Tensor, wrap
from minitape.ops.arguments import as_operand, as_shape
from minitape.ops.blas_sums import FLOATS, leading_sums
from minitape.ops.shapes import reshaped

# The sum keeps the input's dtype, as TF (NumPy's would widen int32 to int64).
REDUCE_SUM = Op("reduce_sum", lambda xp, x, axis, keepdims: xp.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype),
                (lambda g, ans, x, axis, keepdims: spread(g, x, axis),))
_BROADCAST_TO = Op("broadcast_to", lambda xp, x, shape: xp.broadcast_to(x, shape),
                   (lambda g, ans, x, shape: unbroadcast(g, x.shape),))


def summed(x: Tensor, axis: tuple[int, ...]) -> Tensor:
    """The ``reduce_sum`` primitive over axes known to be valid (derivatives use it: no checks to pay)."""
    return apply(REDUCE_SUM, (x,), {"axis": axis, "keepdims": False})


def unbroadcast(grad: Tensor, shape: Sequence[int]) -> Tensor:
    """Sum ``grad`` over the axes that broadcasting added or stretched, back to ``shape``."""
    grad_shape = grad._value.shape
    if grad_shape == shape:
        return grad
    extra = len(grad_shape) - len(shape)
    stretched = tuple(extra + i for i, n in enumerate(shape) if n == 1 and grad_shape[extra + i] != 1)
    if not stretched and _plain(grad):
        return wrap(leading_sums(np, grad._value, len(shape)))
    total = summed(grad, tuple(builtins.range(extra)) + stretched)
    return reshaped(total, shape) if stretched else total


def _plain(grad: Tensor) -> bool:
    """Whether a sum of ``grad`` over its leading axes may be BLAS's, outside the op table: a fast path.

    Just an optimization, as ``dense``'s bias gradient: when no tape records, the sum is never
    differentiated again, and a float32 or float64 NumPy array is summed over its batch axes as a
    product with ones (``blas_sums``; the last bits may differ from NumPy's sum, by a sum's rounding).
    The bias gradient of ``x @ W + b`` (256 by 256, float32) then takes 2.9 µs rather than 8.3, and the
    32 blocks of benchmarks/checkpoint.py (mode none) 0.987× their CPU time (alternating in one process
    with the op's sum, medians of 60 pairs).
    """
    return first_order_numpy(grad) and grad._value.dtype in FLOATS


def unbroadcasting(vjp: Callable, k: int) -> Callable:
    """``vjp`` for input ``k`` of a broadcasting op, its result summed back to that input's shape.

    >>> from minitape.ops.broadcasting import unbroadcasting
    >>> vjp = unbroadcasting(lambda g, ans, x, y: g, 1)
    >>> vjp(tf.ones((2, 3)), None, tf.ones((2, 3)), tf.ones((3,))).numpy()
    array([2., 2., 2.], dtype=float32)
    """
    def summed_back(g: Tensor, ans: Any, *inputs: Any, **params: Any) -> Tensor:
        grad, shape = vjp(g, ans, *inputs, **params), shape_of(inputs[k])
        # Most gradients need no summing: asking here saves unbroadcast's call, 1% of a scalar chain (callgrind).
        return grad if grad._value.shape == shape else unbroadcast(grad, shape)
    return summed_back


def shape_of(value: Tensor | Discarded) -> tuple[int, ...]:
    """The shape of a kept input or of its [`Discarded`][minitape.core.primitive.Discarded] record."""
    return value[0] if type(value) is Discarded else value._value.shape


def broadcast_to(input: Any, shape: Any, name: str | None = None) -> Tensor:
    """``input`` repeated along new or length-1 axes to ``shape``.

    >>> tf.broadcast_to([1.0, 2.0], (3, 2)).shape
    TensorShape([3, 2])
    """
    x = as_operand(input, "broadcast_to")
    shape = as_shape(shape, "broadcast_to", error=InvalidArgumentError)
    try:
        np.broadcast_shapes(tuple(x.shape), shape)
    except ValueError:
        raise InvalidArgumentError(f"broadcast_to: cannot broadcast shape {tuple(x.shape)} to {shape}.") from None
    return apply(_BROADCAST_TO, (x,), {"shape": shape})


def spread(g: Tensor, x: Any, axis: tuple) -> Tensor:
    """A reduced gradient broadcast back over the reduced axes of ``x``."""
    shape = tuple(x.shape)
    # Broadcasting puts missing axes in front, so only reduced axes after a kept one need their 1s back.
    if g._value.ndim != len(shape) and axis != tuple(builtins.range(len(axis))):
        g = reshaped(g, tuple(1 if a in axis else n for a, n in enumerate(shape)))
    return apply(_BROADCAST_TO, (g,), {"shape": shape})


def _tile_vjp(g, ans, x, multiples):
    # Axis i of the output is multiples[i] copies of axis i of x: split each axis in two, sum the copies.
    interleaved = tuple(n for pair in zip(multiples, x.shape) for n in pair)
    return summed(reshaped(g, interleaved), tuple(builtins.range(0, 2 * len(multiples), 2)))


_TILE = Op("tile", lambda xp, x, multiples: xp.tile(x, multiples), (_tile_vjp,))


def tile(input: Any, multiples: Any, name: str | None = None) -> Tensor:
    """Repeat ``input`` ``multiples[i]`` times along axis ``i``.

    >>> tf.tile([[1.0, 2.0]], [2, 1]).numpy()
    array([[1., 2.],
           [1., 2.]], dtype=float32)
    """
    x = as_operand(input, "tile")
    multiples = as_shape(multiples, "tile", "multiples", InvalidArgumentError)
    if len(multiples) != x.ndim:
        raise InvalidArgumentError(f"tile: multiples has length {len(multiples)} but the input has rank {x.ndim}.")
    return apply(_TILE, (x,), {"multiples": multiples})
