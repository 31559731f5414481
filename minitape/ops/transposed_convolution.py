"""``conv2d_transpose``: the transpose of ``conv2d``, which its input gradient already is.

``conv2d`` is linear in its input, ``y = C x``; its transpose ``Cᵀ g`` spreads each output
pixel's channels back over the input pixels its window read, weighted by the filter.  That is
exactly the gradient of ``conv2d`` with respect to its input (see ``convolution``), and exactly
what TF's ``tf.nn.conv2d_transpose`` computes (its kernel is ``Conv2DBackpropInput``).  So this
module adds no op of its own: it works out which ``conv2d`` it is the transpose of (the one
from an image of ``output_shape`` to an image of the input's shape) and calls that
convolution's input gradient, whose derivatives, of any order, are convolutions again.

Upsampling with a stride: each input pixel paints a ``3x3`` copy of the filter, 2 pixels apart.

>>> import minitape as tf
>>> x = tf.ones((1, 2, 2, 1))
>>> tf.nn.conv2d_transpose(x, tf.ones((3, 3, 1, 1)), (1, 5, 5, 1), strides=2, padding="VALID")[0, :, :, 0].numpy()
array([[1., 1., 2., 1., 1.],
       [1., 1., 2., 1., 1.],
       [2., 2., 4., 2., 2.],
       [1., 1., 2., 1., 1.],
       [1., 1., 2., 1., 1.]], dtype=float32)
"""
from __future__ import annotations

from typing import Any

from minitape.core.errors import InvalidArgumentError
from minitape.core.tensor import Tensor
from minitape.ops.arguments import ints, pair
from minitape.ops.convolution import _input_grad
from minitape.ops.windows import Window, check_image, spatial


def conv2d_transpose(input: Any, filters: Any, output_shape: Any, strides: Any, padding: str = "SAME",
                     data_format: str = "NHWC", dilations: Any = None, name: str | None = None) -> Tensor:
    """The transpose of ``conv2d``: NHWC ``input`` to images of ``output_shape`` (``[batch, height, width, out]``).

    ``filters`` has shape ``[height, width, out_channels, in_channels]`` (the transposed ``conv2d``'s
    filters: its input channels are this op's output).  The ``conv2d`` with these ``strides``,
    ``padding`` and ``dilations`` applied to an image of ``output_shape`` must give an image of the
    input's shape; each output size has up to ``stride`` such sizes, and ``output_shape`` picks one.

    >>> import minitape as tf
    >>> tf.nn.conv2d_transpose(tf.ones((2, 3, 3, 4)), tf.ones((3, 3, 8, 4)), (2, 6, 6, 8), strides=2).shape
    TensorShape([2, 6, 6, 8])
    >>> tf.nn.conv2d_transpose(tf.ones((2, 3, 3, 4)), tf.ones((3, 3, 8, 4)), (2, 8, 8, 8), strides=2)
    Traceback (most recent call last):
    ...
    minitape.core.errors.InvalidArgumentError: conv2d_transpose: an image of output_shape (2, 8, 8, 8) convolved with strides (2, 2) and padding 'SAME' has 4x4 pixels, not the input's 3x3; give an output_shape whose convolution has the input's size.
    """
    x, filters = pair("conv2d_transpose", input, filters)
    check_image("conv2d_transpose", x, data_format)
    shape = ints(output_shape, "conv2d_transpose", "output_shape")
    if len(shape) != 4 or filters.ndim != 4:
        raise InvalidArgumentError(f"conv2d_transpose: output_shape must have 4 entries and filters 4 axes "
                                   f"[height, width, out_channels, in_channels]; got output_shape {shape} and "
                                   f"filters of shape {tuple(filters.shape)}.")
    if x.shape[3] != filters.shape[3]:
        raise InvalidArgumentError(f"Conv2DCustomBackpropInput: input depth must be evenly divisible by filter depth "
                                   f"(conv2d_transpose: the input has {x.shape[3]} channels, the filters' last axis "
                                   f"{filters.shape[3]}; they must be equal).")
    if shape[3] != filters.shape[2]:
        raise InvalidArgumentError(f"Conv2DCustomBackpropInput: filter and out_backprop must have the same out_depth "
                                   f"(conv2d_transpose: output_shape has {shape[3]} channels, the filters' third axis "
                                   f"{filters.shape[2]}).")
    strides = spatial(strides, "strides", "conv2d_transpose")
    dilations = spatial(1 if dilations is None else dilations, "dilations", "conv2d_transpose")
    window = Window.sliding("conv2d_transpose", shape[1:3], tuple(filters.shape[:2]), strides, padding, dilations)
    if window.output != tuple(x.shape[1:3]) or shape[0] != x.shape[0]:
        raise InvalidArgumentError(
            f"conv2d_transpose: an image of output_shape {shape} convolved with strides {strides} and padding "
            f"{padding!r} has {window.output[0]}x{window.output[1]} pixels, not the input's "
            f"{x.shape[1]}x{x.shape[2]}; give an output_shape whose convolution has the input's size.")
    return _input_grad(x, filters, window, shape)
