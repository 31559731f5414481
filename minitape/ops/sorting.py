"""Sorting: ``top_k``, ``sort`` and ``argsort``, all by one ranking along the last axis.

Two rows do the work.  ``ranking`` finds where each value goes (indices: no gradient);
``take_along`` reads the values there.  Reading moves each value to its new place, so its
derivative moves each gradient back: a sum into the places read
([`unsorted_segment_sum`][minitape.ops.segments.unsorted_segment_sum]), whose own derivative
reads again.  ``sort`` and ``argsort`` along another axis swap it with the last, as TF does.

TF ranks by its ``top_k``: largest first, NaN above everything, ties in their original order.
An ascending sort ranks ``-x`` (``~x`` for integers), so NaN comes *first* there, as in TF.

>>> import minitape as tf
>>> tf.math.top_k([3.0, 1.0, 4.0, 1.0], k=2)
TopKV2(values=<minitape.Tensor: shape=(2,), dtype=float32, numpy=array([4., 3.], dtype=float32)>, indices=<minitape.Tensor: shape=(2,), dtype=int32, numpy=array([2, 0], dtype=int32)>)
"""
from __future__ import annotations

import builtins
import math
from typing import Any, NamedTuple

import numpy as np

from minitape.core import arrays, backends, dtypes
from minitape.core.errors import InvalidArgumentError
from minitape.core.messages import with_hint
from minitape.core.primitive import Op, apply
from minitape.core.tensor import Tensor
from minitape.ops.arguments import NUMBERS, as_operand, plain
from minitape.ops.segments import sum_into_segments
from minitape.ops.shapes import reshape, transpose


def _ranking_forward(xp, x, k, descending, index_dtype):
    # argsort puts the smallest first, ties in order: for the largest first, rank the values reversed
    # (-x; for integers ~x, which reverses any integer type without overflowing).
    key = (-x if backends.is_floating(x) else xp.bitwise_invert(x)) if descending else x
    order = xp.argsort(key, axis=-1, stable=True)
    if backends.is_floating(x):                          # NaN first either way: a stable pass moves it there
        numbers = xp.astype(~xp.isnan(xp.take_along_axis(x, order, axis=-1)), xp.int8)
        order = xp.take_along_axis(order, xp.argsort(numbers, axis=-1, stable=True), axis=-1)
    return xp.astype(order[..., :k], getattr(xp, index_dtype.name))


_RANKING = Op("ranking", _ranking_forward)


def _put_along(g: Tensor, indices: Tensor, x: Any) -> Tensor:
    """``g`` summed into zeros shaped as ``x`` at ``indices`` along the last axis: ``take_along``'s VJP."""
    width = x.shape[-1] if x.ndim else 1
    count = indices.shape[-1] if indices.ndim else 1         # k may be 0: no places, rows still counted
    places = arrays.to_numpy(indices._value).astype(np.int64).reshape(math.prod(indices.shape[:-1]), count)
    places = places + width * np.arange(places.shape[0])[:, None]        # each row's own stretch of the flat x
    flat = sum_into_segments(reshape(g, [-1]), places.reshape(-1), places.shape[0] * width)
    return reshape(flat, list(x.shape))


_TAKE_ALONG = Op("take_along", lambda xp, x, indices: xp.take_along_axis(x, indices, axis=-1),
                 (lambda g, ans, x, indices: _put_along(g, indices, x), None), keep=(1,))


class TopKV2(NamedTuple):
    """What ``tf.math.top_k`` returns: the ``values`` and their ``indices``, as TF's ``TopKV2`` output.

    >>> values, indices = tf.math.top_k([1.0, 5.0], k=1)
    >>> indices.numpy()
    array([1], dtype=int32)
    """

    values: Tensor
    indices: Tensor


def _top_k(x: Tensor, k: int, descending: bool, index_dtype: dtypes.DType) -> TopKV2:
    indices = apply(_RANKING, (x,), {"k": k, "descending": descending, "index_dtype": index_dtype})
    return TopKV2(apply(_TAKE_ALONG, (x, indices)), indices)


