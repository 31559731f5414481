"""Undoing a matrix: ``solve``, ``inv`` and ``det``, each over the last two axes (leading axes are a batch).

Their derivatives are TensorFlow's, written with minitape's ops (matmul, solve,
inv), so a second tape can differentiate them again:

* ``C = A⁻¹``: ``dC = -C dA C``, so the VJP of ``g`` is ``-Cᵀ g Cᵀ``;
* ``X = solve(A, B)`` (``A X = B``): ``B``'s gradient is ``solve(Aᵀ, g)``, and ``A``'s is
  ``-solve(Aᵀ, g) Xᵀ``;
* ``d = det(A)``: ``∂d/∂A = d · A⁻ᵀ`` (Jacobi's formula), which needs ``A`` invertible, as in TF.

>>> import minitape as tf
>>> tf.linalg.det([[2.0, 1.0], [1.0, 3.0]]).numpy()
np.float32(5.0)
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minitape.core.errors import InvalidArgumentError
from minitape.core.primitive import ANS, Op, apply
from minitape.core.tensor import Tensor
from minitape.ops.arguments import FLOATS, as_operand, pair
from minitape.ops.linalg import product
from minitape.ops.shapes import expand_dims


def _invertible(name: str, what: str, forward: Callable) -> Callable:
    """``forward``, with the backend's "singular matrix" said as TF says it, and float16 worked in float32."""
    def run(xp, *arrays, **params):
        half = arrays[0].dtype == getattr(xp, "float16", None)      # LAPACK has no float16; TF's kernels do
        try:
            out = forward(xp, *[xp.astype(a, xp.float32) for a in arrays] if half else arrays, **params)
        except np.linalg.LinAlgError:
            raise _singular(name, what) from None
        if type(out) is not np.ndarray and not _finite(xp, out) and all(_finite(xp, a) for a in arrays):
            raise _singular(name, what)         # CuPy's solver does not raise: a singular matrix gives inf or nan
        return xp.astype(out, xp.float16) if half else out
    return run


def _finite(xp, array) -> bool:
    return bool(xp.all(xp.isfinite(array)))


def _singular(name: str, what: str) -> InvalidArgumentError:
    return InvalidArgumentError(f"{name}: {what} is not invertible (it is singular: its determinant is 0); "
                                f"check the matrix, or use a least-squares method.")


def _transposed(xp, a, adjoint):
    return xp.matrix_transpose(a) if adjoint else a


def _inv_vjp(g, ans, a, adjoint):
    # TF's MatrixInverseGrad: -C^T g C^T; for C = inv(A^T) it is -C g^T C.
    if adjoint:
        return -product(ans, product(g, ans, transpose_a=True))
    return -product(ans, product(g, ans, transpose_b=True), transpose_a=True)


_INV = Op("inv", _invertible("inv", "Input", lambda xp, a, adjoint: xp.linalg.inv(_transposed(xp, a, adjoint))),
          (_inv_vjp,), keep=(ANS,))


def _solve_vjp_matrix(g, ans, a, b, adjoint):
    grad_b = _solve(a, g, not adjoint)
    if adjoint:
        return -product(ans, grad_b, transpose_b=True)
    return -product(grad_b, ans, transpose_b=True)


_SOLVE = Op("solve", _invertible("solve", "Input matrix",
                                 lambda xp, a, b, adjoint: xp.linalg.solve(_transposed(xp, a, adjoint), b)),
            (_solve_vjp_matrix, lambda g, ans, a, b, adjoint: _solve(a, g, not adjoint)), keep=(ANS, 0))


def _det_vjp(g, ans, a):
    # Jacobi: d det(A) / dA = det(A) A^-T.  TF's gradient inverts A too, so a singular A fails as in TF.
    return expand_dims(expand_dims(g * ans, -1), -1) * inv(a, adjoint=True)


_DET = Op("det", _invertible("det", "Input", lambda xp, a: xp.linalg.det(a)), (_det_vjp,), keep=(ANS, 0))


def _solve(a: Tensor, b: Tensor, adjoint: bool) -> Tensor:
    return apply(_SOLVE, (a, b), {"adjoint": adjoint})


def _square_matrices(name: str, x: Tensor, k: int = 0) -> None:
    """Raise TF's errors unless ``x`` is a float batch of square matrices."""
    FLOATS.check(name, x)
    if x.ndim < 2:
        raise InvalidArgumentError(f"{name}: Input tensor {k} must have rank >= 2, got {x.ndim} (shape "
                                   f"{tuple(x.shape)}); use tf.reshape to make it a matrix.")
    if x.shape[-1] != x.shape[-2]:
        raise InvalidArgumentError(f"{name}: Input matrix must be square, got shape {tuple(x.shape)}.")


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name}: Expected bool for argument 'adjoint' not {value!r}.")
    return bool(value)


def inv(input: Any, adjoint: bool = False, name: str | None = None) -> Tensor:
    """The inverse of each square matrix (of its conjugate transpose, if ``adjoint``).

    >>> tf.linalg.inv([[2.0, 0.0], [0.0, 4.0]]).numpy()
    array([[0.5 , 0.  ],
           [0.  , 0.25]], dtype=float32)
    """
    x = as_operand(input, "inv")
    _square_matrices("inv", x)
    return apply(_INV, (x,), {"adjoint": _flag("inv", adjoint)})


def solve(matrix: Any, rhs: Any, adjoint: bool = False, name: str | None = None) -> Tensor:
    """``X`` with ``matrix @ X = rhs`` (``adjoint(matrix) @ X = rhs`` if ``adjoint``), for each matrix of a batch.

    ``rhs`` has the same rank and batch axes as ``matrix`` (they do not broadcast, as in TF).

    >>> tf.linalg.solve([[2.0, 1.0], [1.0, 3.0]], [[1.0], [2.0]]).numpy()
    array([[0.2],
           [0.6]], dtype=float32)
    """
    a, b = pair("solve", matrix, rhs)
    adjoint = _flag("solve", adjoint)
    _square_matrices("solve", a)
    if a.ndim != b.ndim:
        raise InvalidArgumentError(f"solve: All input tensors must have the same rank: matrix {tuple(a.shape)}, "
                                   f"rhs {tuple(b.shape)}. Give rhs a column axis, e.g. tf.expand_dims(rhs, -1).")
    if a.shape[:-2] != b.shape[:-2]:
        raise InvalidArgumentError(f"solve: All input tensors must have the same outer dimensions: matrix "
                                   f"{tuple(a.shape)}, rhs {tuple(b.shape)} (batch axes do not broadcast).")
    if a.shape[-1] != b.shape[-2]:
        raise InvalidArgumentError(f"solve: Input matrix and rhs are incompatible: matrix {tuple(a.shape)} has "
                                   f"{a.shape[-1]} rows, rhs {tuple(b.shape)} has {b.shape[-2]}.")
    return _solve(a, b, adjoint)


def det(input: Any, name: str | None = None) -> Tensor:
    """The determinant of each square matrix.

    >>> tf.linalg.det([[[2.0, 1.0], [1.0, 3.0]], [[1.0, 0.0], [0.0, 1.0]]]).numpy()
    array([5., 1.], dtype=float32)
    """
    x = as_operand(input, "det")
    _square_matrices("det", x)
    return apply(_DET, (x,))
