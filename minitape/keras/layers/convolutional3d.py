"""Layers over volumes ``(batch, depth, height, width, channels)`` (video clips, scans): ``Conv3D`` and the
global poolings ``GlobalAveragePooling3D``, ``GlobalMaxPooling3D``.

``Conv3D`` is written with ``tf.nn.conv2d``: output slice ``d`` sums, over the kernel's depth ``k``,
the 2-D convolution of input slice ``d * stride + k`` with the kernel's slice ``k``, so its
gradients come from ``conv2d``'s.

>>> import minitape as tf
>>> conv = tf.keras.layers.Conv3D(4, 3, padding="same")
>>> conv(tf.ones((2, 5, 6, 6, 1))).shape, tuple(conv.kernel.shape)
(TensorShape([2, 5, 6, 6, 4]), (3, 3, 3, 1, 4))
"""
from __future__ import annotations

from typing import Any

from minitape import ops
from minitape.core.tensor import Tensor
from minitape.dialect import nn
from minitape.keras.layers import checks
from minitape.keras.layers.convolutional import _Conv
from minitape.keras.layers.pooling import _GlobalPooling2D


def conv3d(inputs: Tensor, kernel: Tensor, strides: tuple[int, int, int], padding: str,
           dilations: tuple[int, int, int] = (1, 1, 1)) -> Tensor:
    """Convolve volumes ``(n, d, h, w, c)`` with ``kernel`` ``(kd, kh, kw, c, filters)``; ``padding`` is
    ``"valid"`` or ``"same"``, as ``tf.nn.conv3d``.

    >>> import minitape as tf
    >>> from minitape.keras.layers.convolutional3d import conv3d
    >>> conv3d(tf.ones((1, 3, 3, 3, 1)), tf.ones((2, 2, 2, 1, 1)), (1, 1, 1), "valid").shape
    TensorShape([1, 2, 2, 2, 1])
    """
    depth, (size, stride, dilation) = inputs.shape[1], (kernel.shape[0], strides[0], dilations[0])
    reach = (size - 1) * dilation + 1
    if padding == "same":     # TF's SAME: the extra zero, if any, after the end
        outputs = -(-depth // stride)
        total = max((outputs - 1) * stride + reach - depth, 0)
        inputs = ops.pad(inputs, [[0, 0], [total // 2, total - total // 2], [0, 0], [0, 0], [0, 0]])
    count = (inputs.shape[1] - reach) // stride + 1
    summed = None
    for k in range(size):
        start = k * dilation
        slices = inputs[:, start:start + (count - 1) * stride + 1:stride]      # (n, count, h, w, c)
        flat = ops.reshape(slices, (-1, *slices.shape[2:]))
        out = nn.conv2d(flat, kernel[k], strides=strides[1:], padding=padding.upper(), dilations=dilations[1:])
        out = ops.reshape(out, (len(inputs), count, *out.shape[1:]))
        summed = out if summed is None else summed + out
    return summed


class Conv3D(_Conv):
    """3-D convolution over depth, height and width: ``activation(conv3d(x, kernel) + bias)``, the kernel
    ``(kd, kh, kw, in_channels, filters)``.

    >>> import minitape as tf
    >>> tf.keras.layers.Conv3D(2, (2, 3, 3), strides=(2, 1, 1))(tf.ones((1, 4, 5, 5, 3))).shape
    TensorShape([1, 2, 3, 3, 2])
    """

    rank = 3

    def convolve(self, inputs: Tensor) -> Tensor:
        """``conv2d`` of each depth slice with each kernel slice, summed over the kernel's depth.

        >>> import minitape as tf
        >>> conv = tf.keras.layers.Conv3D(1, 2, use_bias=False, kernel_initializer="ones")
        >>> conv.build((None, 2, 2, 2, 1))
        >>> conv.convolve(tf.ones((1, 2, 2, 2, 1))).numpy().ravel()
        array([8.], dtype=float32)
        """
        return conv3d(inputs, self.kernel, self.strides, self.padding, self.dilation_rate)


class GlobalAveragePooling3D(_GlobalPooling2D):
    """The mean over depth, height and width: one value per channel.

    >>> import minitape as tf
    >>> tf.keras.layers.GlobalAveragePooling3D()(tf.ones((2, 3, 4, 4, 5))).shape
    TensorShape([2, 5])
    """

    def call(self, inputs: Tensor) -> Tensor:
        """The reduction over axes 1, 2 and 3.

        >>> import minitape as tf
        >>> tf.keras.layers.GlobalMaxPooling3D(keepdims=True).call(tf.ones((2, 3, 4, 4, 5))).shape
        TensorShape([2, 1, 1, 1, 5])
        """
        checks.ndim(self, inputs, 5)
        return self.reduce(inputs, axis=[1, 2, 3], keepdims=self.keepdims)


class GlobalMaxPooling3D(GlobalAveragePooling3D):
    """The largest value over depth, height and width: one value per channel.

    >>> import minitape as tf
    >>> tf.keras.layers.GlobalMaxPooling3D()(tf.reshape(tf.range(8.0), (1, 2, 2, 1, 2))).numpy()
    array([[6., 7.]], dtype=float32)
    """

    reduce = staticmethod(ops.reduce_max)


GlobalAvgPool3D, GlobalMaxPool3D = GlobalAveragePooling3D, GlobalMaxPooling3D
