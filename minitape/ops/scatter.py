"""Reading and writing entries by index vectors: ``gather_nd``, ``scatter_nd``, ``tensor_scatter_nd_*``.

An index vector ``[i, j]`` names the slice ``x[i, j]``.  Both ops work out, on the host,
one row number per index vector (the slice's place in ``x`` seen as a matrix of slices) and
then move whole rows: ``gather_nd`` takes rows, ``scatter_nd`` adds rows into zeros.  Each is
the other's derivative, so second derivatives come for free.  ``tensor_scatter_nd_update``
writes rows over a tensor: the tensor's gradient is zero where it was overwritten, the
updates' gradient is gathered from there.

>>> import minitape as tf
>>> tf.gather_nd([[1.0, 2.0], [3.0, 4.0]], [[1, 0], [0, 1]]).numpy()
array([3., 2.], dtype=float32)
>>> tf.scatter_nd([[1], [3]], [5.0, 6.0], [4]).numpy()
array([0., 5., 0., 6.], dtype=float32)
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from minitape.core import arrays, backends, dtypes
from minitape.core.errors import InvalidArgumentError, NotFoundError
from minitape.core.messages import kernel_text, with_hint
from minitape.core.primitive import Op, apply
from minitape.core.tensor import Tensor
from minitape.ops.arguments import GATHER_INDICES, LABELS, as_operand, as_shape, check_indices, like, plain
from minitape.ops.creation import zeros_like


def _refusal(kernel: str, text: str, hint: str, name: str | None = None) -> InvalidArgumentError:
    full = kernel_text(kernel, text, name or "", backends.current().device_name)
    return with_hint(InvalidArgumentError(full if name is not None else full.removesuffix(" name: ")), hint)


def _listed(shape: Any) -> str:
    return f"[{','.join(map(str, shape))}]"


# --------------------------------------------------------------------------- the two primitives
# ``rows`` (host ints, one per index vector) number the slices of a tensor seen as ``count`` rows.

def _width(shape: tuple[int, ...], rows: np.ndarray) -> int:
    """How many values one slice holds: the axes of ``shape`` after those ``rows`` stands for."""
    return math.prod(shape[rows.ndim:])


def _take_rows(xp, x, rows, count, shape):
    matrix = xp.reshape(x, (count, _width(shape, rows)))
    return xp.reshape(xp.take(matrix, arrays.asarray_beside(x, rows.reshape(-1)), axis=0), shape)


def _add_rows(xp, updates, rows, count, shape):
    """Zeros of ``shape`` (``count`` rows) with the rows of ``updates`` added at ``rows``; repeated rows add up."""
    source = xp.reshape(updates, (1, rows.size, _width(tuple(updates.shape), rows)))
    return xp.reshape(arrays.add_at(source, rows.reshape(-1), count), shape)


_GATHER_ND = Op("gather_nd", _take_rows, (lambda g, ans, x, rows, count, shape: scattered(g, rows, count, x.shape),))
_SCATTER_ND = Op("scatter_nd", _add_rows, (lambda g, ans, u, rows, count, shape: gathered(g, rows, count, u.shape),))


def gathered(x: Tensor, rows: np.ndarray, count: int, shape: Any) -> Tensor:
    """The gather_nd primitive: the rows numbered ``rows`` of ``x`` (seen as ``count`` rows), in ``shape``."""
    return apply(_GATHER_ND, (x,), {"rows": rows, "count": count, "shape": tuple(shape)})


def scattered(updates: Tensor, rows: np.ndarray, count: int, shape: Any) -> Tensor:
    """The scatter_nd primitive: zeros of ``shape`` (``count`` rows) with the rows of ``updates`` added at ``rows``."""
    return apply(_SCATTER_ND, (updates,), {"rows": rows, "count": count, "shape": tuple(shape)})


def _row_numbers(index: np.ndarray, shape: tuple[int, ...], batch_dims: int = 0) -> tuple[np.ndarray, Any]:
    """Each index vector's row number in a tensor of ``shape``, or the position of the first that is outside it.

    With ``batch_dims``, the vectors of batch ``b`` index batch ``b`` of the tensor.
    """
    k = index.shape[-1]
    lead = index.shape[:-1]
    batch = np.indices(lead[:batch_dims]).reshape(batch_dims, -1).T if batch_dims else np.zeros((1, 0), np.int64)
    vectors = np.concatenate([np.repeat(batch, math.prod(lead[batch_dims:]), axis=0),
                              index.reshape(math.prod(lead), k)], axis=1)
    places = shape[:batch_dims + k]
    outside = np.flatnonzero(((vectors < 0) | (vectors >= np.array(places, np.int64))).any(axis=1))
    if outside.size:
        return None, (int(outside[0]), vectors[outside[0]])
    numbers = np.ravel_multi_index(tuple(vectors.T), places) if vectors.size else np.zeros(len(vectors), np.int64)
    return numbers.reshape(lead), None


def _indices(indices: Any, name: str, accepts: Any = GATHER_INDICES) -> np.ndarray:
    check_indices(accepts, name, indices)
    return arrays.integers(plain(indices), f"{name}: indices", InvalidArgumentError)


# --------------------------------------------------------------------------- gather_nd and scatter_nd

def gather_nd(params: Any, indices: Any, batch_dims: int = 0, name: str | None = None) -> Tensor:
    """The slices of ``params`` named by the index vectors along the last axis of ``indices``.

    With ``batch_dims``, the first axes of both are a batch: batch ``b`` of ``indices`` reads batch ``b``.

    >>> tf.gather_nd([[1.0, 2.0], [3.0, 4.0]], [[1]]).numpy()
    array([[3., 4.]], dtype=float32)
    >>> tf.gather_nd([[1.0, 2.0], [3.0, 4.0]], [[1], [0]], batch_dims=1).numpy()
    array([2., 3.], dtype=float32)
    """
    x = as_operand(params, "gather_nd")
    index = _indices(indices, "gather_nd")
    if batch_dims < 0:
        raise ValueError("tf.gather_nd does not allow negative batch_dims.")
    if batch_dims and batch_dims >= index.ndim:
        raise ValueError(f"Argument `batch_dims` = {batch_dims} must be less than rank(`indices`) = {index.ndim}")
    hint = f"gather_nd: each index vector must name a slice of params, of shape {tuple(x.shape)}."
    if index.ndim == 0:
        raise _refusal("GatherNd", "indices must be at least a vector", hint, name="")
    if index.shape[-1] > x.ndim - batch_dims:
        raise _refusal("GatherNd", f"index innermost dimension length must be <= params rank; saw: "
                                   f"{index.shape[-1]} vs. {x.ndim - batch_dims}", hint)
    if index.shape[:batch_dims] != x.shape[:batch_dims]:
        raise _refusal("GatherNd", f"gather_nd: the batch dimensions of params {tuple(x.shape)} and indices "
                                   f"{index.shape} differ", hint, name="")
    rows, outside = _row_numbers(index, tuple(x.shape), batch_dims)
    if outside is not None:
        place = ",".join(map(str, np.unravel_index(outside[0], index.shape[:-1]))) if index.ndim > 1 else "0"
        raise _refusal("GatherNd", f"indices[{place}] = [{', '.join(map(str, outside[1]))}] does not index into "
                                   f"param shape {_listed(x.shape)}, node name: GatherNd", hint,
                       name="" if batch_dims else None)
    indexed = batch_dims + index.shape[-1]
    return gathered(x, rows, math.prod(x.shape[:indexed]), index.shape[:-1] + tuple(x.shape)[indexed:])


def _checked_rows(kernel: str, index: np.ndarray, updates: Tensor, shape: tuple[int, ...]) -> np.ndarray:
    """The row number of each index vector, after TF's ScatterNd checks of the three shapes."""
    outer, k, u = index.ndim - 1, index.shape[-1] if index.ndim else 1, tuple(updates.shape)
    hint = f"{kernel}: updates must have shape indices.shape[:-1] + shape[k:], here {index.shape[:-1] + shape[k:]}."
    if len(shape) < k + (len(u) - outer) or len(u) != outer + len(shape) - k or u[outer:] != shape[k:]:
        raise _refusal(kernel, f"Dimensions [{k},{len(shape)}) of input[shape={_listed(shape)}] must match "
                               f"dimensions [{outer},{len(u)}) of updates[shape={_listed(u)}]", hint)
    if u[:outer] != index.shape[:outer]:
        raise _refusal(kernel, f"Dimensions [0,{outer}) of indices[shape={_listed(index.shape)}] must match "
                               f"dimensions [0,{outer}) of updates[shape={_listed(u)}]", hint)
    return _inside(kernel, index, shape, hint)


