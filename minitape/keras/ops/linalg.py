"""``keras.ops.linalg``: norms, inverses, determinants and solves.

>>> from minitape.keras import ops
>>> ops.linalg.norm([3.0, 4.0]).numpy()
np.float32(5.0)
"""
from __future__ import annotations

from typing import Any

from minitape import ops as tape_ops
from minitape.core.tensor import Tensor
from minitape.keras.ops.promotion import as_tensor, floating


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A002
    """The vector (or matrix) norm: Euclidean (Frobenius for a matrix) unless ``ord`` says otherwise.

    >>> from minitape.keras import ops
    >>> ops.linalg.norm([[3, 4], [0, 0]], axis=1).numpy()
    array([5., 0.], dtype=float32)
    """
    x = as_tensor(x, floating(x))
    if ord is None or ord == "fro":
        return tape_ops.sqrt(tape_ops.reduce_sum(tape_ops.square(x), axis=axis, keepdims=keepdims))
    return tape_ops.norm(x, ord=ord, axis=axis, keepdims=keepdims)


def inv(x: Any) -> Tensor:
    """The inverse of a square matrix (batched over leading axes).

    >>> from minitape.keras import ops
    >>> ops.linalg.inv([[2.0, 0.0], [0.0, 4.0]]).numpy()
    array([[0.5 , 0.  ],
           [0.  , 0.25]], dtype=float32)
    """
    return tape_ops.inv(as_tensor(x, floating(x)))


def det(x: Any) -> Tensor:
    """The determinant of a square matrix.

    >>> from minitape.keras import ops
    >>> ops.linalg.det([[2.0, 0.0], [0.0, 4.0]]).numpy()
    np.float32(8.0)
    """
    return tape_ops.det(as_tensor(x, floating(x)))


def solve(a: Any, b: Any) -> Tensor:
    """The ``x`` with ``a @ x == b``.

    >>> from minitape.keras import ops
    >>> ops.linalg.solve([[2.0, 0.0], [0.0, 4.0]], [[2.0], [4.0]]).numpy()
    array([[1.],
           [1.]], dtype=float32)
    """
    a = as_tensor(a, floating(a))
    return tape_ops.solve(a, as_tensor(b, a.dtype.name))
