"""``Conv2D``: a bank of learned filters slid over an NHWC image.

The layer owns ``kernel``, of shape ``(kernel_h, kernel_w, in_channels, filters)``, and
``bias`` (``filters``); its call is ``activation(tf.nn.conv2d(x, kernel) + bias)``.

>>> import minitape as tf
>>> conv = tf.keras.layers.Conv2D(8, 3, padding="same", activation="relu")
>>> conv(tf.ones((2, 5, 5, 3))).shape, tuple(conv.kernel.shape)
(TensorShape([2, 5, 5, 8]), (3, 3, 3, 8))
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minitape.dialect import nn
from minitape.core.tensor import Tensor
from minitape.keras import activations, initializers
from minitape.keras.layers import checks
from minitape.keras.layers.core import Layer, add_kernel_and_bias, kernel_and_bias_options


class Conv2D(Layer):
    """2-D convolution over the height and width of NHWC images: ``activation(conv2d(x, kernel) + bias)``.

    ``filters`` output channels; ``kernel_size``, ``strides`` and ``dilation_rate`` are an
    integer or a pair; ``padding`` is ``"valid"`` (Keras' default: no padding, the image
    shrinks) or ``"same"`` (zeros around, so stride 1 keeps the size).

    >>> import minitape as tf
    >>> conv = tf.keras.layers.Conv2D(2, (3, 3), strides=2, kernel_initializer="ones", name="c")
    >>> conv(tf.ones((1, 5, 5, 1))).numpy()[0, :, :, 0]           # each output sums a 3x3 window
    array([[9., 9.],
           [9., 9.]], dtype=float32)
    >>> [v.path for v in conv.variables]
    ['c/kernel', 'c/bias']
    """

    def __init__(self, filters: int, kernel_size: int | tuple[int, int], strides: int | tuple[int, int] = (1, 1),
                 padding: str = "valid", data_format: str | None = None,
                 dilation_rate: int | tuple[int, int] = (1, 1), activation: str | Callable | None = None,
                 use_bias: bool = True, kernel_initializer: str | Callable = "glorot_uniform",
                 bias_initializer: str | Callable = "zeros", kernel_regularizer: Any = None,
                 bias_regularizer: Any = None, kernel_constraint: Any = None, bias_constraint: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if isinstance(filters, bool) or not isinstance(filters, int) or filters <= 0:
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly positive value. "
                             f"Received filters={filters}.")
        self.filters = filters
        self.kernel_size = checks.pair(kernel_size, "kernel_size")
        self.strides = checks.pair(strides, "strides")
        self.dilation_rate = checks.pair(dilation_rate, "dilation_rate")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                             f"strides={self.strides} and dilation_rate={self.dilation_rate}")
        self.padding = checks.padding(padding)
        checks.channels_last(data_format)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        kernel_and_bias_options(self, kernel_regularizer, bias_regularizer, kernel_constraint, bias_constraint)

    def build(self, input_shape: tuple[int, ...]) -> None:
        """Create ``kernel`` (``kernel_size + (in_channels, filters)``) and ``bias`` (``filters``).

        >>> import minitape as tf
        >>> conv = tf.keras.layers.Conv2D(4, 3)
        >>> conv.build((None, 8, 8, 2))
        >>> tuple(conv.kernel.shape), tuple(conv.bias.shape)
        ((3, 3, 2, 4), (4,))
        """
        if len(input_shape) != 4:
            raise ValueError(f"Input 0 of layer '{self.name}' is incompatible with the layer: expected min_ndim=4, "
                             f"found ndim={len(input_shape)}. Full shape received: {tuple(input_shape)}")
        add_kernel_and_bias(self, (*self.kernel_size, input_shape[-1], self.filters))
        super().build(input_shape)

    def call(self, inputs: Tensor) -> Tensor:
        """``activation(tf.nn.conv2d(inputs, kernel, strides, padding, dilations) + bias)``.

        >>> import minitape as tf
        >>> conv = tf.keras.layers.Conv2D(1, 2, use_bias=False, kernel_initializer="ones")
        >>> conv.build((1, 3, 3, 1))
        >>> conv.call(tf.reshape(tf.range(9.0), (1, 3, 3, 1)))[0, :, :, 0].numpy()
        array([[ 8., 12.],
               [20., 24.]], dtype=float32)
        """
        checks.ndim(self, inputs, 4)
        checks.last_axis(self, inputs, self.kernel.shape[2])
        outputs = nn.conv2d(inputs, self.kernel, strides=self.strides, padding=self.padding.upper(),
                            dilations=self.dilation_rate)
        if self.bias is not None:
            outputs = outputs + self.bias
        return self.activation(outputs)
