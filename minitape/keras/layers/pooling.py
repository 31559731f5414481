"""Pooling layers: each window of an NHWC image summarised by its largest value or its mean.

>>> import minitape as tf
>>> x = tf.reshape(tf.range(16.0), (1, 4, 4, 1))
>>> tf.keras.layers.MaxPooling2D()(x)[0, :, :, 0].numpy()
array([[ 5.,  7.],
       [13., 15.]], dtype=float32)
>>> tf.keras.layers.GlobalAveragePooling2D()(x).numpy()
array([[7.5]], dtype=float32)
"""
from __future__ import annotations

from typing import Any

from minitape import nn, ops
from minitape.core.tensor import Tensor
from minitape.keras.layers import checks
from minitape.keras.layers.core import Layer


class _Pooling2D(Layer):
    """What both window poolings share: ``pool_size``, ``strides`` (the pool size if None) and ``padding``."""

    pool = staticmethod(nn.max_pool2d)

    def __init__(self, pool_size: int | tuple[int, int], strides: int | tuple[int, int] | None = None,
                 padding: str = "valid", data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.pool_size = checks.pair(pool_size, "pool_size")
        self.strides = self.pool_size if strides is None else checks.pair(strides, "strides")
        self.padding = checks.padding(padding)
        checks.channels_last(data_format)

    def call(self, inputs: Tensor) -> Tensor:
        """Each ``pool_size`` window, moving by ``strides``, reduced to one value per channel.

        >>> import minitape as tf
        >>> tf.keras.layers.AveragePooling2D(2, padding="same").call(tf.ones((1, 3, 3, 1))).shape
        TensorShape([1, 2, 2, 1])
        """
        checks.ndim(self, inputs, 4)
        return self.pool(inputs, ksize=self.pool_size, strides=self.strides, padding=self.padding.upper())


class MaxPooling2D(_Pooling2D):
    """The largest value of each ``pool_size`` window (2x2 by default), moving by ``strides`` (the pool size).

    >>> import minitape as tf
    >>> pool = tf.keras.layers.MaxPooling2D(pool_size=3, strides=1, padding="same")
    >>> pool(tf.ones((2, 5, 5, 4))).shape
    TensorShape([2, 5, 5, 4])
    """

    def __init__(self, pool_size: int | tuple[int, int] = (2, 2), strides: int | tuple[int, int] | None = None,
                 padding: str = "valid", data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(pool_size, strides, padding, data_format, **kwargs)


class AveragePooling2D(_Pooling2D):
    """The mean of each ``pool_size`` window; with ``padding="same"`` an edge window averages the image's entries.

    >>> import minitape as tf
    >>> tf.keras.layers.AveragePooling2D(2)(tf.reshape(tf.range(4.0), (1, 2, 2, 1))).numpy().ravel()
    array([1.5], dtype=float32)
    """

    pool = staticmethod(nn.avg_pool2d)


class GlobalAveragePooling2D(Layer):
    """The mean over height and width: one value per channel (``keepdims`` keeps the two axes, as 1s).

    >>> import minitape as tf
    >>> tf.keras.layers.GlobalAveragePooling2D(keepdims=True)(tf.ones((2, 4, 4, 3))).shape
    TensorShape([2, 1, 1, 3])
    """

    def __init__(self, data_format: str | None = None, keepdims: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        checks.channels_last(data_format)
        self.keepdims = keepdims

    def call(self, inputs: Tensor) -> Tensor:
        """``tf.reduce_mean(inputs, axis=[1, 2])``.

        >>> import minitape as tf
        >>> tf.keras.layers.GlobalAveragePooling2D().call(tf.ones((2, 4, 4, 3))).shape
        TensorShape([2, 3])
        """
        checks.ndim(self, inputs, 4)
        return ops.reduce_mean(inputs, axis=[1, 2], keepdims=self.keepdims)