def top_k(input: Any, k: Any = 1, sorted: bool = True, index_type: Any = dtypes.int32,
          name: str | None = None) -> TopKV2:
    """The ``k`` largest values along the last axis, largest first, and where they were.

    Ties keep their order; NaN counts as the largest.  ``sorted=False`` lets TF return the k
    values in any order; minitape always returns them sorted.  The gradient goes back to the
    places the values came from.

    >>> tf.math.top_k([[1.0, 3.0, 2.0]], k=2).values.numpy()
    array([[3., 2.]], dtype=float32)
    """
    x = as_operand(input, "top_k")
    count = _k(k)
    if x.ndim == 0:
        raise _top_k_error(f"input must be >= 1-D, got shape {arrays.listed(())}", "give a vector (or more) to pick from.")
    if count > x.shape[-1]:
        raise _top_k_error(f"input must have at least k columns. Had {x.shape[-1]}, needed {count}",
                           f"the last axis holds {x.shape[-1]} values: ask for at most that many.")
    NUMBERS.check("top_k", x)
    kind = dtypes.as_dtype(index_type)
    if kind not in (dtypes.int16, dtypes.int32, dtypes.int64):
        raise InvalidArgumentError(f"top_k: index_type must be int16, int32 or int64, got {kind.name}.")
    return _top_k(x, count, True, kind)


def _k(k: Any) -> int:
    """``top_k``'s ``k``: a Python int or an integer scalar tensor, at least 0."""
    value = plain(k)
    if isinstance(value, float | np.floating):
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype int32")
    if np.ndim(value) != 0:
        raise _top_k_error(f"k must be scalar, got shape {arrays.listed(np.shape(value))}", "k is one int, e.g. k=2.")
    if int(value) < 0:
        raise _top_k_error(f"Need k >= 0, got {int(value)}", "k counts the values to pick: 0 or more.")
    return int(value)


def _top_k_error(text: str, advice: str) -> InvalidArgumentError:
    return with_hint(InvalidArgumentError(f"{text} [Op:TopKV2] name: "), f"top_k: {advice}")


def _sorted(values: Any, axis: Any, direction: str, name: str) -> tuple[Tensor, Tensor]:
    """(values, int32 indices) of ``values`` sorted along ``axis``: the last axis swapped in, ranked, swapped back."""
    if direction not in ("ASCENDING", "DESCENDING"):
        raise with_hint(ValueError(f"Argument `direction` should be one of ASCENDING, DESCENDING. "
                                   f"Received: direction={direction}"), f"{name}: spell the direction in capitals.")
    position = plain(axis)
    if np.ndim(position) != 0:
        raise ValueError(f"Argument `axis` must be a constant scalar. Received: axis={axis}.")
    x = as_operand(values, name)
    position = int(position)
    if not -x.ndim <= position < x.ndim:
        shown = position if position >= 0 else position + x.ndim
        raise with_hint(InvalidArgumentError(f"slice index {shown} of dimension 0 out of bounds. "
                                             f"[Op:StridedSlice] name: strided_slice/"),
                        f"{name}: the tensor has {x.ndim} axes (shape {tuple(x.shape)}): pick one of them.")
    NUMBERS.check(name, x)
    swap = list(builtins.range(x.ndim))
    swap[position], swap[-1] = swap[-1], swap[position]          # its own inverse
    last = x if swap[-1] == x.ndim - 1 else transpose(x, swap)
    sorted_values, indices = _top_k(last, last.shape[-1], direction == "DESCENDING", dtypes.int32)
    if last is x:
        return sorted_values, indices
    return transpose(sorted_values, swap), transpose(indices, swap)


def sort(values: Any, axis: Any = -1, direction: str = "ASCENDING", name: str | None = None) -> Tensor:
    """``values`` sorted along ``axis``, ``'ASCENDING'`` or ``'DESCENDING'``.

    NaN goes first either way, as in TF (which sorts ascending by negating and taking ``top_k``).

    >>> tf.sort([3.0, 1.0, 2.0], direction="DESCENDING").numpy()
    array([3., 2., 1.], dtype=float32)
    """
    return _sorted(values, axis, direction, "sort")[0]


def argsort(values: Any, axis: Any = -1, direction: str = "ASCENDING", stable: bool = False,
            name: str | None = None) -> Tensor:
    """The int32 indices that sort ``values`` along ``axis``; equal values keep their order (always stable).

    >>> tf.argsort([3.0, 1.0, 2.0]).numpy()
    array([1, 2, 0], dtype=int32)
    """
    return _sorted(values, axis, direction, "argsort")[1]
