"""Indexing and joining: taking parts of tensors, and putting parts together.

The two are each other's derivatives.  The gradient of a part (``x[1:3]``,
``gather``) is written back into zeros where the part was read; the gradient
of a join (``concat``, ``stack``) is cut back into the parts.

>>> import minitape as tf
>>> tf.constant([[1.0, 2.0], [3.0, 4.0]])[:, 1].numpy()
array([2., 4.], dtype=float32)
"""
from __future__ import annotations

import builtins
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from minitape.core import arrays, backends, dtypes
from minitape.core.errors import InvalidArgumentError
from minitape.core.messages import with_hint
from minitape.core.primitive import ForEachInput, Op, apply
from minitape.core.tensor import Tensor, constant
from minitape.ops.arguments import (
    GATHER_INDICES, ONE_HOT_INDICES, as_axis, as_int, as_operand, check_indices, like, operands, plain, tensor_list,
)
from minitape.ops.elementwise import cast, where
from minitape.ops.shapes import reshape, transpose


# --------------------------------------------------------------------------- joining

def _concat_vjp(k, g, ans, *values, axis):
    start = builtins.sum(v.shape[axis] for v in values[:k])
    return _slice_along(g, axis, start, start + values[k].shape[axis])


_CONCAT = Op("concat", lambda xp, *values, axis: xp.concat(values, axis=axis), ForEachInput(_concat_vjp))


def concat(values: Sequence[Any], axis: int, name: str | None = None) -> Tensor:
    """Join tensors along an existing axis.

    >>> tf.concat([[1.0], [2.0, 3.0]], axis=0).numpy()
    array([1., 2., 3.], dtype=float32)
    """
    if not isinstance(values, list | tuple):
        values = [values]           # one tensor alone is the list of itself, as in TF (not of its rows)
    tensors = operands("concat", *values)
    axis = as_axis(axis, tensors[0].ndim, "concat")
    first = tensors[0].shape
    for k, t in enumerate(tensors):
        if len(t.shape) != len(first) or any(n != m for a, (n, m) in enumerate(zip(t.shape, first)) if a != axis):
            raise InvalidArgumentError(f"concat: input {k} has shape {tuple(t.shape)} but input 0 has shape "
                                       f"{tuple(first)}; all must have the same rank, and the same sizes except "
                                       f"along axis {axis}.")
    return apply(_CONCAT, tensors, {"axis": axis})


_STACK = Op("stack", lambda xp, *values, axis: xp.stack(values, axis=axis),
            ForEachInput(lambda k, g, ans, *values, axis: getitem(g, (slice(None),) * axis + (k,))))


def stack(values: Sequence[Any], axis: int = 0, name: str | None = None) -> Tensor:
    """Join same-shaped tensors along a new axis.

    >>> tf.stack([[1.0, 2.0], [3.0, 4.0]], axis=1).numpy()
    array([[1., 3.],
           [2., 4.]], dtype=float32)
    """
    values = tensor_list(values, "stack")
    if not values and axis == 0:
        return constant([])         # TF stacks an empty list to an empty float32 vector
    tensors = operands("stack", *values)
    shapes = {tuple(t.shape) for t in tensors}
    if len(shapes) > 1:
        raise InvalidArgumentError(f"stack: all values must have the same shape, got {sorted(shapes)}.")
    axis = as_axis(axis, tensors[0].ndim + 1, "stack", out_of_range=ValueError)     # TF checks it in Python
    return apply(_STACK, tensors, {"axis": axis})


# --------------------------------------------------------------------------- parts

def _gather_forward(xp, x, indices, axis):
    # The standard's take wants 1-d indices: take them flat, then give them their shape back.
    taken = xp.take(x, arrays.asarray_beside(x, indices.reshape(-1)), axis=axis)
    return xp.reshape(taken, x.shape[:axis] + indices.shape + x.shape[axis + 1:])


