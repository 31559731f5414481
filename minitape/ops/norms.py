"""Norms, and clipping tensors by their norm.

Each is written with other ops, the way TensorFlow writes them, so its gradient
(and TF's corners) come from the op table: the euclidean norm is
``sqrt(sum(x * x))``, whose gradient at 0 is ``nan`` in TF and here
(``0.5 / sqrt(0) * 0``); the 1- and max-norms go through ``abs`` and
``reduce_max``, so at 0 their gradient is 0 and tied maxima share it.
``clip_by_norm`` guards its square root with ``where`` instead, so clipping a
zero tensor has a zero gradient.

>>> import minitape as tf
>>> tf.norm([3.0, 4.0]).numpy()
np.float32(5.0)
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from minitape.core import dtypes
from minitape.core.errors import InvalidArgumentError
from minitape.core.tensor import Tensor, Variable, constant
from minitape.ops.arguments import FLOATS, as_axes, as_operand
from minitape.ops.creation import ones_like
from minitape.ops.elementwise import abs, cast, identity, maximum, minimum, pow, sqrt, where
from minitape.ops.indexing import stack
from minitape.ops.reductions import distinct_axes, reduce_max, reduce_sum
from minitape.ops.shapes import squeeze

_MATRIX_NORMS = ("euclidean", "fro", 1, math.inf)


def norm(tensor: Any, ord: Any = "euclidean", axis: Any = None, keepdims: bool | None = None,
         name: str | None = None) -> Tensor:
    """The norm of a vector (``axis`` an int, or None: all entries as one vector) or of matrices (``axis`` a pair).

    ``ord``: ``"euclidean"`` (the default), ``1``, ``2``, ``np.inf`` or any ``p > 0`` for vectors;
    ``"fro"`` (= ``"euclidean"``), ``1`` (largest column sum) or ``np.inf`` (largest row sum) for matrices.

    >>> tf.norm([[3.0, -4.0], [1.0, 2.0]], axis=1).numpy()
    array([5.      , 2.236068], dtype=float32)
    >>> tf.norm([[3.0, -4.0], [1.0, 2.0]], ord=1, axis=[0, 1]).numpy()
    np.float32(6.0)
    """
    matrix = isinstance(axis, list | tuple) and len(axis) == 2
    _check_ord_and_axis(ord, axis, matrix)
    x = as_operand(tensor, "norm")
    if x.dtype is dtypes.bool_:
        raise TypeError("norm: Expected numeric tensor, got dtype bool; cast it first, e.g. tf.cast(x, tf.float32).")
    axes = tuple(range(x.ndim)) if axis is None else as_axes(axis if matrix else [axis], x.ndim, "norm")
    if matrix:
        distinct_axes(axes, "norm")
    if ord in ("fro", "euclidean", 2):
        FLOATS.check("norm", x)
        result = sqrt(reduce_sum(x * x, axis=axes, keepdims=True))
    elif ord == 1:          # for matrices: the columns' sums (over axis[0]), then the largest of them
        result = reduce_sum(abs(x), axis=axes[:1] if matrix else axes, keepdims=True)
        result = reduce_max(result, axis=axes[1], keepdims=True) if matrix else result
    elif ord == math.inf:   # for matrices: the rows' sums (over axis[1]), then the largest of them
        result = reduce_sum(abs(x), axis=axes[1], keepdims=True) if matrix else abs(x)
        result = reduce_max(result, axis=axes[:1] if matrix else axes, keepdims=True)
    else:
        FLOATS.check("norm", x)
        result = pow(reduce_sum(pow(abs(x), float(ord)), axis=axes, keepdims=True), 1.0 / ord)
    return result if keepdims else squeeze(result, axis=list(axes))


def _check_ord_and_axis(ord: Any, axis: Any, matrix: bool) -> None:
    """TF's checks, made in Python before anything runs: ``axis`` is None, an int or two ints; ``ord`` fits."""
    if matrix:
        if not all(type(a) is int for a in axis) or axis[0] == axis[1]:
            raise ValueError(f"norm: 'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}.")
        if ord == 2:
            raise ValueError("norm: minitape does not compute the matrix 2-norm (the largest singular value); "
                             f"use ord='fro', 1 or np.inf, or tf.norm over one axis. Got ord={ord} with axis={axis}.")
        if ord not in _MATRIX_NORMS:
            raise ValueError(f"norm: 'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, 2, inf], "
                             f"got {ord}.")
        return
    if not (axis is None or type(axis) is int):
        raise ValueError(f"norm: 'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}.")
    if ord == "euclidean" or (isinstance(ord, numbers.Real) and ord > 0):
        return
    raise ValueError(f"norm: 'ord' must be a supported vector norm, got {ord}; use 'euclidean', 1, 2, np.inf or a "
                     f"positive number ('fro' is for matrices: give axis a pair).")