def _inside(kernel: str, index: np.ndarray, shape: tuple[int, ...], hint: str) -> np.ndarray:
    rows, outside = _row_numbers(index, shape)
    if outside is not None:
        raise _refusal(kernel, f"indices[{outside[0]}] = [{', '.join(map(str, outside[1]))}] does not index into "
                               f"shape {_listed(shape)}", hint)
    return rows


def scatter_nd(indices: Any, updates: Any, shape: Any, name: str | None = None) -> Tensor:
    """Zeros of ``shape`` with ``updates[i]`` added at the slice named by index vector ``indices[i]``.

    >>> tf.scatter_nd([[0, 1], [0, 1]], [1.0, 2.0], [2, 2]).numpy()
    array([[0., 3.],
           [0., 0.]], dtype=float32)
    """
    index, u = _indices(indices, "scatter_nd"), as_operand(updates, "scatter_nd")
    if np.ndim(plain(shape)) != 1:
        raise _refusal("ScatterNd", "Shape must be a vector", "scatter_nd: give the shape as a list, e.g. [4].")
    negative = [n for n in plain(shape) if int(n) < 0] if np.ndim(plain(shape)) else []
    if negative:
        raise _refusal("ScatterNd", f"Dimension {negative[0]} must be >= 0", "scatter_nd: sizes must be >= 0.")
    size = as_shape(shape, "scatter_nd", error=InvalidArgumentError)
    rows = _checked_rows("ScatterNd", index, u, size)
    return scattered(u, rows, math.prod(size[:index.shape[-1]]), size)


