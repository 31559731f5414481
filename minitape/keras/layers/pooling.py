"""Pooling layers: each window of an NHWC image summarised by its largest value or its mean.

>>> import minitape as tf
>>> x = tf.reshape(tf.range(16.0), (1, 4, 4, 1))
>>> tf.keras.layers.MaxPooling2D()(x)[0, :, :, 0].numpy()
array([[ 5.,  7.],
       [13., 15.]], dtype=float32)
>>> tf.keras.layers.GlobalAveragePooling2D()(x).numpy()
array([[7.5]], dtype=float32)

Keras 3's short names are the same classes:

>>> tf.keras.layers.MaxPool2D is tf.keras.layers.MaxPooling2D, tf.keras.layers.GlobalAvgPool2D.__name__
(True, 'GlobalAveragePooling2D')
"""
from __future__ import annotations

from typing import Any

from minitape import ops
from minitape.dialect import nn
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


class _GlobalPooling2D(Layer):
    """What both global poolings share: one value per channel over height and width (``keepdims`` keeps the two
    axes, as 1s)."""

    reduce = staticmethod(ops.reduce_mean)

    def __init__(self, data_format: str | None = None, keepdims: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        checks.channels_last(data_format)
        self.keepdims = keepdims

    def call(self, inputs: Tensor) -> Tensor:
        """The reduction over axes 1 and 2 (``tf.reduce_mean`` or ``tf.reduce_max``).

        >>> import minitape as tf
        >>> tf.keras.layers.GlobalAveragePooling2D().call(tf.ones((2, 4, 4, 3))).shape.as_list()
        [2, 3]
        """
        checks.ndim(self, inputs, 4)
        return self.reduce(inputs, axis=[1, 2], keepdims=self.keepdims)


class GlobalAveragePooling2D(_GlobalPooling2D):
    """The mean over height and width: one value per channel (``keepdims`` keeps the two axes, as 1s).

    >>> import minitape as tf
    >>> tf.keras.layers.GlobalAveragePooling2D(keepdims=True)(tf.ones((2, 4, 4, 3))).shape.as_list()
    [2, 1, 1, 3]
    """


class GlobalMaxPooling2D(_GlobalPooling2D):
    """The largest value over height and width: one value per channel.

    >>> import minitape as tf
    >>> tf.keras.layers.GlobalMaxPooling2D()(tf.reshape(tf.range(8.0), (1, 2, 2, 2))).numpy()
    array([[6., 7.]], dtype=float32)
    """

    reduce = staticmethod(ops.reduce_max)


# Keras 3's shorter spellings name the same classes.
MaxPool2D, AvgPool2D = MaxPooling2D, AveragePooling2D
GlobalAvgPool2D, GlobalMaxPool2D = GlobalAveragePooling2D, GlobalMaxPooling2D