def _scatter_forward(xp, g, indices, shape, axis):
    """Zeros of ``shape`` plus the slices of ``g`` at ``indices`` along ``axis``; repeated indices add up."""
    flat = indices.reshape(-1)
    slices = xp.reshape(g, (math.prod(shape[:axis]), flat.size, math.prod(shape[axis + 1:])))
    return xp.reshape(arrays.add_at(slices, flat, shape[axis]), shape)


_GATHER = Op("gather", _gather_forward,
             (lambda g, ans, x, indices, axis: _apply_scatter(g, indices, x.shape, axis),))
_SCATTER = Op("scatter_add", _scatter_forward,
              (lambda g, ans, u, indices, shape, axis: apply(_GATHER, (g,), {"indices": indices, "axis": axis}),))


def _apply_scatter(g: Tensor, indices: Any, shape: tuple, axis: int) -> Tensor:
    return apply(_SCATTER, (g,), {"indices": indices, "shape": tuple(shape), "axis": axis})


def gather(params: Any, indices: Any, validate_indices: Any = None, axis: Any = None, batch_dims: int = 0,
           name: str | None = None) -> Tensor:
    """The slices of ``params`` at ``indices`` along ``axis``; repeated indices sum their gradients.

    ``axis`` defaults to ``batch_dims``.  With ``batch_dims=b`` the first ``b`` axes of ``params``
    and ``indices`` are a batch: each batch entry gathers from its own slice of ``params``.
    ``validate_indices`` is not used, as in TensorFlow (indices are always checked).

    >>> tf.gather([10.0, 20.0, 30.0], [2, 0]).numpy()
    array([30., 10.], dtype=float32)
    >>> tf.gather([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[2, 0], [1, 1]], batch_dims=1).numpy()
    array([[3., 1.],
           [5., 5.]], dtype=float32)
    """
    x = as_operand(params, "gather")
    # A copy of the caller's indices (integers() makes one), kept on the host and checked there: the
    # gradient reads them later, and the caller may reuse its array meanwhile.  TF's kernel refuses floats.
    check_indices(GATHER_INDICES, "gather", indices)
    index_array = arrays.integers(plain(indices), "gather: indices", InvalidArgumentError)
    batch_dims = _batch_dims(as_int(batch_dims, "gather", "batch_dims"), index_array.ndim)
    axis = as_axis(batch_dims if axis is None else axis, x.ndim, "gather", InvalidArgumentError)
    if index_array.size and (index_array.min() < 0 or index_array.max() >= x.shape[axis]):
        raise InvalidArgumentError(f"gather: indices {index_array.tolist()} out of range [0, {x.shape[axis]}) "
                                   f"for axis {axis} of shape {tuple(x.shape)}.")
    if batch_dims:
        return _batch_gather(x, index_array, axis, batch_dims)
    return apply(_GATHER, (x,), {"indices": index_array, "axis": axis})


def _batch_dims(batch_dims: int, rank: int) -> int:
    if not -rank <= batch_dims <= rank:
        raise InvalidArgumentError(f"gather: Expected batch_dims in the range [{-rank}, {rank}], but got "
                                   f"{batch_dims}; indices has rank {rank}.")
    return batch_dims % rank if batch_dims < 0 else batch_dims


def _batch_gather(x: Tensor, indices: np.ndarray, axis: int, b: int) -> Tensor:
    """``gather`` with ``b`` batch axes, as one plain gather: the batch and the gathered axis are made one.

    Batch entry ``k`` reads rows ``k * n`` to ``k * n + n - 1`` of that joined axis (``n`` rows along
    ``axis``), so its indices are offset by ``k * n``; transposes and reshapes carry the gradient back.
    """
    if axis < b:
        raise InvalidArgumentError(f"gather: batch_dims ({b}) must be less than or equal to axis ({axis}).")
    for k in range(b):
        if x.shape[k] != indices.shape[k]:
            raise InvalidArgumentError(f"gather: params.shape[{k}]: {x.shape[k]} should be equal to "
                                       f"indices.shape[{k}]: {indices.shape[k]}; batch_dims={b} axes are shared.")
    batch, n, between = x.shape[:b], x.shape[axis], list(range(b, axis))
    moved = transpose(x, list(range(b)) + [axis] + between + list(range(axis + 1, x.ndim)))
    joined = reshape(moved, (math.prod(batch) * n,) + tuple(moved.shape[b + 1:]))
    offsets = (np.arange(math.prod(batch)) * n).reshape(batch + (1,) * (indices.ndim - b))
    taken = apply(_GATHER, (joined,), {"indices": indices + offsets, "axis": 0})
    # taken's axes: the batch, the indices' own, the ones between batch and axis, the rest; put "between" second.
    own, rest = list(range(b, indices.ndim)), list(range(indices.ndim + len(between), taken.ndim))
    return transpose(taken, list(range(b)) + list(range(indices.ndim, indices.ndim + len(between))) + own + rest)


