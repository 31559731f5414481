"""``tf.linalg``: matrix ops.

>>> import minitape as tf
>>> tf.linalg.matmul([[2.0]], [[3.0]]).numpy()
array([[6.]], dtype=float32)
"""
from minitape.ops import einsum, matmul, transpose  # noqa: F401
