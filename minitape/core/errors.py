"""The errors minitape raises where TensorFlow raises its own.

>>> import minitape as tf
>>> try:
...     tf.constant(1.0) + tf.constant(1.0, tf.float64)
... except tf.errors.InvalidArgumentError as error:
...     print(error)
add: input 1 is float64 but input 0 is float32; minitape never converts silently. Use tf.cast(x, tf.float32) on one of them.
"""


class OpError(Exception):
    """An op could not run on the inputs it was given."""


class InvalidArgumentError(OpError):
    """An op was given inputs of the wrong dtype, shape or value (TF's ``InvalidArgumentError``)."""


class DeviceNotFoundError(RuntimeError):
    """A device was asked for that this machine does not have (a GPU without CuPy or CUDA)."""
