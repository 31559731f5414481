"""``keras.ops``' indexing, selection, sorting and products: ``take``, ``where``, ``clip``, ``top_k``, ``matmul``...

>>> from minitape.keras import ops
>>> ops.take_along_axis([[10, 30, 20]], ops.argsort([[10, 30, 20]]), axis=1).numpy()
array([[10, 20, 30]], dtype=int32)
"""
from __future__ import annotations

from typing import Any

from minitape import ops as tape_ops
from minitape.core.tensor import Tensor
from minitape.ops.sorting import TopKV2
from minitape.keras.ops.promotion import as_tensor, promoted


def _wrapped(indices: Any, size: int) -> Tensor:
    """Negative indices counted from the end, as NumPy counts them."""
    indices = as_tensor(indices)
    return tape_ops.where(indices < 0, indices + size, indices)


def take(x: Any, indices: Any, axis: int | None = None) -> Tensor:
    """The entries of ``x`` at ``indices`` along ``axis``; of the flattened ``x`` when ``axis`` is None.

    >>> from minitape.keras import ops
    >>> ops.take([[1, 2], [3, 4]], [-1], axis=0).numpy()
    array([[3, 4]], dtype=int32)
    """
    x = as_tensor(x)
    if axis is None:
        x, axis = tape_ops.reshape(x, [-1]), 0
    return tape_ops.gather(x, _wrapped(indices, x.shape[axis]), axis=axis)


def take_along_axis(x: Any, indices: Any, axis: int | None = None) -> Tensor:
    """``x[..., indices[i], ...]`` pairing each index with its own row, as NumPy's ``take_along_axis``.

    >>> from minitape.keras import ops
    >>> ops.take_along_axis([[1, 2], [3, 4]], [[1], [0]], axis=1).numpy()
    array([[2],
           [3]], dtype=int32)
    """
    x, indices = as_tensor(x), as_tensor(indices)
    if axis is None:
        x, indices, axis = tape_ops.reshape(x, [-1]), tape_ops.reshape(indices, [-1]), 0
    rank = len(x.shape)
    axis %= rank
    last = [a for a in range(rank) if a != axis] + [axis]       # the axis indexed, moved to the end
    x, indices = tape_ops.transpose(x, last), tape_ops.transpose(_wrapped(indices, x.shape[axis]), last)
    batch = [max(a, b) for a, b in zip(x.shape[:-1], indices.shape[:-1])]
    x = tape_ops.broadcast_to(x, batch + [x.shape[-1]])
    indices = tape_ops.broadcast_to(indices, batch + [indices.shape[-1]])
    taken = tape_ops.gather(x, indices, axis=rank - 1, batch_dims=rank - 1)
    back = sorted(range(rank), key=last.__getitem__)
    return tape_ops.transpose(taken, back)


def where(condition: Any, x1: Any = None, x2: Any = None) -> Tensor:
    """``x1`` where ``condition`` holds, else ``x2`` (promoted to one dtype); the true places' indices alone.

    >>> from minitape.keras import ops
    >>> ops.where([True, False], [1, 2], 0.5).numpy()
    array([1. , 0.5], dtype=float32)
    """
    condition = as_tensor(condition, "bool")
    if x1 is None and x2 is None:
        return tuple(tape_ops.unstack(tape_ops.cast(tape_ops.where(condition), "int32"), axis=1))
    return tape_ops.where(condition, *promoted(x1, x2))


def clip(x: Any, x_min: Any, x_max: Any) -> Tensor:
    """``x`` with entries below ``x_min`` raised to it and above ``x_max`` lowered to it.

    >>> from minitape.keras import ops
    >>> ops.clip([-2, 0, 5], 0, 3).numpy()
    array([0, 0, 3], dtype=int32)
    """
    x = as_tensor(x)
    if x.dtype.name == "bool":
        x = tape_ops.cast(x, "int32")
    return tape_ops.minimum(tape_ops.maximum(x, tape_ops.cast(x_min, x.dtype)), tape_ops.cast(x_max, x.dtype))


def sort(x: Any, axis: int = -1) -> Tensor:
    """``x`` sorted ascending along ``axis``.

    >>> from minitape.keras import ops
    >>> ops.sort([3, 1, 2]).numpy()
    array([1, 2, 3], dtype=int32)
    """
    return tape_ops.sort(as_tensor(x), axis=axis)


