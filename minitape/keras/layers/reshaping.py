"""``Flatten``: an image (or any tensor) as one vector per example, for a ``Dense`` layer to read.

>>> import minitape as tf
>>> tf.keras.layers.Flatten()(tf.ones((2, 4, 4, 3))).shape
TensorShape([2, 48])
"""
from __future__ import annotations

from minitape import ops
from minitape.core.tensor import Tensor
from minitape.keras.layers.core import Layer


class Flatten(Layer):
    """Keep the batch axis, flatten the rest: ``(batch, h, w, c)`` becomes ``(batch, h·w·c)``.

    >>> import minitape as tf
    >>> tf.keras.layers.Flatten()(tf.constant([1.0, 2.0])).shape          # a vector: one feature per example
    TensorShape([2, 1])
    """

    def call(self, inputs: Tensor) -> Tensor:
        """``tf.reshape(inputs, (batch, -1))``.

        >>> import minitape as tf
        >>> tf.keras.layers.Flatten().call(tf.reshape(tf.range(4.0), (1, 2, 2))).numpy()
        array([[0., 1., 2., 3.]], dtype=float32)
        """
        return ops.reshape(inputs, (len(inputs), -1))
