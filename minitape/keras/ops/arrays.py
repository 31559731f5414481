"""``keras.ops``' arrays: making them, reshaping and joining them, indexing, sorting and products.

Keras 3 follows NumPy where TensorFlow does not: ``split`` takes split *points*, ``take``
with no axis indexes the flattened array, ``transpose`` takes ``axes``, ``arange(5)`` is int32.

>>> from minitape.keras import ops
>>> [part.numpy().tolist() for part in ops.split(ops.arange(5), [2])]
[[0, 1], [2, 3, 4]]
>>> ops.take([[1, 2], [3, 4]], [3, 0]).numpy()
array([4, 1], dtype=int32)
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from minitape import ops as tape_ops
from minitape.core.tensor import Tensor
from minitape.keras.ops.promotion import FLOATX, as_tensor, promoted, result_type


# --------------------------------------------------------------------------- making arrays
def array(x: Any, dtype: Any = None) -> Tensor:
    """A tensor holding ``x`` (a list, a NumPy array, a number), in ``dtype`` if given.

    >>> from minitape.keras import ops
    >>> ops.array([1, 2]).dtype, ops.array([1, 2], dtype="float32").dtype
    (tf.int32, tf.float32)
    """
    return as_tensor(x, None if dtype is None else str(getattr(dtype, "name", dtype)))


def zeros(shape: Any, dtype: Any = None) -> Tensor:
    """A tensor of zeros, float32 unless ``dtype`` says otherwise.

    >>> from minitape.keras import ops
    >>> ops.zeros((2,)).numpy()
    array([0., 0.], dtype=float32)
    """
    return tape_ops.zeros(shape, dtype=dtype or FLOATX)


def ones(shape: Any, dtype: Any = None) -> Tensor:
    """A tensor of ones, float32 unless ``dtype`` says otherwise.

    >>> from minitape.keras import ops
    >>> ops.ones((1, 2), dtype="int32").numpy()
    array([[1, 1]], dtype=int32)
    """
    return tape_ops.ones(shape, dtype=dtype or FLOATX)


def full(shape: Any, fill_value: Any, dtype: Any = None) -> Tensor:
    """A tensor of ``shape`` filled with ``fill_value``, float32 unless ``dtype`` says otherwise.

    >>> from minitape.keras import ops
    >>> ops.full((2,), 7).numpy()
    array([7., 7.], dtype=float32)
    """
    return tape_ops.broadcast_to(as_tensor(fill_value, str(getattr(dtype, "name", dtype or FLOATX))), shape)


def zeros_like(x: Any, dtype: Any = None) -> Tensor:
    """Zeros of ``x``'s shape and dtype.

    >>> from minitape.keras import ops
    >>> ops.zeros_like([1, 2]).numpy()
    array([0, 0], dtype=int32)
    """
    return tape_ops.zeros_like(as_tensor(x), dtype=dtype)


def ones_like(x: Any, dtype: Any = None) -> Tensor:
    """Ones of ``x``'s shape and dtype.

    >>> from minitape.keras import ops
    >>> ops.ones_like([1.0, 2.0]).numpy()
    array([1., 1.], dtype=float32)
    """
    return tape_ops.ones_like(as_tensor(x), dtype=dtype)


def full_like(x: Any, fill_value: Any, dtype: Any = None) -> Tensor:
    """``fill_value`` in ``x``'s shape and dtype.

    >>> from minitape.keras import ops
    >>> ops.full_like([1.0, 2.0], 3).numpy()
    array([3., 3.], dtype=float32)
    """
    x = as_tensor(x)
    return tape_ops.broadcast_to(tape_ops.cast(fill_value, dtype or x.dtype), x.shape)


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = None) -> Tensor:
    """``start, start + step, ...`` below ``stop``: int32 for integers, float32 if any bound is a float.

    >>> from minitape.keras import ops
    >>> ops.arange(3).numpy(), ops.arange(0, 1, 0.5).numpy()
    (array([0, 1, 2], dtype=int32), array([0. , 0.5], dtype=float32))
    """
    kind = dtype or result_type(*[v for v in (start, stop, step) if v is not None])
    return tape_ops.range(start, stop, step, dtype=kind)


def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = None) -> Tensor:  # noqa: N803
    """An ``N`` by ``M`` matrix with ones on diagonal ``k``.

    >>> from minitape.keras import ops
    >>> ops.eye(2).numpy()
    array([[1., 0.],
           [0., 1.]], dtype=float32)
    """
    return as_tensor(np.eye(N, M, k), dtype or FLOATX)


def identity(n: int, dtype: Any = None) -> Tensor:
    """The ``n`` by ``n`` identity matrix.

    >>> from minitape.keras import ops
    >>> ops.identity(1).numpy()
    array([[1.]], dtype=float32)
    """
    return eye(n, dtype=dtype)


def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None, axis: int = 0) -> Tensor:
    """``num`` evenly spaced numbers from ``start`` to ``stop`` (``stop`` left out unless ``endpoint``).

    >>> from minitape.keras import ops
    >>> ops.linspace(0, 1, 3).numpy()
    array([0. , 0.5, 1. ], dtype=float32)
    """
    if not endpoint:
        stop = start + (stop - start) * (num - 1) / num
    result = tape_ops.linspace(float(start), float(stop), num, axis=axis)
    return tape_ops.cast(result, dtype or FLOATX)


# --------------------------------------------------------------------------- shapes
def reshape(x: Any, newshape: Any) -> Tensor:
    """``x``'s entries in ``newshape`` (one entry may be -1: whatever fits).

    >>> from minitape.keras import ops
    >>> ops.reshape(ops.arange(4), (2, -1)).shape
    TensorShape([2, 2])
    """
    return tape_ops.reshape(as_tensor(x), newshape)


def ravel(x: Any) -> Tensor:
    """``x`` flattened to one axis.

    >>> from minitape.keras import ops
    >>> ops.ravel([[1, 2], [3, 4]]).numpy()
    array([1, 2, 3, 4], dtype=int32)
    """
    return tape_ops.reshape(as_tensor(x), [-1])


def transpose(x: Any, axes: Sequence[int] | None = None) -> Tensor:
    """``x`` with its axes permuted by ``axes`` (reversed when None).

    >>> from minitape.keras import ops
    >>> ops.transpose(ops.zeros((2, 3, 4)), axes=(0, 2, 1)).shape
    TensorShape([2, 4, 3])
    """
    return tape_ops.transpose(as_tensor(x), axes)


def expand_dims(x: Any, axis: int) -> Tensor:
    """``x`` with a new axis of size 1 at ``axis``.

    >>> from minitape.keras import ops
    >>> ops.expand_dims([1, 2], axis=-1).shape
    TensorShape([2, 1])
    """
    return tape_ops.expand_dims(as_tensor(x), axis)


def squeeze(x: Any, axis: int | None = None) -> Tensor:
    """``x`` without its axes of size 1 (only ``axis``, if given).

    >>> from minitape.keras import ops
    >>> ops.squeeze(ops.zeros((1, 2, 1))).shape
    TensorShape([2])
    """
    return tape_ops.squeeze(as_tensor(x), axis)


def concatenate(xs: Sequence[Any], axis: int = 0) -> Tensor:
    """The tensors of ``xs`` joined along ``axis``, promoted to one dtype.

    >>> from minitape.keras import ops
    >>> ops.concatenate([[1, 2], [3.5]]).numpy()
    array([1. , 2. , 3.5], dtype=float32)
    """
    return tape_ops.concat(promoted(*xs), axis=axis)


def stack(x: Sequence[Any], axis: int = 0) -> Tensor:
    """The tensors of ``x`` stacked along a new axis ``axis``.

    >>> from minitape.keras import ops
    >>> ops.stack([[1, 2], [3, 4]], axis=1).numpy()
    array([[1, 3],
           [2, 4]], dtype=int32)
    """
    return tape_ops.stack(promoted(*x), axis=axis)


def split(x: Any, indices_or_sections: int | Sequence[int], axis: int = 0) -> list[Tensor]:
    """``x`` cut along ``axis``: into that many equal parts, or at the split points listed, as NumPy's.

    >>> from minitape.keras import ops
    >>> [p.shape[0] for p in ops.split(ops.zeros(6), 3)], [p.shape[0] for p in ops.split(ops.zeros(6), [1, 4])]
    ([2, 2, 2], [1, 3, 2])
    """
    x = as_tensor(x)
    if isinstance(indices_or_sections, int):
        return tape_ops.split(x, indices_or_sections, axis=axis)
    edges = [0, *indices_or_sections, x.shape[axis]]
    return tape_ops.split(x, [b - a for a, b in zip(edges, edges[1:])], axis=axis)


def tile(x: Any, repeats: int | Sequence[int]) -> Tensor:
    """``x`` repeated ``repeats`` times along each axis (leading axes added as NumPy does).

    >>> from minitape.keras import ops
    >>> ops.tile([1, 2], 2).numpy()
    array([1, 2, 1, 2], dtype=int32)
    """
    x = as_tensor(x)
    repeats = [repeats] if isinstance(repeats, int) else list(repeats)
    rank = max(len(x.shape), len(repeats))
    x = tape_ops.reshape(x, [1] * (rank - len(x.shape)) + list(x.shape))
    return tape_ops.tile(x, [1] * (rank - len(repeats)) + repeats)


def repeat(x: Any, repeats: Any, axis: int | None = None) -> Tensor:
    """Each entry of ``x`` repeated ``repeats`` times along ``axis`` (flattened when None).

    >>> from minitape.keras import ops
    >>> ops.repeat([1, 2], 2).numpy()
    array([1, 1, 2, 2], dtype=int32)
    """
    return tape_ops.repeat(as_tensor(x), repeats, axis=axis)


def flip(x: Any, axis: int | Sequence[int] | None = None) -> Tensor:
    """``x`` reversed along ``axis`` (all axes when None).

    >>> from minitape.keras import ops
    >>> ops.flip([1, 2, 3]).numpy()
    array([3, 2, 1], dtype=int32)
    """
    x = as_tensor(x)
    axes = range(len(x.shape)) if axis is None else [axis] if isinstance(axis, int) else axis
    return tape_ops.reverse(x, list(axes))


def broadcast_to(x: Any, shape: Any) -> Tensor:
    """``x`` broadcast to ``shape``.

    >>> from minitape.keras import ops
    >>> ops.broadcast_to([1, 2], (2, 2)).numpy()
    array([[1, 2],
           [1, 2]], dtype=int32)
    """
    return tape_ops.broadcast_to(as_tensor(x), shape)


def pad(x: Any, pad_width: Any, mode: str = "constant", constant_values: Any = None) -> Tensor:
    """``x`` padded by ``pad_width`` (``(before, after)`` per axis), with ``constant_values`` or by reflection.

    >>> from minitape.keras import ops
    >>> ops.pad([1, 2], [(1, 0)]).numpy()
    array([0, 1, 2], dtype=int32)
    """
    x = as_tensor(x)
    widths = np.broadcast_to(np.asarray(pad_width), (len(x.shape), 2)).tolist()
    return tape_ops.pad(x, widths, mode=mode.upper(), constant_values=constant_values or 0)