def boolean_mask(tensor: Any, mask: Any, axis: Any = None, name: str = "boolean_mask") -> Tensor:
    """The entries of ``tensor`` where ``mask`` is True, flattened along the axes the mask covers.

    ``mask`` covers the axes of ``tensor`` from ``axis`` (default 0) on.  It is a ``gather`` of the
    True positions, so the gradient goes back to them and the rest get 0.

    >>> tf.boolean_mask([[1.0, 2.0], [3.0, 4.0]], [False, True]).numpy()
    array([[3., 4.]], dtype=float32)
    >>> tf.boolean_mask([[1.0, 2.0], [3.0, 4.0]], [[True, False], [False, True]]).numpy()
    array([1., 4.], dtype=float32)
    """
    x, m = as_operand(tensor, "boolean_mask"), as_operand(mask, "boolean_mask")
    if m.ndim == 0:
        raise with_hint(ValueError("mask cannot be scalar."), "boolean_mask: give a mask with one entry per "
                                                              "row (or per entry) of tensor, e.g. x > 0.")
    start = 0 if axis is None else as_axis(axis, x.ndim, "boolean_mask")
    covered = tuple(x.shape)[start:start + m.ndim]
    if covered != tuple(m.shape):
        raise with_hint(ValueError(f"Shapes {covered} and {tuple(m.shape)} are incompatible"),
                        f"boolean_mask: mask of shape {tuple(m.shape)} must match tensor's shape "
                        f"{tuple(x.shape)} from axis {start} on.")
    hits = np.flatnonzero(arrays.to_numpy(m._value)).astype(np.int64)       # on the host, as gather's indices
    rows = x.shape[:start] + (math.prod(covered),) + x.shape[start + m.ndim:]
    return apply(_GATHER, (reshape(x, rows),), {"indices": hits, "axis": start})


def _ungetitem_forward(xp, g, key, shape):
    """Zeros of ``shape`` with ``g`` written where ``x[key]`` read (a basic key reads each place once)."""
    out = arrays.full_beside(g, shape, 0)
    place = tuple(k for k in key if k is not None)      # None adds an axis to g that out does not have
    out[place] = xp.reshape(g, out[place].shape)
    return out


_GETITEM = Op("getitem", lambda xp, x, key: x[key],
              (lambda g, ans, x, key: apply(_UNGETITEM, (g,), {"key": key, "shape": tuple(x.shape)}),))
_UNGETITEM = Op("ungetitem", _ungetitem_forward, (lambda g, ans, u, key, shape: getitem(g, key),))


def getitem(tensor: Any, key: Any) -> Tensor:
    """``tensor[key]`` with ints, slices, ``...`` and ``None``; the gradient flows back into the slice.

    >>> tf.constant([[1.0, 2.0], [3.0, 4.0]])[:, 1].numpy()
    array([2., 4.], dtype=float32)
    >>> tf.constant([1.0, 2.0])[[0, 1]]
    Traceback (most recent call last):
    ...
    TypeError: Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar tf.int32/tf.int64 tensors are valid indices, got [0, 1]; use tf.gather to pick by a list of indices.
    """
    x = as_operand(tensor)
    parts = index_key(key)
    try:
        x._value[parts]
    except (IndexError, TypeError, ValueError) as error:
        raise InvalidArgumentError(f"Index {key!r} is not valid for a tensor of shape {tuple(x.shape)}: {error}") from None
    return apply(_GETITEM, (x,), {"key": parts})


