"""More of ``keras.ops``' NumPy names for arranging arrays: axes moved and swapped, stacks, triangles, diagonals,
grids, and the log-sum-exp family.

>>> from minitape.keras import ops
>>> ops.moveaxis(ops.zeros((2, 3, 4)), 0, -1).shape
TensorShape([3, 4, 2])
>>> ops.triu(ops.ones((3, 3)), k=1).numpy()
array([[0., 1., 1.],
       [0., 0., 1.],
       [0., 0., 0.]], dtype=float32)
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from minitape import ops as tape_ops
from minitape.core.tensor import Tensor
from minitape.keras.ops.promotion import as_tensor, floating, promoted


def moveaxis(x: Any, source: int | Sequence[int], destination: int | Sequence[int]) -> Tensor:
    """``x`` with axes ``source`` moved to ``destination``, the others keeping their order, as NumPy's.

    >>> from minitape.keras import ops
    >>> ops.moveaxis(ops.zeros((2, 3, 4)), [0, 1], [-1, -2]).shape
    TensorShape([4, 3, 2])
    """
    x = as_tensor(x)
    rank = len(x.shape)
    sources = [a % rank for a in np.atleast_1d(source)]
    targets = [a % rank for a in np.atleast_1d(destination)]
    order = [a for a in range(rank) if a not in sources]
    for target, moved in sorted(zip(targets, sources)):
        order.insert(target, moved)
    return tape_ops.transpose(x, order)


def swapaxes(x: Any, axis1: int, axis2: int) -> Tensor:
    """``x`` with two axes exchanged.

    >>> from minitape.keras import ops
    >>> ops.swapaxes(ops.zeros((2, 3, 4)), 0, 2).shape
    TensorShape([4, 3, 2])
    """
    x = as_tensor(x)
    order = list(range(len(x.shape)))
    order[axis1], order[axis2] = order[axis2], order[axis1]
    return tape_ops.transpose(x, order)


def vstack(xs: Sequence[Any]) -> Tensor:
    """The arrays of ``xs`` joined along their first axis.  Vectors are joined end to end, as Keras 3 does on
    TensorFlow (NumPy would make them rows).

    >>> from minitape.keras import ops
    >>> ops.vstack([[[1, 2]], [[3, 4]]]).numpy()
    array([[1, 2],
           [3, 4]], dtype=int32)
    >>> ops.vstack([[1, 2], [3]]).numpy()
    array([1, 2, 3], dtype=int32)
    """
    return tape_ops.concat(promoted(*xs), axis=0)


def hstack(xs: Sequence[Any]) -> Tensor:
    """The arrays of ``xs`` joined along their columns (along the only axis for vectors).

    >>> from minitape.keras import ops
    >>> ops.hstack([[1, 2], [3]]).numpy()
    array([1, 2, 3], dtype=int32)
    """
    xs = promoted(*xs)
    return tape_ops.concat(xs, axis=0 if len(xs[0].shape) == 1 else 1)


def append(x1: Any, x2: Any, axis: int | None = None) -> Tensor:
    """``x2`` after ``x1`` along ``axis`` (both flattened when None).

    >>> from minitape.keras import ops
    >>> ops.append([[1, 2]], [[3, 4]]).numpy()
    array([1, 2, 3, 4], dtype=int32)
    """
    x1, x2 = promoted(x1, x2)
    if axis is None:
        return tape_ops.concat([tape_ops.reshape(x1, [-1]), tape_ops.reshape(x2, [-1])], axis=0)
    return tape_ops.concat([x1, x2], axis=axis)


def copy(x: Any) -> Tensor:
    """A tensor with ``x``'s values.

    >>> from minitape.keras import ops
    >>> ops.copy([1.0]).numpy()
    array([1.], dtype=float32)
    """
    return tape_ops.identity(as_tensor(x))


def _triangle(x: Any, k: int, lower: bool) -> Tensor:
    x = as_tensor(x)
    rows, columns = x.shape[-2], x.shape[-1]
    mask = np.tri(rows, columns, k, dtype=bool) if lower else ~np.tri(rows, columns, k - 1, dtype=bool)
    return tape_ops.where(mask, x, tape_ops.zeros_like(x))


def tril(x: Any, k: int = 0) -> Tensor:
    """``x``'s entries on and below diagonal ``k``, zeros above.

    >>> from minitape.keras import ops
    >>> ops.tril(ops.ones((2, 2))).numpy()
    array([[1., 0.],
           [1., 1.]], dtype=float32)
    """
    return _triangle(x, k, lower=True)


def triu(x: Any, k: int = 0) -> Tensor:
    """``x``'s entries on and above diagonal ``k``, zeros below (see the module's example).

    >>> from minitape.keras import ops
    >>> ops.triu(ops.ones((2, 2))).numpy()
    array([[1., 1.],
           [0., 1.]], dtype=float32)
    """
    return _triangle(x, k, lower=False)


def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = None) -> Tensor:  # noqa: N803
    """Ones on and below diagonal ``k`` of an ``N`` by ``M`` matrix.

    >>> from minitape.keras import ops
    >>> ops.tri(2).numpy()
    array([[1., 0.],
           [1., 1.]], dtype=float32)
    """
    return as_tensor(np.tri(N, M, k), dtype or "float32")


def diagonal(x: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
    """The diagonal ``offset`` of the matrices on axes ``axis1`` and ``axis2``, as the last axis.

    >>> from minitape.keras import ops
    >>> ops.diagonal([[1, 2], [3, 4]]).numpy()
    array([1, 4], dtype=int32)
    """
    x = moveaxis(x, [axis1, axis2], [-2, -1])
    return tape_ops.diag_part(x, k=offset)


def meshgrid(*x: Any, indexing: str = "xy") -> list[Tensor]:
    """Coordinate grids from vectors, ``"xy"`` (Cartesian) or ``"ij"`` (matrix) indexing.

    >>> from minitape.keras import ops
    >>> [g.numpy().tolist() for g in ops.meshgrid([1, 2], [3, 4, 5])][0]
    [[1, 2], [1, 2], [1, 2]]
    """
    return tape_ops.meshgrid(*[as_tensor(v) for v in x], indexing=indexing)


def logsumexp(x: Any, axis: int | Sequence[int] | None = None, keepdims: bool = False) -> Tensor:
    """``log(sum(exp(x)))`` over ``axis``, computed without overflow.

    >>> from minitape.keras import ops
    >>> float(ops.logsumexp([1000.0, 1000.0]))
    1000.6931762695312
    """
    x = as_tensor(x, floating(x))
    top = tape_ops.stop_gradient(tape_ops.reduce_max(x, axis=axis, keepdims=True))
    total = tape_ops.reduce_sum(tape_ops.exp(x - top), axis=axis, keepdims=True)
    result = tape_ops.log(total) + top
    return result if keepdims else tape_ops.squeeze(result, axis)


def logaddexp(x1: Any, x2: Any) -> Tensor:
    """``log(exp(x1) + exp(x2))``, elementwise and without overflow.

    >>> from minitape.keras import ops
    >>> ops.logaddexp([0.0], [0.0]).numpy()
    array([0.6931472], dtype=float32)
    """
    x1, x2 = promoted(x1, x2)
    x1, x2 = as_tensor(x1, floating(x1)), as_tensor(x2, floating(x2))
    top = tape_ops.maximum(x1, x2)
    return top + tape_ops.log1p(tape_ops.exp(-tape_ops.abs(x1 - x2)))


def log2(x: Any) -> Tensor:
    """Elementwise base-2 logarithm.

    >>> from minitape.keras import ops
    >>> ops.log2([8]).numpy()
    array([3.], dtype=float32)
    """
    return tape_ops.log(as_tensor(x, floating(x))) / np.log(2.0)


def log10(x: Any) -> Tensor:
    """Elementwise base-10 logarithm.

    >>> from minitape.keras import ops
    >>> ops.log10([100.0]).numpy()
    array([2.], dtype=float32)
    """
    return tape_ops.log(as_tensor(x, floating(x))) / np.log(10.0)


def expm1(x: Any) -> Tensor:
    """Elementwise ``exp(x) - 1``.

    >>> from minitape.keras import ops
    >>> ops.expm1([0.0]).numpy()
    array([0.], dtype=float32)
    """
    return tape_ops.exp(as_tensor(x, floating(x))) - 1.0


def reciprocal(x: Any) -> Tensor:
    """Elementwise ``1 / x``.

    >>> from minitape.keras import ops
    >>> ops.reciprocal([4.0]).numpy()
    array([0.25], dtype=float32)
    """
    x = as_tensor(x, floating(x))
    return tape_ops.ones_like(x) / x


def average(x: Any, axis: int | None = None, weights: Any = None) -> Tensor:
    """The mean over ``axis``, weighted by ``weights`` if given.

    >>> from minitape.keras import ops
    >>> ops.average([1.0, 3.0], weights=[3.0, 1.0]).numpy()
    np.float32(1.5)
    """
    x = as_tensor(x, floating(x))
    if weights is None:
        return tape_ops.reduce_mean(x, axis=axis)
    weights = as_tensor(weights, x.dtype.name)
    if axis is not None and len(weights.shape) == 1 and len(x.shape) > 1:
        weights = tape_ops.reshape(weights, [-1 if a == axis % len(x.shape) else 1 for a in range(len(x.shape))])
    return tape_ops.reduce_sum(x * weights, axis=axis) / tape_ops.reduce_sum(weights * tape_ops.ones_like(x),
                                                                              axis=axis)