# --------------------------------------------------------------------------- tensor_scatter_nd_*

def _tensor_and_updates(kernel: str, tensor: Any, indices: Any, updates: Any) -> tuple[Tensor, Tensor, np.ndarray]:
    """The tensor, the updates (of its dtype) and each index vector's row number, checked as TF's TensorScatter*."""
    x = as_operand(tensor, kernel)
    u = like(updates, x, kernel) if not isinstance(updates, Tensor) else updates
    index = _indices(indices, kernel, LABELS)
    if u.dtype is not x.dtype:
        raise InvalidArgumentError(f"{kernel}: updates are {u.dtype.name} but the tensor is {x.dtype.name}; "
                                   f"tf.cast one of them.")
    shape, us, hint = tuple(x.shape), tuple(u.shape), f"{kernel}: updates must have shape indices.shape[:-1] + " \
                                                        f"tensor.shape[k:]."
    if index.ndim == 0:
        raise _refusal(kernel, f"Indices shape must have rank at least one. Found:{_listed(index.shape)}", hint)
    outer, k = index.ndim - 1, index.shape[-1]
    if us[:outer] != index.shape[:outer]:
        raise _refusal(kernel, f"Outer dimensions of indices and update must match. Indices shape: "
                               f"{_listed(index.shape)}, updates shape:{_listed(us)}", hint)
    if len(us) - outer != len(shape) - k:
        raise _refusal(kernel, f"Inner dimensions of output shape must match inner dimensions of updates shape. "
                               f"Output: {_listed(shape)} updates: {_listed(us)}", hint)
    if us[outer:] != shape[k:]:
        raise _refusal(kernel, f"The inner {len(shape) - k} dimensions of output.shape={_listed(shape)} must match "
                               f"the inner {len(us) - outer} dimensions of updates.shape={_listed(us)}", hint)
    return x, u, _inside(kernel, index, shape, hint)