def clip_by_norm(t: Any, clip_norm: Any, axes: Any = None, name: str | None = None) -> Tensor:
    """``t * clip_norm / max(norm(t), clip_norm)``: ``t`` rescaled so that its L2 norm is at most ``clip_norm``.

    ``axes`` picks the axes the norm is taken over (all by default); each slice is clipped alone.

    >>> tf.clip_by_norm([3.0, 4.0], 1.0).numpy()
    array([0.6, 0.8], dtype=float32)
    >>> tf.clip_by_norm([[3.0, 4.0], [0.3, 0.4]], 1.0, axes=1).numpy()
    array([[0.6, 0.8],
           [0.3, 0.4]], dtype=float32)
    """
    values = as_operand(t, "clip_by_norm")
    FLOATS.check("clip_by_norm", values)
    if np.isscalar(clip_norm):
        clip_norm = max(clip_norm, 0)
    else:
        clip_norm = cast(maximum(as_operand(clip_norm, "clip_by_norm"), 0), values.dtype)
    axes = None if axes is None else distinct_axes(as_axes(axes, values.ndim, "clip_by_norm"), "clip_by_norm")
    l2sum = reduce_sum(values * values, axis=axes, keepdims=True)
    positive = l2sum > 0
    # Two wheres, as TF: sqrt never sees 0, so a zero tensor gets a zero gradient, not nan.
    l2norm = where(positive, sqrt(where(positive, l2sum, ones_like(l2sum))), l2sum)
    intermediate = values * clip_norm
    if intermediate.shape != values.shape:
        raise ValueError(f"clip_by_norm: clip_norm of shape {tuple(np.shape(clip_norm))} would broadcast t of shape "
                         f"{tuple(values.shape)} to {tuple(intermediate.shape)}; give it t's shape or fewer axes.")
    return identity(intermediate / maximum(l2norm, clip_norm))


def global_norm(t_list: Sequence[Any], name: str | None = None) -> Tensor:
    """``sqrt(sum of every entry squared)`` over all the tensors of ``t_list``; None entries are skipped.

    >>> tf.linalg.global_norm([[3.0], None, [4.0]]).numpy()
    np.float32(5.0)
    """
    values = [None if v is None else as_operand(v, "global_norm") for v in _tensor_list(t_list, "global_norm")]
    present = [v for v in values if v is not None]
    for k, v in enumerate(present):
        FLOATS.check("global_norm", v)
        if v.dtype is not present[0].dtype:
            raise InvalidArgumentError(f"global_norm: the tensors must share one dtype, got {present[0].dtype.name} "
                                       f"and {v.dtype.name}; tf.cast one of them.")
    half_squared = [reduce_sum(v * v) / 2.0 for v in present]        # TF's l2_loss of each
    return sqrt(reduce_sum(stack(half_squared)) * 2.0)


def clip_by_global_norm(t_list: Sequence[Any], clip_norm: Any, use_norm: Any = None,
                        name: str | None = None) -> tuple[list[Tensor | None], Tensor]:
    """Scale every tensor of ``t_list`` by ``clip_norm / max(global_norm, clip_norm)``; None entries stay None.

    Returns ``(clipped, global_norm)``.  An infinite or NaN global norm makes every entry NaN, as in TF.

    >>> clipped, total = tf.clip_by_global_norm([tf.constant([3.0]), None, tf.constant([4.0])], 1.0)
    >>> clipped[0].numpy(), clipped[1], clipped[2].numpy(), total.numpy()
    (array([0.6], dtype=float32), None, array([0.8], dtype=float32), np.float32(5.0))
    """
    t_list = _tensor_list(t_list, "clip_by_global_norm")
    # minitape takes a Python number as use_norm (TF 2.21 fails with an AttributeError on one).
    use_norm = global_norm(t_list) if use_norm is None else as_operand(use_norm, "clip_by_global_norm")
    if isinstance(clip_norm, Tensor | Variable) and clip_norm.dtype is not use_norm.dtype:
        raise TypeError(f"clip_by_global_norm: clip_norm is {clip_norm.dtype.name} but the global norm is "
                        f"{use_norm.dtype.name}; `x` and `y` must have the same dtype: tf.cast clip_norm.")
    one = constant(1.0, dtype=use_norm.dtype)
    scale = clip_norm * minimum(1.0 / use_norm, one / clip_norm)
    scale = scale + (use_norm - use_norm)          # finite norms add 0; inf or nan make every scale nan
    values = [None if v is None else as_operand(v, "clip_by_global_norm") for v in t_list]
    return [None if v is None else identity(v * cast(scale, v.dtype)) for v in values], use_norm


def _tensor_list(t_list: Any, name: str) -> list[Any]:
    if not isinstance(t_list, Sequence) or isinstance(t_list, str):
        raise TypeError(f"{name}: `t_list` should be a sequence of tensors. Received {type(t_list)}; "
                        f"pass a list, e.g. [t] for one tensor.")
    return list(t_list)
