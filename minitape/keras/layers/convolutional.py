"""Convolution layers: ``Conv1D`` over sequences, ``Conv2D`` over NHWC images, and ``Conv2DTranspose``.

Each owns ``kernel`` and ``bias`` (``filters``) and computes ``activation(conv(x, kernel) + bias)``:

* ``Conv2D``'s kernel is ``(kernel_h, kernel_w, in_channels, filters)``: ``tf.nn.conv2d``;
* ``Conv1D``'s is ``(kernel_size, in_channels, filters)``: a ``Conv2D`` over an image one pixel
  high (a ``(batch, steps, channels)`` sequence is a ``(batch, 1, steps, channels)`` image), and
  its ``"causal"`` padding puts all the zeros before the first step, so step ``t`` reads no later step;
* ``Conv2DTranspose``'s is ``(kernel_h, kernel_w, filters, in_channels)``, the kernel of the
  ``Conv2D`` it is the transpose of: ``tf.nn.conv2d_transpose``, which grows an image by its strides.

>>> import minitape as tf
>>> conv = tf.keras.layers.Conv2D(8, 3, padding="same", activation="relu")
>>> conv(tf.ones((2, 5, 5, 3))).shape, tuple(conv.kernel.shape)
(TensorShape([2, 5, 5, 8]), (3, 3, 3, 8))
>>> tf.keras.layers.Conv1D(4, 3, padding="causal")(tf.ones((2, 10, 3))).shape
TensorShape([2, 10, 4])
>>> tf.keras.layers.Conv2DTranspose(4, 3, strides=2, padding="same")(tf.ones((2, 5, 5, 3))).shape
TensorShape([2, 10, 10, 4])
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minitape import ops
from minitape.dialect import nn
from minitape.core.tensor import Tensor
from minitape.keras import activations, initializers
from minitape.keras.layers import checks
from minitape.keras.layers.core import Layer, add_kernel_and_bias, kernel_and_bias_options


class _Conv(Layer):
    """What the convolutions share: their arguments, checked as Keras' ``BaseConv`` checks them, and their weights.

    ``rank`` is the number of spatial axes (1 for sequences, 2 for images).
    """

    rank = 2

    def __init__(self, filters: int, kernel_size: int | tuple[int, ...], strides: int | tuple[int, ...] = 1,
                 padding: str = "valid", data_format: str | None = None, dilation_rate: int | tuple[int, ...] = 1,
                 groups: int = 1, activation: str | Callable | None = None, use_bias: bool = True,
                 kernel_initializer: str | Callable = "glorot_uniform", bias_initializer: str | Callable = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None, kernel_constraint: Any = None,
                 bias_constraint: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if isinstance(filters, bool) or not isinstance(filters, int) or filters <= 0:
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly positive value. "
                             f"Received filters={filters}.")
        self.filters = filters
        self.kernel_size = checks.integers(kernel_size, self.rank, "kernel_size")
        self.strides = checks.integers(strides, self.rank, "strides")
        self.dilation_rate = checks.integers(dilation_rate, self.rank, "dilation_rate")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                             f"strides={self.strides} and dilation_rate={self.dilation_rate}")
        self.padding = checks.padding(padding, causal=self.rank == 1)
        if groups != 1:
            raise ValueError(f"{type(self).__name__}: groups={groups} is not supported by minitape (nor by TF's CPU "
                             f"kernels); use groups=1, or one layer per group joined with tf.concat.")
        checks.channels_last(data_format)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        kernel_and_bias_options(self, kernel_regularizer, bias_regularizer, kernel_constraint, bias_constraint)

    def kernel_shape(self, channels: int) -> tuple[int, ...]:
        """The kernel's shape for inputs of ``channels`` channels: ``kernel_size + (channels, filters)``.

        >>> import minitape as tf
        >>> tf.keras.layers.Conv1D(8, 5).kernel_shape(3)
        (5, 3, 8)
        """
        return (*self.kernel_size, channels, self.filters)

    def build(self, input_shape: tuple[int, ...]) -> None:
        """Create ``kernel`` (see ``kernel_shape``) and ``bias`` (``filters``).

        >>> import minitape as tf
        >>> conv = tf.keras.layers.Conv2D(4, 3)
        >>> conv.build((None, 8, 8, 2))
        >>> tuple(conv.kernel.shape), tuple(conv.bias.shape)
        ((3, 3, 2, 4), (4,))
        """
        if len(input_shape) != self.rank + 2:
            raise ValueError(f"Input 0 of layer '{self.name}' is incompatible with the layer: expected "
                             f"min_ndim={self.rank + 2}, found ndim={len(input_shape)}. Full shape received: "
                             f"{tuple(input_shape)}")
        add_kernel_and_bias(self, self.kernel_shape(input_shape[-1]), self.filters)
        super().build(input_shape)

    def call(self, inputs: Tensor) -> Tensor:
        """``activation(convolve(inputs, kernel) + bias)``.

        >>> import minitape as tf
        >>> conv = tf.keras.layers.Conv2D(1, 2, use_bias=False, kernel_initializer="ones")
        >>> conv.build((1, 3, 3, 1))
        >>> conv.call(tf.reshape(tf.range(9.0), (1, 3, 3, 1)))[0, :, :, 0].numpy()
        array([[ 8., 12.],
               [20., 24.]], dtype=float32)
        """
        checks.ndim(self, inputs, self.rank + 2)
        checks.last_axis(self, inputs, self.in_channels())
        outputs = self.convolve(inputs)
        if self.bias is not None:
            outputs = outputs + self.bias
        return self.activation(outputs)

    def in_channels(self) -> int:
        """How many channels the built kernel reads (its second last axis; ``Conv2DTranspose``'s last).

        >>> import minitape as tf
        >>> conv = tf.keras.layers.Conv2D(8, 3)
        >>> conv.build((None, 5, 5, 2))
        >>> conv.in_channels()
        2
        """
        return self.kernel.shape[-2]

    def convolve(self, inputs: Tensor) -> Tensor:
        """The convolution itself, before the bias: ``tf.nn.conv2d`` here.

        >>> import minitape as tf
        >>> conv = tf.keras.layers.Conv2D(1, 3, padding="same", kernel_initializer="ones", bias_initializer="ones")
        >>> conv.build((None, 3, 3, 1))
        >>> conv.convolve(tf.ones((1, 3, 3, 1)))[0, :, :, 0].numpy()        # no bias yet: window counts
        array([[4., 6., 4.],
               [6., 9., 6.],
               [4., 6., 4.]], dtype=float32)
        """
        return nn.conv2d(inputs, self.kernel, strides=self.strides, padding=self.padding.upper(),
                         dilations=self.dilation_rate)


class Conv2D(_Conv):
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


class Conv1D(_Conv):
    """1-D convolution along the steps of ``(batch, steps, channels)`` sequences.

    ``padding="causal"`` pads ``dilation_rate * (kernel_size - 1)`` zeros before the first step
    only, so output step ``t`` depends on input steps ``<= t``: the convolution of WaveNet, and of
    a language model that must not read ahead.

    >>> import minitape as tf
    >>> conv = tf.keras.layers.Conv1D(1, 2, padding="causal", kernel_initializer="ones", use_bias=False)
    >>> conv(tf.reshape(tf.range(1.0, 5.0), (1, 4, 1)))[0, :, 0].numpy()     # x[t - 1] + x[t]
    array([1., 3., 5., 7.], dtype=float32)
    """

    rank = 1

    def convolve(self, inputs: Tensor) -> Tensor:
        """A ``conv2d`` of the sequence as an image one pixel high, after padding a causal convolution's past.

        >>> import minitape as tf
        >>> conv = tf.keras.layers.Conv1D(1, 3, dilation_rate=2, padding="causal", kernel_initializer="ones")
        >>> conv.build((None, 6, 1))
        >>> conv.convolve(tf.ones((1, 6, 1)))[0, :, 0].numpy()    # reads steps t, t - 2, t - 4
        array([1., 1., 2., 2., 3., 3.], dtype=float32)
        """
        padding = self.padding
        if padding == "causal":
            inputs = ops.pad(inputs, [[0, 0], [self.dilation_rate[0] * (self.kernel_size[0] - 1), 0], [0, 0]])
            padding = "valid"
        image = ops.expand_dims(inputs, 1)
        outputs = nn.conv2d(image, ops.expand_dims(self.kernel, 0), strides=(1, *self.strides),
                            padding=padding.upper(), dilations=(1, *self.dilation_rate))
        return ops.squeeze(outputs, 1)


class Conv2DTranspose(_Conv):
    """The transpose of a ``Conv2D``: each input pixel paints the kernel into an image ``strides`` times larger.

    With ``padding="same"`` the output has ``input * strides`` pixels a side; with ``"valid"``,
    ``(input - 1) * strides + max(kernel, strides)`` (the kernel's dilated extent).  The kernel is
    ``(kernel_h, kernel_w, filters, in_channels)``, as Keras 3 orders it.

    >>> import minitape as tf
    >>> up = tf.keras.layers.Conv2DTranspose(1, 2, strides=2, kernel_initializer="ones", name="up")
    >>> up(tf.reshape(tf.range(1.0, 5.0), (1, 2, 2, 1)))[0, :, :, 0].numpy()   # each pixel a 2x2 block
    array([[1., 1., 2., 2.],
           [1., 1., 2., 2.],
           [3., 3., 4., 4.],
           [3., 3., 4., 4.]], dtype=float32)
    >>> [(v.path, tuple(v.shape)) for v in up.variables]
    [('up/kernel', (2, 2, 1, 1)), ('up/bias', (1,))]
    """

    def __init__(self, filters: int, kernel_size: int | tuple[int, int], strides: int | tuple[int, int] = 1,
                 padding: str = "valid", output_padding: int | tuple[int, int] | None = None,
                 data_format: str | None = None, dilation_rate: int | tuple[int, int] = 1, **kwargs: Any) -> None:
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate, **kwargs)
        self.output_padding = None if output_padding is None else checks.non_negative_pair(output_padding, "output_padding")
        for i, (extra, stride) in enumerate(zip(self.output_padding or (), self.strides)):
            if extra >= stride:
                raise ValueError(f"`output_padding` must be strictly less than `strides` for all dimensions. At "
                                 f"dimension {i}, `output_padding` is {extra} but `strides` is {stride}. Received: "
                                 f"output_padding={self.output_padding}, strides={self.strides}")

    def kernel_shape(self, channels: int) -> tuple[int, ...]:
        """``kernel_size + (filters, channels)``: the filters of the ``Conv2D`` from the output to the input.

        >>> import minitape as tf
        >>> tf.keras.layers.Conv2DTranspose(8, 3).kernel_shape(2)
        (3, 3, 8, 2)
        """
        return (*self.kernel_size, self.filters, channels)

    def in_channels(self) -> int:
        """How many channels the built kernel reads: its last axis.

        >>> import minitape as tf
        >>> up = tf.keras.layers.Conv2DTranspose(8, 3)
        >>> up.build((None, 5, 5, 2))
        >>> up.in_channels()
        2
        """
        return self.kernel.shape[-1]

    def output_size(self, size: int, axis: int) -> int:
        """The output's extent along spatial ``axis`` for an input of ``size``: Keras 3's rule.

        ``output_padding`` (less than the stride) picks among the sizes whose convolution has ``size``
        pixels: ``(size - 1) * stride + kernel + output_padding`` ("valid"), or with ``kernel % 2`` ("same").

        >>> import minitape as tf
        >>> tf.keras.layers.Conv2DTranspose(1, 5, strides=2).output_size(4, 0)    # (4 - 1) * 2 + 5
        11
        """
        reach, stride = (self.kernel_size[axis] - 1) * self.dilation_rate[axis] + 1, self.strides[axis]
        if self.output_padding is not None:
            extent = reach % 2 if self.padding == "same" else reach
            return (size - 1) * stride + extent + self.output_padding[axis]
        return size * stride if self.padding == "same" else (size - 1) * stride + max(reach, stride)

    def convolve(self, inputs: Tensor) -> Tensor:
        """``tf.nn.conv2d_transpose`` to the output's shape (see ``output_size``).

        >>> import minitape as tf
        >>> up = tf.keras.layers.Conv2DTranspose(2, 3, strides=2)
        >>> up.build((None, 4, 4, 1))
        >>> up.convolve(tf.ones((1, 4, 4, 1))).shape                # (4 - 1) * 2 + 3 a side
        TensorShape([1, 9, 9, 2])
        """
        shape = (inputs.shape[0], self.output_size(inputs.shape[1], 0), self.output_size(inputs.shape[2], 1),
                 self.filters)
        return nn.conv2d_transpose(inputs, self.kernel, shape, strides=self.strides, padding=self.padding.upper(),
                                   dilations=self.dilation_rate)

