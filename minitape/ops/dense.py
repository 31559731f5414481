"""A dense layer's arithmetic as one primitive: ``x · kernel + bias``, over one or more trailing axes of ``x``.

Keras' ``Dense`` computes ``matmul(x, kernel) + bias``, and the projections of ``MultiHeadAttention``
an einsum plus a bias: two ops each, and in the backward pass a product per factor and a sum of the
gradient back to the bias's shape.  ``dense`` is all of that as one entry on the tape, keeping ``x``
and the kernel (as the matmul kept them; the sum kept nothing).  Its VJPs are written with ops.

>>> import minitape as tf
>>> x, kernel, bias = tf.ones((2, 3)), tf.ones((3, 4)), tf.constant([0.0, 1.0, 2.0, 3.0])
>>> tf.ops.dense(x, kernel, bias).numpy()
array([[3., 4., 5., 6.],
       [3., 4., 5., 6.]], dtype=float32)
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from minitape.core.errors import InvalidArgumentError
from minitape.core.primitive import Op, apply
from minitape.core.state import first_order_numpy
from minitape.core.tensor import Tensor, wrap
from minitape.ops.arguments import MATRIX, operands
from minitape.ops.blas_sums import leading_sums
from minitape.ops.linalg import product
from minitape.ops.reductions import reduce_sum
from minitape.ops.shapes import reshape


def dense(x: Any, kernel: Any, bias: Any, axes: int = 1) -> Tensor:
    """``tensordot(x, kernel, axes) + bias``: ``x``'s last ``axes`` axes contracted with ``kernel``'s first.

    ``bias`` has the shape of ``kernel``'s other axes.  With ``axes=1`` it is ``x @ kernel + bias``; with
    ``axes=2``, ``(batch, steps, heads, depth)`` times ``(heads, depth, features)`` is attention's output
    projection.

    >>> import minitape as tf
    >>> tf.ops.dense(tf.ones((1, 2, 3)), tf.ones((2, 3, 5)), tf.zeros((5,)), axes=2).numpy()
    array([[6., 6., 6., 6., 6.]], dtype=float32)
    """
    x, kernel, bias = operands("dense", x, kernel, bias)      # a variable is read: a tape sees it
    MATRIX.check("dense", x)
    x_shape, kernel_shape = x._value.shape, kernel._value.shape
    fits = 0 < axes < len(kernel_shape) and len(x_shape) >= axes and bias._value.shape == kernel_shape[axes:]
    if not fits or x_shape[len(x_shape) - axes:] != kernel_shape[:axes]:
        raise InvalidArgumentError(f"dense: x {tuple(x.shape)}, kernel {tuple(kernel.shape)} and bias "
                                   f"{tuple(bias.shape)} do not fit with axes={axes}: x's last {axes} axes must be "
                                   f"kernel's first, and bias the shape of kernel's others.")
    return apply(_DENSE, (x, kernel, bias), {"axes": axes})


def _matrices(x_shape: tuple, kernel_shape: tuple, axes: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The shapes in which ``x`` is (rows, inner) and ``kernel`` (inner, outer): a product of two matrices."""
    rows, inner, outer = (math.prod(shape) for shape in (x_shape[:len(x_shape) - axes], kernel_shape[:axes],
                                                         kernel_shape[axes:]))
    return (rows, inner), (inner, outer)


def _dense_forward(xp, x, kernel, bias, axes):
    rows, columns = _matrices(x.shape, kernel.shape, axes)
    out = xp.matmul(_reshape(xp, x, rows), _reshape(xp, kernel, columns))
    out += _reshape(xp, bias, (-1,))        # in place: the product is ours, and a second array costs a pass
    return _reshape(xp, out, (*x.shape[:x.ndim - axes], *bias.shape))


def _reshape(xp, a, shape):
    # Just an optimization: a NumPy array's own reshape skips np.reshape's dispatch (0.1 µs against 0.6, 4
    # times a dense forward rule): 1.1% fewer instructions in benchmarks/sequence.py's step (callgrind, 20 steps).
    return a.reshape(shape) if type(a) is np.ndarray else xp.reshape(a, shape)


def _plain(*tensors: Tensor) -> bool:
    # Just an optimization, as layer_normalization's: when no tape records the backward pass, the gradients
    # are never differentiated again, and are worked out in NumPy, without ops.  The primitive with these VJPs
    # takes benchmarks/sequence.py's step to 0.91× the matmul (or einsum) and add it replaces (CPU-time,
    # fresh processes alternating, 10 rounds, a busy machine).
    return first_order_numpy(*tensors)


def _vjp_x(g, ans, x, kernel, bias, axes):
    rows, columns = _matrices(x._value.shape, kernel._value.shape, axes)
    gradient = (rows[0], columns[1])
    if _plain(g, x, kernel):
        return wrap(np.matmul(g._value.reshape(gradient), kernel._value.reshape(columns).T).reshape(x._value.shape))
    return reshape(product(reshape(g, gradient), reshape(kernel, columns), transpose_b=True), x.shape)


def _vjp_kernel(g, ans, x, kernel, bias, axes):
    rows, columns = _matrices(x._value.shape, kernel._value.shape, axes)
    gradient = (rows[0], columns[1])
    if _plain(g, x, kernel):
        return wrap(np.matmul(x._value.reshape(rows).T, g._value.reshape(gradient)).reshape(kernel._value.shape))
    return reshape(product(reshape(x, rows), reshape(g, gradient), transpose_a=True), kernel.shape)


def _vjp_bias(g, ans, x, kernel, bias, axes):
    outer = kernel._value.shape[axes:]
    if _plain(g):
        return wrap(leading_sums(np, g._value, len(outer)))
    return reshape(reduce_sum(reshape(g, (-1, math.prod(outer))), 0), outer)


_DENSE = Op("dense", _dense_forward, (_vjp_x, _vjp_kernel, _vjp_bias), keep=(0, 1))
