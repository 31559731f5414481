"""Layers that change no shape and own no variables: ``Dropout``, ``ReLU`` and ``Activation``.

>>> import minitape as tf
>>> tf.keras.layers.Activation("relu")(tf.constant([-1.0, 2.0])).numpy()
array([0., 2.], dtype=float32)
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minitape import ops
from minitape.dialect import nn
from minitape.core.tensor import Tensor
from minitape.keras import activations
from minitape.keras.layers.core import Layer


class Dropout(Layer):
    """Randomly zero a fraction ``rate`` of the inputs while ``training``; the identity otherwise.

    The entries kept are scaled by ``1 / (1 - rate)``, so the expected sum is unchanged.

    >>> import minitape as tf
    >>> dropout = tf.keras.layers.Dropout(0.5)
    >>> x = tf.ones((100,))
    >>> dropout(x) is x
    True
    >>> sorted(set(dropout(x, training=True).numpy().tolist()))
    [0.0, 2.0]
    """

    supports_masking = True      # a mask on the input reaches the output, as in Keras 3

    def __init__(self, rate: float, noise_shape: Any = None, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not isinstance(rate, int | float) or not 0 <= rate < 1:
            raise ValueError(f"Dropout: rate must be a float in [0, 1), got {rate!r}.")
        if noise_shape is not None and not all(n is None or isinstance(n, int) for n in noise_shape):
            raise ValueError(f"Dropout: noise_shape must hold integers or None, got {noise_shape!r}.")
        self.rate, self.noise_shape, self.seed = float(rate), noise_shape, seed

    def call(self, inputs: Tensor, training: bool | None = None) -> Tensor:
        """Drop entries when ``training`` is true; return ``inputs`` unchanged otherwise.

        >>> import minitape as tf
        >>> x = tf.ones((3,))
        >>> tf.keras.layers.Dropout(0.5).call(x, training=False) is x
        True
        """
        if not training or self.rate == 0:
            return inputs
        noise_shape = self.noise_shape
        if noise_shape is not None:         # None stands for the input's size there, as in Keras
            noise_shape = [size if n is None else n for n, size in zip(noise_shape, inputs.shape)]
        return nn.dropout(inputs, self.rate, noise_shape=noise_shape, seed=self.seed)


class ReLU(Layer):
    """``max(x, 0)`` as a layer.

    >>> import minitape as tf
    >>> tf.keras.layers.ReLU()(tf.constant([-1.0, 2.0])).numpy()
    array([0., 2.], dtype=float32)
    """

    supports_masking = True      # a mask on the input reaches the output, as in Keras 3

    def call(self, inputs: Tensor) -> Tensor:
        """``max(inputs, 0)``, entry by entry.

        >>> import minitape as tf
        >>> tf.keras.layers.ReLU().call(tf.constant([[-3.0, 0.5]])).numpy()
        array([[0. , 0.5]], dtype=float32)
        """
        return ops.relu(inputs)


class Activation(Layer):
    """An activation function as a layer, given by name (``"relu"``, ``"softmax"``...) or as a callable.

    >>> import minitape as tf
    >>> tf.keras.layers.Activation("relu")(tf.constant([-1.0, 2.0])).numpy()
    array([0., 2.], dtype=float32)
    """

    supports_masking = True      # a mask on the input reaches the output, as in Keras 3

    def __init__(self, activation: str | Callable, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs: Tensor) -> Tensor:
        """The activation applied to ``inputs``.

        >>> import minitape as tf
        >>> tf.keras.layers.Activation(tf.tanh).call(tf.constant([0.0])).numpy()
        array([0.], dtype=float32)
        """
        return self.activation(inputs)
