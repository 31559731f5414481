"""Depthwise and separable convolutions: ``DepthwiseConv2D`` filters each channel on its own;
``SeparableConv2D`` follows that with a 1×1 convolution that mixes the channels (Xception's,
MobileNet's building block: far fewer weights than a full ``Conv2D``).

The depthwise step is one ``tf.nn.conv2d`` with a block-diagonal kernel: channel ``c``'s filters
are placed where input ``c`` meets outputs ``c * multiplier ... c * multiplier + multiplier - 1``,
zeros elsewhere, so gradients come from ``conv2d``'s own.

>>> import minitape as tf
>>> sep = tf.keras.layers.SeparableConv2D(8, 3, padding="same")
>>> sep(tf.ones((2, 5, 5, 3))).shape
TensorShape([2, 5, 5, 8])
>>> [tuple(w.shape) for w in sep.weights]
[(3, 3, 3, 1), (1, 1, 3, 8), (8,)]
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minitape import ops
from minitape.core.tensor import Tensor
from minitape.dialect import nn
from minitape.keras import activations, constraints, initializers, regularizers
from minitape.keras.layers import checks
from minitape.keras.layers.core import Layer


def depthwise_conv2d(inputs: Tensor, kernel: Tensor, strides: tuple[int, int], padding: str,
                     dilations: tuple[int, int] = (1, 1)) -> Tensor:
    """Each input channel convolved with its own ``multiplier`` filters: ``kernel`` is ``(kh, kw, channels,
    multiplier)``, the output has ``channels * multiplier`` channels (channel ``c``'s first), as
    ``tf.nn.depthwise_conv2d``.

    >>> import minitape as tf
    >>> from minitape.keras.layers.separable import depthwise_conv2d
    >>> x = tf.concat([tf.ones((1, 2, 2, 1)), 10 * tf.ones((1, 2, 2, 1))], axis=-1)
    >>> depthwise_conv2d(x, tf.ones((2, 2, 2, 1)), (1, 1), "VALID").numpy().ravel()
    array([ 4., 40.], dtype=float32)
    """
    kh, kw, channels, multiplier = kernel.shape
    eye = ops.cast(ops.eye(channels), kernel.dtype)
    blocks = ops.einsum("hwcm,cd->hwcdm", kernel, eye)          # zero unless input c feeds its own outputs
    full = ops.reshape(blocks, (kh, kw, channels, channels * multiplier))
    return nn.conv2d(inputs, full, strides=strides, padding=padding, dilations=dilations)


class DepthwiseConv2D(Layer):
    """A convolution of each channel on its own: ``depth_multiplier`` filters per input channel, weights
    ``kernel`` ``(kh, kw, channels, depth_multiplier)`` and ``bias``.

    >>> import minitape as tf
    >>> layer = tf.keras.layers.DepthwiseConv2D(3, depth_multiplier=2)
    >>> layer(tf.ones((1, 5, 5, 4))).shape, tuple(layer.kernel.shape)
    (TensorShape([1, 3, 3, 8]), (3, 3, 4, 2))
    """
    kernel_name = "kernel"           # Keras 3's name for it here; SeparableConv2D's is "depthwise_kernel"

    def __init__(self, kernel_size: int | tuple[int, int], strides: int | tuple[int, int] = (1, 1),
                 padding: str = "valid", depth_multiplier: int = 1, data_format: str | None = None,
                 dilation_rate: int | tuple[int, int] = (1, 1), activation: str | Callable | None = None,
                 use_bias: bool = True, depthwise_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 depthwise_regularizer: Any = None, bias_regularizer: Any = None, depthwise_constraint: Any = None,
                 bias_constraint: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        checks.channels_last(data_format)
        self.kernel_size = checks.pair(kernel_size, "kernel_size")
        self.strides = checks.pair(strides, "strides")
        self.dilation_rate = checks.pair(dilation_rate, "dilation_rate")
        self.padding = checks.padding(padding)
        if isinstance(depth_multiplier, bool) or not isinstance(depth_multiplier, int) or depth_multiplier <= 0:
            raise ValueError(f"Invalid value for argument `depth_multiplier`. Expected a strictly positive value. "
                             f"Received depth_multiplier={depth_multiplier}.")
        self.depth_multiplier, self.use_bias = depth_multiplier, use_bias
        self.activation = activations.get(activation)
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)
        self.bias_constraint = constraints.get(bias_constraint)

    def _bias(self, size: int) -> None:
        self.bias = self.add_weight((size,), self.bias_initializer, regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint, name="bias") if self.use_bias else None

    def build(self, input_shape: tuple[int, ...]) -> None:
        """Create ``kernel`` and ``bias`` (``channels * depth_multiplier``).

        >>> import minitape as tf
        >>> layer = tf.keras.layers.DepthwiseConv2D(3)
        >>> layer.build((None, 8, 8, 2))
        >>> [w.name for w in layer.weights]
        ['kernel', 'bias']
        """
        if len(input_shape) != 4:
            raise ValueError(f"Input 0 of layer '{self.name}' is incompatible with the layer: expected min_ndim=4, "
                             f"found ndim={len(input_shape)}. Full shape received: {tuple(input_shape)}")
        channels = input_shape[-1]
        kernel = self.add_weight((*self.kernel_size, channels, self.depth_multiplier), self.depthwise_initializer,
                                 regularizer=self.depthwise_regularizer, constraint=self.depthwise_constraint,
                                 name=self.kernel_name)
        setattr(self, self.kernel_name, kernel)
        self._bias(channels * self.depth_multiplier)

    def _depthwise(self, inputs: Tensor) -> Tensor:
        checks.ndim(self, inputs, 4)
        kernel = getattr(self, self.kernel_name)
        checks.last_axis(self, inputs, kernel.shape[2])
        return depthwise_conv2d(inputs, kernel, self.strides, self.padding.upper(), self.dilation_rate)

    def _finish(self, outputs: Tensor) -> Tensor:
        return self.activation(outputs if self.bias is None else outputs + self.bias)

    def call(self, inputs: Tensor) -> Tensor:
        """``activation(depthwise_conv2d(inputs, kernel) + bias)``.

        >>> import minitape as tf
        >>> layer = tf.keras.layers.DepthwiseConv2D(2, depthwise_initializer="ones")
        >>> layer(tf.ones((1, 2, 2, 3))).numpy().ravel()
        array([4., 4., 4.], dtype=float32)
        """
        return self._finish(self._depthwise(inputs))


class SeparableConv2D(DepthwiseConv2D):
    """A depthwise convolution, then a 1×1 convolution to ``filters`` channels: weights ``depthwise_kernel``,
    ``pointwise_kernel`` ``(1, 1, channels * depth_multiplier, filters)`` and ``bias`` (``filters``).

    >>> import minitape as tf
    >>> tf.keras.layers.SeparableConv2D(4, 3, strides=2)(tf.ones((1, 7, 7, 2))).shape
    TensorShape([1, 3, 3, 4])
    """
    kernel_name = "depthwise_kernel"

    def __init__(self, filters: int, kernel_size: int | tuple[int, int], strides: int | tuple[int, int] = (1, 1),
                 padding: str = "valid", data_format: str | None = None, dilation_rate: int | tuple[int, int] = (1, 1),
                 depth_multiplier: int = 1, activation: str | Callable | None = None, use_bias: bool = True,
                 depthwise_initializer: Any = "glorot_uniform", pointwise_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", depthwise_regularizer: Any = None, pointwise_regularizer: Any = None,
                 bias_regularizer: Any = None, depthwise_constraint: Any = None, pointwise_constraint: Any = None,
                 bias_constraint: Any = None, **kwargs: Any) -> None:
        super().__init__(kernel_size, strides, padding, depth_multiplier, data_format, dilation_rate, activation,
                         use_bias, depthwise_initializer, bias_initializer, depthwise_regularizer, bias_regularizer,
                         depthwise_constraint, bias_constraint, **kwargs)
        if isinstance(filters, bool) or not isinstance(filters, int) or filters <= 0:
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly positive value. "
                             f"Received filters={filters}.")
        self.filters = filters
        self.pointwise_initializer = initializers.get(pointwise_initializer)
        self.pointwise_regularizer = regularizers.get(pointwise_regularizer)
        self.pointwise_constraint = constraints.get(pointwise_constraint)

    def build(self, input_shape: tuple[int, ...]) -> None:
        """Create ``depthwise_kernel``, ``pointwise_kernel`` and ``bias`` (``filters``).

        >>> import minitape as tf
        >>> layer = tf.keras.layers.SeparableConv2D(5, 3, depth_multiplier=2)
        >>> layer.build((None, 8, 8, 3))
        >>> [tuple(w.shape) for w in layer.weights]
        [(3, 3, 3, 2), (1, 1, 6, 5), (5,)]
        """
        use_bias, self.use_bias = self.use_bias, False           # the bias comes after the pointwise step
        super().build(input_shape)
        self.use_bias = use_bias
        self.pointwise_kernel = self.add_weight((1, 1, input_shape[-1] * self.depth_multiplier, self.filters),
                                                self.pointwise_initializer, regularizer=self.pointwise_regularizer,
                                                constraint=self.pointwise_constraint, name="pointwise_kernel")
        self._bias(self.filters)

    def call(self, inputs: Tensor) -> Tensor:
        """``activation(conv2d(depthwise_conv2d(inputs, depthwise_kernel), pointwise_kernel) + bias)``.

        >>> import minitape as tf
        >>> layer = tf.keras.layers.SeparableConv2D(1, 2, depthwise_initializer="ones", pointwise_initializer="ones")
        >>> layer(tf.ones((1, 2, 2, 3))).numpy().ravel()
        array([12.], dtype=float32)
        """
        return self._finish(nn.conv2d(self._depthwise(inputs), self.pointwise_kernel, strides=1, padding="VALID"))
