"""``tf.linalg``: matrix ops.

>>> import minitape as tf
>>> tf.linalg.matmul([[2.0]], [[3.0]]).numpy()
array([[6.]], dtype=float32)
"""
from minitape.ops import (  # noqa: F401
    det, diag, diag_part, einsum, eye, global_norm, inv, matmul, matrix_transpose, matvec, norm, solve, tensordot, trace,
    transpose,
)
from minitape.ops import band_part  # noqa: F401
from minitape.ops.linalg import adjoint  # noqa: F401
