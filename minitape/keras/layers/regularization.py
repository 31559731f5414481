"""Regularization layers: noise while training, the identity otherwise (``GaussianNoise``,
``GaussianDropout``, ``AlphaDropout``, ``SpatialDropout1D``/``2D``), a penalty on the activations
(``ActivityRegularization``) and ``Identity``.

Like ``Dropout``, each is the identity unless called with ``training=True`` (``fit`` passes it).

>>> import minitape as tf
>>> noise = tf.keras.layers.GaussianNoise(0.1)
>>> x = tf.ones((2, 3))
>>> noise(x) is x, noise(x, training=True).shape
(True, TensorShape([2, 3]))
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape.core import random
from minitape.core.tensor import Tensor
from minitape.keras import regularizers
from minitape.keras.layers import checks
from minitape.keras.layers.activation import Dropout
from minitape.keras.layers.core import Layer


def _fraction(value: Any, name: str) -> float:
    """Keras 3's check of a rate or standard deviation: a number in ``[0, 1]``."""
    if not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ValueError(f"Invalid value received for argument `{name}`. Expected a float value between 0 and 1. "
                         f"Received: {name}={value}")
    return float(value)


class GaussianNoise(Layer):
    """While training, add noise drawn from ``N(0, stddev²)`` to every entry (a data augmentation).

    >>> import minitape as tf
    >>> tf.random.set_seed(0)
    >>> out = tf.keras.layers.GaussianNoise(0.5)(tf.zeros((1000,)), training=True)
    >>> round(float(out.numpy().std()), 1)
    0.5
    """

    def __init__(self, stddev: float, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.stddev, self.seed = _fraction(stddev, "stddev"), seed

    def call(self, inputs: Tensor, training: bool = False) -> Tensor:
        """``inputs + noise`` when ``training``; ``inputs`` otherwise.

        >>> import minitape as tf
        >>> x = tf.ones((2,))
        >>> tf.keras.layers.GaussianNoise(0.1).call(x) is x
        True
        """
        if not training or self.stddev == 0:
            return inputs
        return inputs + random.normal(inputs.shape, 0.0, self.stddev, dtype=inputs.dtype, seed=self.seed)


class GaussianDropout(Layer):
    """While training, multiply every entry by noise drawn from ``N(1, rate / (1 - rate))``: dropout's
    variance, without zeros.

    >>> import minitape as tf
    >>> tf.random.set_seed(0)
    >>> out = tf.keras.layers.GaussianDropout(0.5)(tf.ones((2000,)), training=True)
    >>> round(float(tf.reduce_mean(out)), 1), round(float(out.numpy().std()), 1)
    (1.0, 1.0)
    """

    def __init__(self, rate: float, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rate, self.seed = _fraction(rate, "rate"), seed

    def call(self, inputs: Tensor, training: bool = False) -> Tensor:
        """``inputs * noise`` when ``training``; ``inputs`` otherwise.

        >>> import minitape as tf
        >>> x = tf.ones((2,))
        >>> tf.keras.layers.GaussianDropout(0.2).call(x) is x
        True
        """
        if not training or not 0 < self.rate < 1:
            return inputs
        stddev = np.sqrt(self.rate / (1.0 - self.rate))
        return inputs * random.normal(inputs.shape, 1.0, stddev, dtype=inputs.dtype, seed=self.seed)


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


class AlphaDropout(Layer):
    """Dropout for self-normalizing (SELU) networks: while training, dropped entries are set to SELU's
    negative saturation value and the result is shifted and scaled to keep the mean and variance.

    >>> import minitape as tf
    >>> tf.random.set_seed(0)
    >>> out = tf.keras.layers.AlphaDropout(0.2)(tf.random.normal((4000,)), training=True)
    >>> round(float(tf.reduce_mean(out)), 1), round(float(out.numpy().std()), 1)
    (0.0, 1.0)
    """

    def __init__(self, rate: float, noise_shape: Any = None, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rate, self.noise_shape, self.seed = _fraction(rate, "rate"), noise_shape, seed

    def call(self, inputs: Tensor, training: bool = False) -> Tensor:
        """``a * (kept ? x : -alpha * scale) + b`` when ``training``; ``inputs`` otherwise.

        >>> import minitape as tf
        >>> x = tf.ones((2,))
        >>> tf.keras.layers.AlphaDropout(0.2).call(x) is x
        True
        """
        if not training or not 0 < self.rate < 1:
            return inputs
        shape = tuple(inputs.shape) if self.noise_shape is None else tuple(
            size if n is None else n for n, size in zip(self.noise_shape, inputs.shape))
        kept = (random.uniform_array(shape, dtype=inputs.dtype, seed=self.seed) >= self.rate).astype(
            inputs.dtype.as_numpy_dtype_)
        saturated = -_SELU_ALPHA * _SELU_SCALE
        a = ((1 - self.rate) * (1 + self.rate * saturated ** 2)) ** -0.5
        b = -a * saturated * self.rate
        return (inputs * kept + (1 - kept) * saturated) * a + b


class SpatialDropout1D(Dropout):
    """Dropout of whole channels of a sequence ``(batch, steps, channels)``: one decision per example and channel.

    >>> import minitape as tf
    >>> out = tf.keras.layers.SpatialDropout1D(0.5)(tf.ones((1, 4, 6)), training=True).numpy()
    >>> bool((out == out[:, :1]).all())                   # each channel all kept or all dropped
    True
    """
    rank = 3

    def __init__(self, rate: float, seed: int | None = None, data_format: str | None = None, **kwargs: Any) -> None:
        checks.channels_last(data_format)
        super().__init__(rate, seed=seed, **kwargs)

    def call(self, inputs: Tensor, training: bool | None = None) -> Tensor:
        """``Dropout`` with a noise shape of 1 on every axis but the batch and channels.

        >>> import minitape as tf
        >>> tf.keras.layers.SpatialDropout2D(0.5).call(tf.ones((1, 2, 2, 3)), training=True).shape
        TensorShape([1, 2, 2, 3])
        """
        checks.ndim(self, inputs, self.rank)
        self.noise_shape = (inputs.shape[0], *[1] * (self.rank - 2), inputs.shape[-1])
        return super().call(inputs, training=training)


class SpatialDropout2D(SpatialDropout1D):
    """Dropout of whole feature maps of images ``(batch, height, width, channels)``.

    >>> import minitape as tf
    >>> out = tf.keras.layers.SpatialDropout2D(0.5)(tf.ones((1, 3, 3, 8)), training=True).numpy()
    >>> bool((out == out[:, :1, :1]).all())
    True
    """
    rank = 4


class ActivityRegularization(Layer):
    """The identity, adding ``l1 * sum(|x|) + l2 * sum(x²)`` (over the batch size) to the model's losses.

    >>> import minitape as tf
    >>> layer = tf.keras.layers.ActivityRegularization(l1=0.5)
    >>> _ = layer(tf.constant([[1.0, -2.0], [3.0, 0.0]]))
    >>> [float(loss) for loss in layer.losses]
    [1.5]
    """

    def __init__(self, l1: float = 0.0, l2: float = 0.0, **kwargs: Any) -> None:
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.l1, self.l2 = l1, l2


class Identity(Layer):
    """Its input, unchanged (a placeholder where a layer is expected).

    >>> import minitape as tf
    >>> x = tf.ones((2,))
    >>> tf.keras.layers.Identity()(x) is x
    True
    """
