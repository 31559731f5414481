"""Sums over the last axes, or over all but the last, as a product with a vector of ones: a NumPy fast path.

Just an optimization.  NumPy sums a short axis slice by slice: summing each of the 256 rows of 32
float32 in benchmarks/sequence.py's activations takes it 5 µs, and their 32 columns 4 µs, against
1.1-1.3 µs for BLAS's product of the matrix with a vector of ones, which adds the same numbers
(each product with 1 is exact) in another order: the last bits of a float32 sum may differ from
NumPy's pairwise sum, by no more than a sum's rounding.  Layer normalization, softmax, sparse
cross-entropy and the dense layers' bias gradients sum this way about 100 times in that benchmark's
training step, which takes 0.91× the time it took with NumPy's sums (CPU-time medians of 300 steps,
6 rounds of paired fresh processes; the bias gradients' share 0.98×).  Other arrays (other backends,
integers, float16, empty ones) are summed by ``xp.sum``, and so are sums of more than ``LONGEST``
numbers: there NumPy is fast anyway, and its pairwise sum's rounding grows more slowly than BLAS's.

>>> import numpy as np
>>> from minitape.ops.blas_sums import leading_sums, trailing_means, trailing_sums
>>> x = np.arange(6.0).reshape(1, 2, 3)
>>> trailing_sums(np, x, 1).ravel(), trailing_means(np, x, 2).ravel(), leading_sums(np, x, 1)
(array([ 3., 12.]), array([2.5]), array([3., 5., 7.]))
"""
from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np


def trailing_sums(xp: Any, x: Any, count: int) -> Any:
    """``x`` summed over its last ``count`` axes, keeping them (of length 1): ``xp.sum(..., keepdims=True)``."""
    lead = x.shape[:x.ndim - count]
    n = math.prod(x.shape[x.ndim - count:])
    if not _fits(x, count, n):
        return xp.sum(x, axis=tuple(range(len(lead), x.ndim)), keepdims=True)
    return np.matmul(x.reshape(-1, n), _ones(n, x.dtype)).reshape(*lead, *(1,) * count)


def trailing_means(xp: Any, x: Any, count: int) -> Any:
    """``x``'s means over its last ``count`` axes, keeping them: ``xp.mean(..., keepdims=True)``."""
    if not _fits(x, count, math.prod(x.shape[x.ndim - count:])):
        return xp.mean(x, axis=tuple(range(x.ndim - count, x.ndim)), keepdims=True)
    return trailing_sums(xp, x, count) / math.prod(x.shape[x.ndim - count:])


def leading_sums(xp: Any, x: Any, count: int) -> Any:
    """``x`` summed over every axis but its last ``count``: ``xp.sum(x, axis=(0, ..., ndim - count - 1))``."""
    rows = math.prod(x.shape[:x.ndim - count])
    if not _fits(x, count, rows) or x.ndim == count:
        return xp.sum(x, axis=tuple(range(x.ndim - count)))
    return np.matmul(_ones(rows, x.dtype), x.reshape(rows, -1)).reshape(x.shape[x.ndim - count:])


def _fits(x: Any, count: int, summed: int) -> bool:
    """Whether ``x`` is a NumPy float32 or float64 array with at least ``count`` axes and something to sum
    over, ``summed`` numbers to a sum, no more than ``LONGEST``."""
    return (type(x) is np.ndarray and x.dtype in FLOATS and x.size > 0 and 0 < count <= x.ndim
            and summed <= LONGEST)


LONGEST = 4096
FLOATS = (np.dtype(np.float32), np.dtype(np.float64))      # what BLAS multiplies


@functools.lru_cache(maxsize=64)
def _ones(n: int, dtype: np.dtype) -> np.ndarray:
    """A read-only vector of ``n`` ones (made once per length and dtype)."""
    ones = np.ones(n, dtype)
    ones.flags.writeable = False
    return ones
