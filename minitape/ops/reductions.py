"""Reductions: one value from many, along some axes.

Every reduction is declared by one row: its primitive and its docstring.
``reduction`` turns the row into TensorFlow's function
``reduce_*(input_tensor, axis=None, keepdims=False)``.  The VJPs spread the
reduced gradient back over the reduced axes
(``spread``), weighted by what each input
contributed: equally for a sum, ``1/n`` for a mean, only the winners for a
maximum, the product of the others for a product.

>>> import minitape as tf
>>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
>>> tf.reduce_sum(x, axis=0).numpy(), tf.reduce_max(x).numpy()
(array([4., 6.], dtype=float32), np.float32(4.0))
"""
from __future__ import annotations

import builtins
import math
from collections.abc import Callable
from typing import Any

from minitape.core import arrays, backends, dtypes
from minitape.core.errors import InvalidArgumentError
from minitape.core.primitive import ANS, Op, apply
from minitape.core.tensor import Tensor
from minitape.ops.arguments import as_axes, as_operand, count
from minitape.ops.broadcasting import REDUCE_SUM, spread
from minitape.ops.creation import eye, ones_like
from minitape.ops.comparisons import equal
from minitape.ops.elementwise import cast, public, where
from minitape.ops.shapes import inverse_permutation, reshape, transpose


def reduction(op: Op, doc: str) -> Callable:
    """Declare a reduction from its primitive; returns ``reduce_*(input_tensor, axis, keepdims)``.

    >>> from minitape.ops.reductions import reduction
    >>> tf.reduce_sum.op
    Op('reduce_sum', keep=())
    """
    def function(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None) -> Tensor:
        x = as_operand(input_tensor, op.name)
        if x.dtype is dtypes.bool_:
            raise InvalidArgumentError(f"{op.name}: input_tensor is bool, but only numbers reduce; "
                                       f"cast it first, e.g. tf.cast(x, tf.int32).")
        axes = tuple(builtins.range(x.ndim)) if axis is None else distinct_axes(as_axes(axis, x.ndim, op.name), op.name)
        return apply(op, (x,), {"axis": axes, "keepdims": bool(keepdims)})
    return public(function, op.name, op, doc)


def distinct_axes(axes: tuple[int, ...], name: str) -> tuple[int, ...]:
    """``axes`` (non-negative) in order; naming one twice is an error, as in TF.

    >>> from minitape.ops.reductions import distinct_axes
    >>> distinct_axes((1, 0), "reduce_sum")
    (0, 1)
    >>> distinct_axes((0, 1, 0), "reduce_sum")
    Traceback (most recent call last):
    ...
    minitape.core.errors.InvalidArgumentError: reduce_sum: Invalid reduction arguments: Axes contains duplicate dimension: 0 ...
    """
    for k, a in enumerate(axes):
        if a in axes[:k]:
            raise InvalidArgumentError(f"{name}: Invalid reduction arguments: Axes contains duplicate dimension: {a} "
                                       f"(negative axes count from the end). Name each axis once.")
    return tuple(sorted(axes))


def _mean_forward(xp, x, axis, keepdims):
    if backends.is_floating(x):
        if count(x.shape, axis):
            return xp.mean(x, axis=axis, keepdims=keepdims)
        return xp.sum(x, axis=axis, keepdims=keepdims) / 0     # 0/0: NaN, as TF (NumPy's mean of nothing warns)
    # TF's integer mean: the sum taken in int64, divided, truncated toward zero, in the input's dtype.
    total = xp.sum(x, axis=axis, keepdims=keepdims, dtype=xp.int64)
    n = builtins.max(1, count(x.shape, axis))
    rounded_down = (total % n != 0) & (total < 0)               # // rounds down: those go one up, toward zero
    return xp.astype(total // n + xp.astype(rounded_down, xp.int64), x.dtype)


def _extreme_forward(largest: bool) -> Callable:
    """reduce_max's (or reduce_min's) forward rule: over an empty axis, TF's -inf (+inf), or the lowest (highest) integer."""
    def forward(xp, x, axis, keepdims):
        if builtins.all(x.shape[a] for a in axis):
            return (xp.max if largest else xp.min)(x, axis=axis, keepdims=keepdims)
        if backends.is_floating(x):
            value = -math.inf if largest else math.inf
        else:
            value = xp.iinfo(x.dtype).min if largest else xp.iinfo(x.dtype).max
        shape = tuple(1 if a in axis else n for a, n in enumerate(x.shape) if keepdims or a not in axis)
        return arrays.full_beside(x, shape, value)
    return forward


def _extreme_vjp(g, ans, x, axis, keepdims):
    hits = cast(equal(x, spread(ans, x, axis)), g.dtype)       # ties share the gradient equally
    return spread(g, x, axis) * hits / spread(reduce_sum(hits, axis=axis), x, axis)


def _prod_vjp(g, ans, x, axis, keepdims):
    # d(prod)/dx_i is the product of the *other* entries: computed exactly, without dividing by x_i.
    rest = tuple(a for a in builtins.range(x.ndim) if a not in axis)
    moved = transpose(x, rest + axis)
    n = count(x, axis)
    flat = reshape(moved, tuple(x.shape[a] for a in rest) + (1, n))
    others = reduce_prod(where(eye(n, dtype=dtypes.bool_), ones_like(flat), flat), axis=-1)
    others = transpose(reshape(others, tuple(moved.shape)), inverse_permutation(rest + axis))
    return spread(g, x, axis) * others


# --------------------------------------------------------------------------- the table

reduce_sum = reduction(REDUCE_SUM, doc="""
    Sum over ``axis`` (all axes by default).

    >>> tf.reduce_sum([[1.0, 2.0], [3.0, 4.0]], axis=0).numpy()
    array([4., 6.], dtype=float32)
    """)
reduce_mean = reduction(Op("reduce_mean", _mean_forward,
                           (lambda g, ans, x, axis, keepdims: spread(g / count(x, axis), x, axis),)), doc="""
    Mean over ``axis`` (integers give the mean truncated toward zero, in their own dtype, as TF).

    >>> tf.reduce_mean([[1.0, 2.0], [3.0, 4.0]], axis=1, keepdims=True).numpy()
    array([[1.5],
           [3.5]], dtype=float32)
    """)
reduce_max = reduction(Op("reduce_max", _extreme_forward(largest=True), (_extreme_vjp,), keep=(ANS, 0)), doc="""
    Maximum over ``axis``; tied maxima share the gradient equally.  Over nothing it is ``-inf``, as TF.

    >>> tf.reduce_max([1.0, 3.0, 3.0]).numpy()
    np.float32(3.0)
    """)
reduce_min = reduction(Op("reduce_min", _extreme_forward(largest=False), (_extreme_vjp,), keep=(ANS, 0)), doc="""
    Minimum over ``axis``; tied minima share the gradient equally.  Over nothing it is ``inf``, as TF.

    >>> tf.reduce_min([[1.0, 3.0]], axis=1).numpy()
    array([1.], dtype=float32)
    """)
reduce_prod = reduction(Op("reduce_prod", lambda xp, x, axis, keepdims: xp.prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype),
                           (_prod_vjp,), keep=(0,)), doc="""
    Product over ``axis``; the gradient is exact even where entries are 0.

    >>> tf.reduce_prod([2.0, 3.0, 4.0]).numpy()
    np.float32(24.0)
    """)
