"""Pooling over the steps of ``(batch, steps, channels)`` sequences: windows, or the whole sequence.

A window pooling is the 2-D pooling of the sequence as an image one pixel high.  The global
average takes an optional ``mask`` (``(batch, steps)``, true where a step is real): padded steps
are left out of the mean, as Keras leaves them out.

>>> import minitape as tf
>>> x = tf.reshape(tf.range(6.0), (1, 3, 2))
>>> tf.keras.layers.GlobalAveragePooling1D()(x).numpy()
array([[2., 3.]], dtype=float32)
>>> tf.keras.layers.GlobalAveragePooling1D()(x, mask=tf.constant([[True, True, False]])).numpy()
array([[1., 2.]], dtype=float32)
"""
from __future__ import annotations

from typing import Any

from minitape import ops
from minitape.core import dtypes
from minitape.core.tensor import Tensor
from minitape.dialect import nn
from minitape.keras.layers import checks
from minitape.keras.layers.core import Layer


class _Pooling1D(Layer):
    """What window poolings of sequences share: ``pool_size``, ``strides`` (the pool size if None), ``padding``."""

    pool = staticmethod(nn.max_pool2d)

    def __init__(self, pool_size: int | tuple[int] = 2, strides: int | tuple[int] | None = None,
                 padding: str = "valid", data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.pool_size = checks.integers(pool_size, 1, "pool_size")
        self.strides = self.pool_size if strides is None else checks.integers(strides, 1, "strides")
        self.padding = checks.padding(padding)
        checks.channels_last(data_format)

    def call(self, inputs: Tensor) -> Tensor:
        """Each ``pool_size`` window of steps, moving by ``strides``, reduced to one value per channel.

        >>> import minitape as tf
        >>> tf.keras.layers.MaxPooling1D(2, padding="same").call(tf.ones((1, 5, 3))).shape
        TensorShape([1, 3, 3])
        """
        checks.ndim(self, inputs, 3)
        pooled = self.pool(ops.expand_dims(inputs, 1), ksize=(1, *self.pool_size), strides=(1, *self.strides),
                           padding=self.padding.upper())
        return ops.squeeze(pooled, 1)


class MaxPooling1D(_Pooling1D):
    """The largest value of each ``pool_size`` window of steps (2 by default), moving by ``strides``.

    >>> import minitape as tf
    >>> tf.keras.layers.MaxPooling1D()(tf.constant([[[1.0], [3.0], [2.0], [0.0]]]))[0, :, 0].numpy()
    array([3., 2.], dtype=float32)
    """


class AveragePooling1D(_Pooling1D):
    """The mean of each ``pool_size`` window of steps.

    >>> import minitape as tf
    >>> tf.keras.layers.AveragePooling1D()(tf.constant([[[1.0], [3.0], [2.0], [0.0]]]))[0, :, 0].numpy()
    array([2., 1.], dtype=float32)
    """

    pool = staticmethod(nn.avg_pool2d)


class GlobalAveragePooling1D(Layer):
    """The mean over the steps, one value per channel; with a ``mask``, the mean of the steps it keeps.

    >>> import minitape as tf
    >>> tf.keras.layers.GlobalAveragePooling1D(keepdims=True)(tf.ones((2, 4, 3))).shape.as_list()
    [2, 1, 3]
    """

    def __init__(self, data_format: str | None = None, keepdims: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        checks.channels_last(data_format)
        self.keepdims = keepdims

    def call(self, inputs: Tensor, mask: Any = None) -> Tensor:
        """``sum(inputs * mask) / sum(mask)`` over the steps (``mask`` all true when None).

        A sequence whose mask keeps no step divides 0 by 0: NaN, as in Keras.

        >>> import minitape as tf
        >>> x = tf.constant([[[1.0], [2.0], [9.0]]])
        >>> tf.keras.layers.GlobalAveragePooling1D().call(x, mask=tf.constant([[1, 1, 0]])).numpy()
        array([[1.5]], dtype=float32)
        """
        checks.ndim(self, inputs, 3)
        if mask is None:
            return ops.reduce_mean(inputs, axis=1, keepdims=self.keepdims)
        weights = ops.expand_dims(ops.cast(mask, inputs.dtype if inputs.dtype.is_floating else dtypes.float32), 2)
        total = ops.reduce_sum(inputs * weights, axis=1, keepdims=self.keepdims)
        return total / ops.reduce_sum(weights, axis=1, keepdims=self.keepdims)


class GlobalMaxPooling1D(Layer):
    """The largest value over the steps, one per channel.

    >>> import minitape as tf
    >>> tf.keras.layers.GlobalMaxPooling1D()(tf.constant([[[1.0, 5.0], [3.0, 2.0]]])).numpy()
    array([[3., 5.]], dtype=float32)
    """

    def __init__(self, data_format: str | None = None, keepdims: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        checks.channels_last(data_format)
        self.keepdims = keepdims

    def call(self, inputs: Tensor) -> Tensor:
        """``tf.reduce_max(inputs, axis=1)``.

        >>> import minitape as tf
        >>> tf.keras.layers.GlobalMaxPooling1D(keepdims=True).call(tf.ones((2, 4, 3))).shape.as_list()
        [2, 1, 3]
        """
        checks.ndim(self, inputs, 3)
        return ops.reduce_max(inputs, axis=1, keepdims=self.keepdims)


# Keras 3's shorter spellings name the same classes.
MaxPool1D, AvgPool1D = MaxPooling1D, AveragePooling1D
GlobalAvgPool1D, GlobalMaxPool1D = GlobalAveragePooling1D, GlobalMaxPooling1D
