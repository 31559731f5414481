"""Linear algebra: matrix products, and the parts of a matrix (its transpose, its diagonal).

The derivative of a product with respect to one factor is a product with the
other: ``d(A @ B)/dA`` applied to ``g`` is ``g @ Bᵀ``.  Both VJPs are matmuls, so
second derivatives come for free.  ``tensordot`` is a matmul between reshaped
and transposed tensors; a diagonal is a ``gather``, its gradient a scatter back.

>>> import minitape as tf
>>> tf.matmul([[1.0, 2.0]], [[3.0], [4.0]]).numpy()
array([[11.]], dtype=float32)
"""
from __future__ import annotations

import builtins
import math
from typing import Any

import numpy as np

from minitape.core import backends, dtypes
from minitape.core.errors import InvalidArgumentError
from minitape.core.messages import kernel_text, with_hint
from minitape.core.primitive import Op, apply
from minitape.core.tensor import Tensor
from minitape.ops.arguments import MATRIX, as_int, as_operand, like, pair, plain
from minitape.ops.broadcasting import broadcast_to, unbroadcasting
from minitape.ops.fast_path import run
from minitape.ops.indexing import concat, gather
from minitape.ops.reductions import reduce_sum
from minitape.ops.shapes import reshape, transpose


def _matmul_forward(xp, a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        a = a.mT                    # the standard's matrix transpose: a view, not a copy
    if transpose_b:
        b = b.mT
    return xp.matmul(a, b)


def _matmul_vjp_a(g, ans, a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        return product(b, g, transpose_a=transpose_b, transpose_b=True)
    return product(g, b, transpose_b=not transpose_b)


def _matmul_vjp_b(g, ans, a, b, transpose_a=False, transpose_b=False):
    if transpose_b:
        return product(g, a, transpose_a=True, transpose_b=transpose_a)
    return product(a, g, transpose_a=not transpose_a)


# Leading (batch) axes broadcast, so each VJP is summed back to its factor's shape.
_MATMUL = Op("matmul", _matmul_forward, (unbroadcasting(_matmul_vjp_a, 0), unbroadcasting(_matmul_vjp_b, 1)),
             keep=(0, 1))


def _matrix_product(transpose_a: bool, transpose_b: bool) -> Op:
    """The matmul of two matrices with its flags fixed: an op without parameters, whose VJPs need no unbroadcasting.

    Just an optimization: two matrices have no batch axes to broadcast, and an op without parameters
    runs through ``fast_path.run``.  A product of two 4 by 4 matrices, recorded, takes 2.3 µs rather
    than 3.4, and benchmarks/checkpoint.py's mode none (its 95 products of 256 by 256) 0.987× its CPU
    time (alternating in one process with products through ``apply``, medians of 60 pairs).
    """
    return Op("matmul", lambda xp, a, b: _matmul_forward(xp, a, b, transpose_a, transpose_b),
              (lambda g, ans, a, b: _matmul_vjp_a(g, ans, a, b, transpose_a, transpose_b),
               lambda g, ans, a, b: _matmul_vjp_b(g, ans, a, b, transpose_a, transpose_b)), keep=(0, 1))


_MATRIX_PRODUCTS = {(ta, tb): _matrix_product(ta, tb) for ta in (False, True) for tb in (False, True)}


def matmul(a: Any, b: Any, transpose_a: bool = False, transpose_b: bool = False, adjoint_a: bool = False,
           adjoint_b: bool = False, *, name: str | None = None) -> Tensor:
    """Matrix product of the last two axes (leading axes broadcast as batch axes).

    ``adjoint_a``/``adjoint_b`` transpose as ``transpose_a``/``transpose_b`` do (real numbers have no
    conjugate); TF's other parameters (sparsity hints, ``output_type``) are not taken.

    >>> tf.matmul([[1.0, 2.0]], [[3.0], [4.0]]).numpy()
    array([[11.]], dtype=float32)
    """
    if not transpose_a is transpose_b is adjoint_a is adjoint_b is False:     # the defaults need no checking
        transpose_a, transpose_b = _flags(transpose_a, transpose_b, adjoint_a, adjoint_b)
    a, b = pair("matmul", a, b)
    MATRIX.check("matmul", a)
    shape_a, shape_b = a._value.shape, b._value.shape
    for k, shape in enumerate((shape_a, shape_b)):
        if len(shape) < 2:
            raise InvalidArgumentError(f"matmul: input {k} must have rank >= 2, got shape {tuple(shape)}; "
                                       f"use tf.reshape or tf.expand_dims to make it a matrix.")
    inner_a = shape_a[-2] if transpose_a else shape_a[-1]
    inner_b = shape_b[-1] if transpose_b else shape_b[-2]
    if inner_a != inner_b:
        raise InvalidArgumentError(f"matmul: shapes {tuple(shape_a)} and {tuple(shape_b)} do not match "
                                   f"(inner dimensions {inner_a} vs {inner_b}).")
    try:
        return product(a, b, transpose_a, transpose_b)
    except ValueError:                      # NumPy's "could not be broadcast": the leading (batch) axes
        if shape_a[:-2] and shape_b[:-2]:
            raise InvalidArgumentError(f"matmul: the batch dimensions of shapes {tuple(shape_a)} and "
                                       f"{tuple(shape_b)} do not broadcast; all but the last two axes must be "
                                       f"equal or 1.") from None
        raise


def _flags(transpose_a: Any, transpose_b: Any, adjoint_a: Any, adjoint_b: Any) -> tuple[bool, bool]:
    """``matmul``'s four flags checked (bools, at most one per factor), as whether to transpose each factor."""
    flags = {"transpose_a": transpose_a, "transpose_b": transpose_b, "adjoint_a": adjoint_a, "adjoint_b": adjoint_b}
    for flag, value in flags.items():
        if type(value) is not bool and not isinstance(value, np.bool_):
            raise TypeError(f"matmul: expected bool for argument '{flag}', got {value!r}.")
    for transposed, adjoint, x in ((transpose_a, adjoint_a, "a"), (transpose_b, adjoint_b, "b")):
        if transposed and adjoint:
            raise ValueError(f"Only one of `transpose_{x}` and `adjoint_{x}` can be True. "
                             f"Received `transpose_{x}`={transposed}, `adjoint_{x}`={adjoint}.")
    return bool(transpose_a or adjoint_a), bool(transpose_b or adjoint_b)


def product(a: Tensor, b: Tensor, transpose_a: bool = False, transpose_b: bool = False) -> Tensor:
    """The matmul primitive on tensors known to fit: what ``matmul`` runs once it has checked, and VJPs run."""
    if a._value.ndim == 2 and b._value.ndim == 2:
        return run(_MATRIX_PRODUCTS[transpose_a, transpose_b], (a, b))
    return apply(_MATMUL, (a, b), {"transpose_a": transpose_a, "transpose_b": transpose_b})


def matvec(a: Any, b: Any, transpose_a: bool = False, adjoint_a: bool = False, a_is_sparse: bool = False,
           b_is_sparse: bool = False, name: str | None = None) -> Tensor:
    """Matrix times vector: ``a @ b`` over the last axes of ``a`` (its leading axes are a batch).

    A matmul with ``b`` as a one-column matrix; for real ``a``, ``adjoint_a`` is ``transpose_a``.

    >>> tf.linalg.matvec([[1.0, 2.0], [3.0, 4.0]], [1.0, 1.0]).numpy()
    array([3., 7.], dtype=float32)
    """
    # Each converted on its own, as TF does: a list of floats does not become ints to suit an int matrix.
    a, b = pair("matmul", as_operand(a, "matvec"), as_operand(b, "matvec"))
    if a.ndim < 2 or b.ndim < 1:
        raise InvalidArgumentError(f"matvec: a must have rank >= 2 and b rank >= 1, got shapes {tuple(a.shape)} "
                                   f"and {tuple(b.shape)}; for two vectors use tf.tensordot(a, b, 1).")
    column = reshape(b, tuple(b.shape) + (1,))
    flipped = bool(transpose_a) or bool(adjoint_a)
    if (a.shape[-2] if flipped else a.shape[-1]) != b.shape[-1]:
        raise InvalidArgumentError(f"matvec: a of shape {tuple(a.shape)}{' transposed' if flipped else ''} "
                                   f"cannot multiply b of shape {tuple(b.shape)}: the inner sizes differ.")
    product = matmul(a, column, transpose_a=flipped)
    return reshape(product, tuple(product.shape)[:-1])


# --------------------------------------------------------------------------- products of reshaped tensors

def tensordot(a: Any, b: Any, axes: Any, name: str | None = None) -> Tensor:
    """Sum the products of ``a`` and ``b`` over the axes ``axes`` names: the last ``axes`` of ``a`` with
    the first ``axes`` of ``b`` (an int), or ``a``'s axes ``axes[0]`` with ``b``'s ``axes[1]`` (a pair).

    It moves the summed axes together, reshapes both to matrices, and multiplies them.

    >>> tf.tensordot([[1.0, 2.0], [3.0, 4.0]], [10.0, 1.0], axes=1).numpy()
    array([12., 34.], dtype=float32)
    >>> tf.tensordot(tf.ones((2, 3)), tf.ones((3, 2)), axes=[[0, 1], [1, 0]]).numpy()
    np.float32(6.0)
    """
    a, b = pair("tensordot", a, b)
    MATRIX.check("tensordot", a)
    summed_a, summed_b = _contracted_axes(axes, a.ndim, b.ndim)
    for i, j in zip(summed_a, summed_b):
        if a.shape[i] != b.shape[j]:
            raise InvalidArgumentError(f"tensordot: axis {i} of a (size {a.shape[i]}) and axis {j} of b (size "
                                       f"{b.shape[j]}) are summed together, so their sizes must be equal.")
    free_a = [i for i in builtins.range(a.ndim) if i not in summed_a]
    free_b = [j for j in builtins.range(b.ndim) if j not in summed_b]
    inner = math.prod(a.shape[i] for i in summed_a)
    rows = reshape(transpose(a, free_a + summed_a), (-1, inner)) if a.ndim else reshape(a, (1, 1))
    columns = reshape(transpose(b, summed_b + free_b), (inner, -1)) if b.ndim else reshape(b, (1, 1))
    return reshape(product(rows, columns), [a.shape[i] for i in free_a] + [b.shape[j] for j in free_b])


def _contracted_axes(axes: Any, rank_a: int, rank_b: int) -> tuple[list[int], list[int]]:
    """``tensordot``'s ``axes`` as two lists of non-negative axes, one of ``a``'s and one of ``b``'s."""
    axes = plain(axes)
    if isinstance(axes, int | np.integer) and not isinstance(axes, bool):
        n = int(axes)
        if n < 0:
            raise ValueError(f"tensordot: `axes` must be at least 0. Received: {n}.")
        if n > min(rank_a, rank_b):
            raise ValueError(f"tensordot: `axes` must not be larger than the number of dimensions of either "
                             f"tensor. Received {n}, vs tensor dimensions {rank_a} and {rank_b}.")
        return list(builtins.range(rank_a - n, rank_a)), list(builtins.range(n))
    if isinstance(axes, float | np.floating | bool):
        raise TypeError(f"tensordot: `axes` must be an int or a pair of lists of ints, got {axes!r}.")
    if not isinstance(axes, list | tuple | np.ndarray) or len(axes) != 2:
        raise ValueError(f"tensordot: `axes` must be an integer or have length 2. Received {axes!r}.")
    pairs = [[v] if isinstance(v, int | np.integer) else v for v in axes]
    if isinstance(axes[0], int | np.integer) != isinstance(axes[1], int | np.integer):
        raise TypeError(f"tensordot: `axes` must be two ints or two lists of ints, got {axes!r}.")
    if len(pairs[0]) != len(pairs[1]):
        raise ValueError(f"tensordot: Different number of contraction axes `a` and `b`, {len(pairs[0])} != "
                         f"{len(pairs[1])}.")
    found = []
    for which, listed, rank in (("a", pairs[0], rank_a), ("b", pairs[1], rank_b)):
        if not all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in listed):
            raise TypeError(f"tensordot: the axes of {which} must be integers, got {listed!r}.")
        if any(not -rank <= v < rank for v in listed) or len({v % rank for v in listed}) != len(listed):
            raise ValueError(f"tensordot: axes {list(listed)} of {which} must be distinct axes of a tensor of rank "
                             f"{rank} (from {-rank} to {rank - 1}).")
        found.append([int(v) % rank for v in listed])
    return found[0], found[1]


# --------------------------------------------------------------------------- the parts of a matrix

def matrix_transpose(a: Any, name: str = "matrix_transpose", conjugate: bool = False) -> Tensor:
    """Swap the last two axes (a batch of matrices, each transposed).

    >>> tf.linalg.matrix_transpose(tf.ones((5, 2, 3))).shape.as_list()
    [5, 3, 2]
    """
    x = as_operand(a, "matrix_transpose")
    if x.ndim < 2:
        raise ValueError(f"matrix_transpose: Argument `a` should be a (batch) matrix with rank >= 2. Received `a` "
                         f"with shape {tuple(x.shape)}; use tf.transpose for vectors.")
    return transpose(x, tuple(builtins.range(x.ndim - 2)) + (x.ndim - 1, x.ndim - 2))


def adjoint(matrix: Any, name: str | None = None) -> Tensor:
    """The conjugate transpose of each matrix (the last two axes): for real matrices, the transpose.

    >>> tf.linalg.adjoint([[1.0, 2.0]]).numpy()
    array([[1.],
           [2.]], dtype=float32)
    """
    return matrix_transpose(matrix)


def diag_part(input: Any, name: str = "diag_part", k: int = 0, padding_value: Any = 0,
              align: str = "RIGHT_LEFT") -> Tensor:
    """The ``k``-th diagonal of each matrix (the last two axes): ``x[..., i, i + k]``.

    >>> tf.linalg.diag_part([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).numpy()
    array([1., 5.], dtype=float32)
    >>> tf.linalg.diag_part([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], k=1).numpy()
    array([2., 6.], dtype=float32)
    """
    x = as_operand(input, "diag_part")
    if x.ndim < 2:
        raise InvalidArgumentError(f"diag_part: input must be at least 2-dim, received shape {tuple(x.shape)}.")
    rows, columns = x.shape[-2:]
    k = _offset(k, "diag_part")
    if k and not -rows < k < columns:       # TF's kernel names the band's lower end: k here
        text = f"lower_diag_index is out of bound: {k}. It must be between {-rows} and {columns}"
        device = backends.backend_of(x._value).device_name
        raise with_hint(InvalidArgumentError(kernel_text("MatrixDiagPartV3", text, name, device)),
                        f"diag_part: k={k} names no diagonal of a {rows}x{columns} matrix; "
                        f"give k from {1 - rows} to {columns - 1}.")
    start_row, start_column = max(-k, 0), max(k, 0)
    length = max(min(rows - start_row, columns - start_column), 0)
    flat = reshape(x, tuple(x.shape[:-2]) + (rows * columns,))
    along = np.arange(length)
    return gather(flat, (start_row + along) * columns + start_column + along, axis=x.ndim - 2)


def diag(diagonal: Any, name: str = "diag", k: int = 0, num_rows: int = -1, num_cols: int = -1,
         padding_value: Any = 0, align: str = "RIGHT_LEFT") -> Tensor:
    """Matrices with ``diagonal`` (its last axis) on their ``k``-th diagonal and ``padding_value`` elsewhere.

    >>> tf.linalg.diag([1.0, 2.0]).numpy()
    array([[1., 0.],
           [0., 2.]], dtype=float32)
    >>> tf.linalg.diag([1.0, 2.0], k=1).numpy()
    array([[0., 1., 0.],
           [0., 0., 2.],
           [0., 0., 0.]], dtype=float32)
    """
    d = as_operand(diagonal, "diag")
    if d.ndim < 1:
        raise InvalidArgumentError(f"diag: diagonal must be at least 1-dim, received shape {tuple(d.shape)}.")
    if d.dtype is dtypes.bool_:
        raise TypeError("diag: diagonal is bool, which has no padding value 0; cast it first, e.g. tf.cast(d, tf.int32).")
    length = d.shape[-1]
    k = _offset(k, "diag")
    rows, columns = _diag_shape(length, k, as_int(num_rows, "diag", "num_rows"), as_int(num_cols, "diag", "num_cols"))
    # Every place of the matrix reads one entry of the diagonal, or the padding just after its end.
    r, c = np.indices((rows, columns)).reshape(2, -1)
    on = c - r == k
    source = np.where(on, np.minimum(r, c), length)
    padding = broadcast_to(like(padding_value, d, "diag"), tuple(d.shape[:-1]) + (1,))
    return reshape(gather(concat([d, padding], axis=-1), source, axis=d.ndim - 1), tuple(d.shape[:-1]) + (rows, columns))


def _offset(k: Any, name: str) -> int:
    """The diagonal ``k`` (0 the main one, > 0 above it): one int, as minitape does not take a band of them."""
    if isinstance(plain(k), list | tuple | np.ndarray) and np.ndim(plain(k)) == 1 and len(plain(k)) == 2:
        raise ValueError(f"{name}: k must be one integer (one diagonal); minitape does not take a band of "
                         f"diagonals k=(low, high). Take them one at a time.")
    return as_int(k, name, "k")


def _diag_shape(length: int, k: int, rows: int, columns: int) -> tuple[int, int]:
    """The matrix shape that ``diag`` fills: TF's rule for ``num_rows`` and ``num_cols`` (-1: as small as fits)."""
    least_rows, least_columns = length + max(-k, 0), length + max(k, 0)
    if rows == -1 and columns == -1:
        rows = columns = max(least_rows, least_columns)
    rows = least_rows if rows == -1 else rows
    columns = least_columns if columns == -1 else columns
    if rows < least_rows or columns < least_columns:
        raise InvalidArgumentError(f"diag: The number of rows or columns is too small: a diagonal of {length} at "
                                   f"k={k} needs at least {least_rows} rows and {least_columns} columns.")
    if rows != least_rows and columns != least_columns:
        raise InvalidArgumentError(f"diag: The number of rows or columns is not consistent with the specified "
                                   f"diagonal: {rows}x{columns} has a longer diagonal at k={k} than {length}.")
    return rows, columns


def trace(x: Any, name: str | None = None) -> Tensor:
    """The sum of each matrix's diagonal (the last two axes).

    >>> tf.linalg.trace([[1.0, 2.0], [3.0, 4.0]]).numpy()
    np.float32(5.0)
    """
    x = as_operand(x, "trace")
    if x.ndim < 2:
        raise InvalidArgumentError(f"trace: input must be at least 2-dim, received shape {tuple(x.shape)}.")
    if x.dtype is dtypes.bool_:
        raise InvalidArgumentError("trace: input is bool, but only numbers add up; cast it first, e.g. "
                                   "tf.cast(x, tf.int32).")
    return reduce_sum(diag_part(x), axis=-1)