def _update_forward(xp, x, u, rows, count, last):
    """``x`` with the rows numbered ``rows`` replaced by those of ``u``; of repeated rows, the ``last`` wins."""
    matrix = xp.reshape(x, (count, _width(tuple(u.shape), rows)))
    winners = xp.take(xp.reshape(u, (rows.size, matrix.shape[1])), arrays.asarray_beside(u, last), axis=0)
    placed = _add_rows(xp, winners, rows.reshape(-1)[last], count, matrix.shape)
    hit = np.zeros((count, 1), bool)
    hit[rows.reshape(-1)] = True
    return xp.reshape(xp.where(arrays.asarray_beside(x, hit), placed, matrix), x.shape)


def _updated(x: Tensor, u: Tensor, rows: np.ndarray) -> Tensor:
    flat = rows.reshape(-1)
    last = np.sort(flat.size - 1 - np.unique(flat[::-1], return_index=True)[1])     # each row's last writer
    count = math.prod(x.shape[:x.ndim - (u.ndim - rows.ndim)])
    return apply(_UPDATE, (x, u), {"rows": rows, "count": count, "last": last})


_UPDATE = Op("tensor_scatter_nd_update", _update_forward, (
    lambda g, ans, x, u, rows, count, last: _updated(g, zeros_like(u), rows),     # overwritten: no gradient there
    lambda g, ans, x, u, rows, count, last: gathered(g, rows, count, u.shape),
))


def tensor_scatter_nd_update(tensor: Any, indices: Any, updates: Any, name: str | None = None) -> Tensor:
    """``tensor`` with the slice at each index vector ``indices[i]`` replaced by ``updates[i]`` (the last one wins).

    >>> tf.tensor_scatter_nd_update([1.0, 2.0, 3.0], [[0], [2]], [10.0, 30.0]).numpy()
    array([10.,  2., 30.], dtype=float32)
    """
    return _updated(*_tensor_and_updates("TensorScatterUpdate", tensor, indices, updates))


def _added(kernel: str, tensor: Any, indices: Any, updates: Any, sign: int) -> Tensor:
    """``tensor`` plus (``sign`` 1) or minus (-1) the updates scattered: repeated index vectors add up."""
    x, u, rows = _tensor_and_updates(kernel, tensor, indices, updates)
    if x.dtype is dtypes.bool_:
        index_type = getattr(plain(indices), "dtype", np.dtype(np.int32)).name.upper()
        raise with_hint(NotFoundError(f"Could not find device for node: {{{{node {kernel}}}}} = {kernel}[T=DT_BOOL, "
                                      f'Tindices=DT_{index_type}, bad_indices_policy=""]'),
                        f"{kernel} adds numbers: tf.cast a bool tensor to tf.int32 first.")
    spread = scattered(u, rows, math.prod(x.shape[:x.ndim - (u.ndim - rows.ndim)]), x.shape)
    return x + spread if sign > 0 else x - spread


def tensor_scatter_nd_add(tensor: Any, indices: Any, updates: Any, name: str | None = None) -> Tensor:
    """``tensor`` with ``updates[i]`` added at each index vector ``indices[i]`` (repeated ones add up).

    >>> tf.tensor_scatter_nd_add([1.0, 2.0, 3.0], [[0], [0]], [10.0, 30.0]).numpy()
    array([41.,  2.,  3.], dtype=float32)
    """
    return _added("TensorScatterAdd", tensor, indices, updates, 1)


def tensor_scatter_nd_sub(tensor: Any, indices: Any, updates: Any, name: str | None = None) -> Tensor:
    """``tensor`` with ``updates[i]`` subtracted at each index vector ``indices[i]``.

    >>> tf.tensor_scatter_nd_sub([1.0, 2.0, 3.0], [[2]], [1.0]).numpy()
    array([1., 2., 2.], dtype=float32)
    """
    return _added("TensorScatterSub", tensor, indices, updates, -1)