def argsort(x: Any, axis: int = -1) -> Tensor:
    """The indices that sort ``x`` along ``axis``, int32.

    >>> from minitape.keras import ops
    >>> ops.argsort([3, 1, 2]).numpy()
    array([1, 2, 0], dtype=int32)
    """
    return tape_ops.argsort(as_tensor(x), axis=axis, stable=True)


def top_k(x: Any, k: int, sorted: bool = True) -> TopKV2:  # noqa: A002
    """The ``k`` largest entries along the last axis, and their indices.

    >>> from minitape.keras import ops
    >>> values, indices = ops.top_k([1.0, 4.0, 2.0], k=2)
    >>> values.numpy(), indices.numpy()
    (array([4., 2.], dtype=float32), array([1, 2], dtype=int32))
    """
    return tape_ops.top_k(as_tensor(x), k=k, sorted=sorted)


# --------------------------------------------------------------------------- products
def matmul(x1: Any, x2: Any) -> Tensor:
    """The matrix product (batched over leading axes), promoted to one dtype.

    >>> from minitape.keras import ops
    >>> ops.matmul([[1, 2]], [[3], [4]]).numpy()
    array([[11]], dtype=int32)
    """
    x1, x2 = promoted(x1, x2)
    if len(x1.shape) == 1 or len(x2.shape) == 1:
        return tape_ops.tensordot(x1, x2, axes=[[len(x1.shape) - 1], [max(len(x2.shape) - 2, 0)]])
    return tape_ops.matmul(x1, x2)


def dot(x1: Any, x2: Any) -> Tensor:
    """NumPy's ``dot``: products of scalars, vectors' inner product, else the last axis with the second-to-last.

    >>> from minitape.keras import ops
    >>> ops.dot([1.0, 2.0], [3.0, 4.0]).numpy()
    np.float32(11.0)
    """
    x1, x2 = promoted(x1, x2)
    if not x1.shape or not x2.shape:
        return x1 * x2
    return tape_ops.tensordot(x1, x2, axes=[[len(x1.shape) - 1], [max(len(x2.shape) - 2, 0)]])


def tensordot(x1: Any, x2: Any, axes: Any = 2) -> Tensor:
    """Sums of products over ``axes`` of ``x1`` and ``x2``.

    >>> from minitape.keras import ops
    >>> ops.tensordot([[1, 2]], [[3, 4]], axes=2).numpy()
    np.int32(11)
    """
    return tape_ops.tensordot(*promoted(x1, x2), axes=axes)


def outer(x1: Any, x2: Any) -> Tensor:
    """Every product ``x1[i] * x2[j]`` of the flattened inputs.

    >>> from minitape.keras import ops
    >>> ops.outer([1, 2], [3, 4]).numpy()
    array([[3, 4],
           [6, 8]], dtype=int32)
    """
    x1, x2 = promoted(x1, x2)
    return tape_ops.reshape(x1, [-1, 1]) * tape_ops.reshape(x2, [1, -1])


def einsum(subscripts: str, *operands: Any) -> Tensor:
    """Einstein summation over ``operands`` (promoted to one dtype).

    >>> from minitape.keras import ops
    >>> ops.einsum("ij,j->i", [[1.0, 2.0]], [3.0, 4.0]).numpy()
    array([11.], dtype=float32)
    """
    return tape_ops.einsum(subscripts, *promoted(*operands))


def trace(x: Any) -> Tensor:
    """The sum of ``x``'s diagonal.

    >>> from minitape.keras import ops
    >>> ops.trace([[1, 2], [3, 4]]).numpy()
    np.int32(5)
    """
    return tape_ops.trace(as_tensor(x))


def diag(x: Any, k: int = 0) -> Tensor:
    """A matrix with ``x`` on diagonal ``k``, or a matrix's diagonal ``k``, as NumPy's ``diag``.

    >>> from minitape.keras import ops
    >>> ops.diag([1, 2]).numpy()
    array([[1, 0],
           [0, 2]], dtype=int32)
    """
    x = as_tensor(x)
    return tape_ops.diag(x, k=k) if len(x.shape) == 1 else tape_ops.diag_part(x, k=k)