def index_key(key: Any) -> tuple:
    """``key`` as ``getitem`` reads with it: a tuple of plain ints, slices, ``...`` and ``None``, with a ``...``.

    >>> from minitape.ops.indexing import index_key
    >>> index_key(tf.constant(1)), index_key((0, slice(None, 2)))
    ((1, Ellipsis), (0, slice(None, 2, None), Ellipsis))
    """
    parts = tuple(_index(k) for k in (key if isinstance(key, tuple) else (key,)))
    if not builtins.any(k is Ellipsis for k in parts):
        parts += (Ellipsis,)        # the standard does not fill in the trailing axes by itself
    return parts


def _index(k: Any) -> Any:
    """One part of a key, as plain Python: TF's basic indices only (no lists, no masks)."""
    if k is None or k is Ellipsis or type(k) is int:     # plain already (a fast path: plain() costs ~5 µs)
        return k
    if isinstance(k, slice):
        if (k.start is None or type(k.start) is int) and (k.stop is None or type(k.stop) is int) and k.step is None:
            return k                                         # plain already, as above
        return slice(*(None if v is None else _index(v) for v in (k.start, k.stop, k.step)))
    k = plain(k)
    if isinstance(k, bool | np.bool_) or not (isinstance(k, int | np.integer) or
                                                (isinstance(k, np.ndarray) and k.ndim == 0 and k.dtype.kind in "iu")):
        raise TypeError(f"Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
                        f"tf.int32/tf.int64 tensors are valid indices, got {k!r}; use tf.gather to pick by a "
                        f"list of indices.")
    return int(k)


def _slice_along(x: Tensor, axis: int, start: int, stop: int) -> Tensor:
    return getitem(x, (slice(None),) * axis + (slice(start, stop),))


def hot(xp, indices, depth):
    """True where a position of the new last axis equals the index: a boolean one-hot."""
    classes = xp.arange(depth, dtype=indices.dtype, device=backends.device_of(indices))
    return indices[..., None] == classes


def _one_hot_forward(xp, indices, depth, dtype):
    return xp.astype(hot(xp, indices, depth), getattr(xp, dtype.name))


_ONE_HOT = Op("one_hot", _one_hot_forward)


def one_hot(indices: Any, depth: int, on_value: Any = None, off_value: Any = None, axis: int | None = None,
            dtype: Any = None, name: str | None = None) -> Tensor:
    """Each index as a row of ``depth`` values: ``on_value`` (1) at the index, ``off_value`` (0) elsewhere.

    Indices outside ``[0, depth)`` give a row of ``off_value``, as TensorFlow's.

    >>> tf.one_hot([2, 0, 5], 3).numpy()
    array([[0., 0., 1.],
           [1., 0., 0.],
           [0., 0., 0.]], dtype=float32)
    """
    indices = as_operand(indices, "one_hot")
    if not indices.dtype.is_integer:
        raise InvalidArgumentError(f"one_hot: indices must be integers, got {indices.dtype.name}.")
    check_indices(ONE_HOT_INDICES, "one_hot", indices)
    given = next((v for v in (on_value, off_value) if v is not None), None)
    target = dtypes.as_dtype(dtype or (constant(given).dtype if given is not None else dtypes.float32))
    depth = as_int(depth, "one_hot", "depth", least=0)
    hot = apply(_ONE_HOT, (indices,), {"depth": depth, "dtype": target})
    if given is not None:
        on, off = (like(v if v is not None else default, hot) for v, default in ((on_value, 1), (off_value, 0)))
        hot = where(cast(hot, dtypes.bool_), on, off)
    if axis is not None and axis not in (-1, hot.ndim - 1):
        position = as_axis(axis, hot.ndim, "one_hot")
        hot = transpose(hot, tuple(builtins.range(position)) + (hot.ndim - 1,) + tuple(builtins.range(position, hot.ndim - 1)))
    return hot
