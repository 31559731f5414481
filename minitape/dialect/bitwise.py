"""``tf.bitwise``: the bit-by-bit ops on integer tensors.

A namespace, as TensorFlow's is: every name here is a row of the op table
([`minitape.ops.comparisons`][minitape.ops.comparisons]).  They take integers only (int8/16/32/64,
uint8/16), both inputs of one dtype; on booleans use ``tf.logical_and`` and its kin.

>>> import minitape as tf
>>> tf.bitwise.bitwise_and(tf.constant([12, 10]), 6).numpy(), tf.bitwise.left_shift(1, 4).numpy()
(array([4, 2], dtype=int32), np.int32(16))
"""
from minitape.ops import bitwise_and, bitwise_or, bitwise_xor, invert, left_shift, right_shift  # noqa: F401

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"]
