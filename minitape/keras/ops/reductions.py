"""``keras.ops``' reductions: ``sum``, ``mean``, ``max``..., ``argmax``, ``cumsum``, ``std``, in Keras 3's dtypes.

``mean``, ``std`` and ``var`` of integers are float32; ``sum`` of booleans is int32; ``argmax``
and ``argmin`` answer int32 and, with no axis, look at the flattened array, as ``cumsum`` does.

>>> from minitape.keras import ops
>>> ops.sum([[1, 2], [3, 4]], axis=0).numpy(), ops.std([1.0, 3.0]).numpy()
(array([4, 6], dtype=int32), np.float32(1.0))
"""
from __future__ import annotations

from typing import Any

from minitape import ops as tape_ops
from minitape.core.tensor import Tensor
from minitape.keras.ops.promotion import as_tensor, floating

Axis = int | tuple[int, ...] | list[int] | None


def _counted(x: Any) -> Tensor:
    """``x`` as a tensor; booleans as int32, since Keras sums and multiplies them as counts."""
    x = as_tensor(x)
    return tape_ops.cast(x, "int32") if x.dtype.name == "bool" else x


def sum(x: Any, axis: Axis = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """The sum over ``axis`` (all axes when None).

    >>> from minitape.keras import ops
    >>> ops.sum([True, True, False]).numpy()
    np.int32(2)
    """
    return tape_ops.reduce_sum(_counted(x), axis=axis, keepdims=keepdims)


def mean(x: Any, axis: Axis = None, keepdims: bool = False) -> Tensor:
    """The mean over ``axis``; integers average to float32.

    >>> from minitape.keras import ops
    >>> ops.mean([[1, 2], [3, 5]], axis=1, keepdims=True).numpy()
    array([[1.5],
           [4. ]], dtype=float32)
    """
    return tape_ops.reduce_mean(as_tensor(x, floating(x)), axis=axis, keepdims=keepdims)


def max(x: Any, axis: Axis = None, keepdims: bool = False, initial: Any = None) -> Tensor:  # noqa: A001
    """The largest entry over ``axis``; ``initial`` joins the comparison.

    >>> from minitape.keras import ops
    >>> ops.max([[1, 7], [3, 2]], axis=0).numpy()
    array([3, 7], dtype=int32)
    """
    result = tape_ops.reduce_max(as_tensor(x), axis=axis, keepdims=keepdims)
    return result if initial is None else tape_ops.maximum(result, tape_ops.cast(initial, result.dtype))


def min(x: Any, axis: Axis = None, keepdims: bool = False, initial: Any = None) -> Tensor:  # noqa: A001
    """The smallest entry over ``axis``; ``initial`` joins the comparison.

    >>> from minitape.keras import ops
    >>> ops.min([[1, 7], [3, 2]], axis=1).numpy()
    array([1, 2], dtype=int32)
    """
    result = tape_ops.reduce_min(as_tensor(x), axis=axis, keepdims=keepdims)
    return result if initial is None else tape_ops.minimum(result, tape_ops.cast(initial, result.dtype))


def prod(x: Any, axis: Axis = None, keepdims: bool = False, dtype: Any = None) -> Tensor:
    """The product over ``axis``.

    >>> from minitape.keras import ops
    >>> ops.prod([2.0, 3.0]).numpy()
    np.float32(6.0)
    """
    x = _counted(x)
    return tape_ops.reduce_prod(x if dtype is None else tape_ops.cast(x, dtype), axis=axis, keepdims=keepdims)


def var(x: Any, axis: Axis = None, keepdims: bool = False) -> Tensor:
    """The variance over ``axis`` (dividing by the count, as NumPy's default).

    >>> from minitape.keras import ops
    >>> ops.var([1.0, 3.0]).numpy()
    np.float32(1.0)
    """
    x = as_tensor(x, floating(x))
    centred = x - tape_ops.reduce_mean(x, axis=axis, keepdims=True)
    return tape_ops.reduce_mean(tape_ops.square(centred), axis=axis, keepdims=keepdims)


def std(x: Any, axis: Axis = None, keepdims: bool = False) -> Tensor:
    """The standard deviation over ``axis``: the square root of ``var``.

    >>> from minitape.keras import ops
    >>> ops.std([[1, 3], [2, 2]], axis=1).numpy()
    array([1., 0.], dtype=float32)
    """
    return tape_ops.sqrt(var(x, axis=axis, keepdims=keepdims))


def _arg(op: Any, x: Any, axis: int | None, keepdims: bool) -> Tensor:
    x = as_tensor(x)
    if axis is None:
        found = op(tape_ops.reshape(x, [-1]), axis=0, output_type="int32")
        return tape_ops.reshape(found, [1] * len(x.shape)) if keepdims else found
    found = op(x, axis=axis, output_type="int32")
    return tape_ops.expand_dims(found, axis) if keepdims else found


def argmax(x: Any, axis: int | None = None, keepdims: bool = False) -> Tensor:
    """Where the largest entry along ``axis`` is (the first, on ties), as int32; the flat index with no axis.

    >>> from minitape.keras import ops
    >>> ops.argmax([[1, 9], [8, 2]]).numpy(), ops.argmax([[1, 9], [8, 2]], axis=0).numpy()
    (np.int32(1), array([1, 0], dtype=int32))
    """
    return _arg(tape_ops.argmax, x, axis, keepdims)


def argmin(x: Any, axis: int | None = None, keepdims: bool = False) -> Tensor:
    """Where the smallest entry along ``axis`` is, as int32.

    >>> from minitape.keras import ops
    >>> ops.argmin([3, 1, 2]).numpy()
    np.int32(1)
    """
    return _arg(tape_ops.argmin, x, axis, keepdims)


def any(x: Any, axis: Axis = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """Whether any entry along ``axis`` is true (non-zero).

    >>> from minitape.keras import ops
    >>> ops.any([[0, 1], [0, 0]], axis=1).numpy()
    array([ True, False])
    """
    found = tape_ops.reduce_max(tape_ops.cast(as_tensor(x, "bool"), "int32"), axis=axis, keepdims=keepdims)
    return tape_ops.cast(found, "bool")


def all(x: Any, axis: Axis = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """Whether every entry along ``axis`` is true (non-zero).

    >>> from minitape.keras import ops
    >>> ops.all([[1, 1], [0, 1]], axis=1).numpy()
    array([ True, False])
    """
    found = tape_ops.reduce_min(tape_ops.cast(as_tensor(x, "bool"), "int32"), axis=axis, keepdims=keepdims)
    return tape_ops.cast(found, "bool")


def count_nonzero(x: Any, axis: Axis = None) -> Tensor:
    """How many entries along ``axis`` are not zero, as int32.

    >>> from minitape.keras import ops
    >>> ops.count_nonzero([0, 3, 0, 1]).numpy()
    np.int32(2)
    """
    return tape_ops.reduce_sum(tape_ops.cast(as_tensor(x, "bool"), "int32"), axis=axis)


def _running(op: Any, x: Any, axis: int | None, dtype: Any) -> Tensor:
    x = _counted(x)
    if dtype is not None:
        x = tape_ops.cast(x, dtype)
    return op(tape_ops.reshape(x, [-1]), axis=0) if axis is None else op(x, axis=axis)


def cumsum(x: Any, axis: int | None = None, dtype: Any = None) -> Tensor:
    """Running sums along ``axis``; over the flattened array when ``axis`` is None, as NumPy's.

    >>> from minitape.keras import ops
    >>> ops.cumsum([[1, 2], [3, 4]]).numpy(), ops.cumsum([[1, 2], [3, 4]], axis=1).numpy()
    (array([ 1,  3,  6, 10], dtype=int32), array([[1, 3],
           [3, 7]], dtype=int32))
    """
    return _running(tape_ops.cumsum, x, axis, dtype)


def cumprod(x: Any, axis: int | None = None, dtype: Any = None) -> Tensor:
    """Running products along ``axis``; over the flattened array when ``axis`` is None.

    >>> from minitape.keras import ops
    >>> ops.cumprod([1.0, 2.0, 3.0]).numpy()
    array([1., 2., 6.], dtype=float32)
    """
    return _running(tape_ops.cumprod, x, axis, dtype)
