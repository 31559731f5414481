"""2-D convolution as a sum of shifted matrix products, and its two transposes.

``conv2d(x, W)`` with an ``(h, w)`` filter is a sum of ``h * w`` matrix products, one per tap
``(i, j)`` of the filter: the strided, dilated slice of the padded input that the tap reads
(one row of channels per output pixel) times the tap's ``in_channels x out_channels`` matrix
``W[i, j]`` (see ``windows`` for the slices)::

    y = sum over (i, j) of  slice_ij(pad(x)) @ W[i, j]

It is linear in ``x`` and in ``W``, so each derivative is a transposed convolution, as in
TensorFlow's ``Conv2DBackpropInput`` and ``Conv2DBackpropFilter``:

* with respect to the input: ``g @ W[i, j]ᵀ`` for each tap, added back into the padded shape
  where the tap's slice was read (the transpose of a strided slice), then cropped;
* with respect to the filters: ``slice_ij(pad(x))ᵀ @ g`` for each tap.

All three ops are products of two arguments, and each one's VJPs are the other two: the family
is closed, so derivatives of any order stay convolutions.

>>> import minitape as tf
>>> x = tf.reshape(tf.range(9.0), (1, 3, 3, 1))
>>> tf.nn.conv2d(x, tf.ones((2, 2, 1, 1)), strides=1, padding="VALID")[0, :, :, 0].numpy()
array([[ 8., 12.],
       [20., 24.]], dtype=float32)
"""
from __future__ import annotations

import math
from typing import Any

from minitape.core import arrays
from minitape.core.errors import InvalidArgumentError, UnimplementedError
from minitape.core.primitive import Op, apply
from minitape.core.tensor import Tensor
from minitape.ops.arguments import pair
from minitape.ops.shapes import reshape
from minitape.ops.windows import Window, check_image, spatial


def _pixels(xp, image):
    """An NHWC array as a matrix: one row of channels per pixel (counted, not ``-1``: there may be no channels)."""
    return xp.reshape(image, (math.prod(image.shape[:-1]), image.shape[-1]))


def _conv2d_forward(xp, x, filters, window):
    """``y = sum over taps (i, j) of slice_ij(pad(x)) @ W[i, j]``, with one row per output pixel."""
    padded = window.pad(x)
    out = arrays.full_beside(x, (x.shape[0] * window.output[0] * window.output[1], filters.shape[3]), 0)
    for i, j, key in window.taps():
        out += xp.matmul(_pixels(xp, padded[key]), filters[i, j, ...])
    return xp.reshape(out, (x.shape[0], *window.output, filters.shape[3]))


def _input_grad_forward(xp, g, filters, window, shape):
    """Each tap's ``g @ W[i, j]ᵀ`` added into the padded input where the tap's slice was read; then cropped."""
    padded = arrays.full_beside(g, window.padded_shape(shape[0], shape[3]), 0)
    rows = _pixels(xp, g)
    for i, j, key in window.taps():
        padded[key] += xp.reshape(xp.matmul(rows, filters[i, j, ...].mT), (shape[0], *window.output, shape[3]))
    return padded[window.inside()]


def _filter_grad_forward(xp, x, g, window, shape):
    """``dW[i, j] = slice_ij(pad(x))ᵀ @ g``: the input values each tap read, against the gradients they fed."""
    padded = window.pad(x)
    rows = _pixels(xp, g)
    grad = arrays.full_beside(x, shape, 0)
    for i, j, key in window.taps():
        grad[i, j, ...] = xp.matmul(_pixels(xp, padded[key]).mT, rows)
    return grad


def _conv(x: Tensor, filters: Tensor, window: Window) -> Tensor:
    return apply(_CONV2D, (x, filters), {"window": window})


def _input_grad(g: Tensor, filters: Tensor, window: Window, shape: tuple) -> Tensor:
    return apply(_CONV2D_INPUT_GRAD, (g, filters), {"window": window, "shape": tuple(shape)})


def _filter_grad(x: Tensor, g: Tensor, window: Window, shape: tuple) -> Tensor:
    return apply(_CONV2D_FILTER_GRAD, (x, g), {"window": window, "shape": tuple(shape)})


_CONV2D = Op("conv2d", _conv2d_forward, (
    lambda g, ans, x, filters, window: _input_grad(g, filters, window, x.shape),
    lambda g, ans, x, filters, window: _filter_grad(x, g, window, filters.shape),
), keep=(0, 1))

# input_grad(g, W) is linear in g and in W: the transpose in g is conv2d again, and in W it pairs
# the upstream gradient's slices with g, a filter gradient.
_CONV2D_INPUT_GRAD = Op("conv2d_backprop_input", _input_grad_forward, (
    lambda u, ans, g, filters, window, shape: _conv(u, filters, window),
    lambda u, ans, g, filters, window, shape: _filter_grad(u, g, window, filters.shape),
), keep=(0, 1))

_CONV2D_FILTER_GRAD = Op("conv2d_backprop_filter", _filter_grad_forward, (
    lambda u, ans, x, g, window, shape: _input_grad(g, u, window, x.shape),
    lambda u, ans, x, g, window, shape: _conv(x, u, window),
), keep=(0, 1))


def conv2d(input: Any, filters: Any, strides: Any, padding: Any, data_format: str = "NHWC",
           dilations: Any = None, name: str | None = None) -> Tensor:
    """Convolve NHWC images with ``filters`` of shape ``[height, width, in_channels, out_channels]``.

    ``strides`` and ``dilations`` are an int, ``[h, w]`` or ``[1, h, w, 1]``; ``padding`` is
    ``'SAME'`` (as many outputs as ``ceil(size / stride)``, zeros around), ``'VALID'`` (none) or
    ``[[0, 0], [top, bottom], [left, right], [0, 0]]``.  Leading axes beyond one batch axis are
    batch axes too.

    >>> x = tf.reshape(tf.range(16.0), (1, 4, 4, 1))
    >>> tf.nn.conv2d(x, tf.ones((3, 3, 1, 2)), strides=2, padding="SAME").shape
    TensorShape([1, 2, 2, 2])
    >>> tf.nn.conv2d(x, tf.ones((3, 3, 2, 2)), strides=1, padding="SAME")
    Traceback (most recent call last):
    ...
    minitape.core.errors.InvalidArgumentError: conv2d: input depth must be evenly divisible by filter depth: 1 vs 2 (the input's last axis must equal the filters' third axis, in_channels).
    """
    x, filters = pair("conv2d", input, filters)
    check_image("conv2d", x, data_format, more_batch_axes=True)
    if filters.ndim != 4:
        raise InvalidArgumentError(f"conv2d: filters must be 4-dimensional [height, width, in_channels, "
                                   f"out_channels], got shape {tuple(filters.shape)}.")
    channels, depth = x.shape[-1], filters.shape[2]
    if depth == 0:
        raise InvalidArgumentError(f"conv2d: filter depth must be strictly positive, got 0; the filters' third axis "
                                   f"(in_channels) must equal the input's channels, and an image has at least one.")
    if channels != depth:
        if depth and channels % depth == 0:
            raise UnimplementedError(f"conv2d: grouped convolution ({channels} input channels, filters of depth "
                                     f"{depth}) is not supported; give filters of depth {channels}.")
        raise InvalidArgumentError(f"conv2d: input depth must be evenly divisible by filter depth: {channels} vs "
                                   f"{depth} (the input's last axis must equal the filters' third axis, in_channels).")
    if not (x.dtype.is_floating or x.dtype.name == "int32"):
        raise InvalidArgumentError(f"conv2d: input must be float16, float32, float64 or int32, got {x.dtype.name}.")
    strides = spatial(strides, "strides", "conv2d")
    dilations = spatial(1 if dilations is None else dilations, "dilations", "conv2d")
    window = Window.sliding("conv2d", tuple(x.shape[-3:-1]), tuple(filters.shape[:2]), strides, padding, dilations)
    if 0 in filters.shape[:2] and math.prod(x.shape[:-3]) * math.prod(window.output) * filters.shape[3]:
        raise InvalidArgumentError(f"conv2d: filter must not have zero elements (i.e. all dimensions must be "
                                   f"non-zero); filters of shape {tuple(filters.shape)} have no taps to read with.")
    if x.ndim == 4:
        return _conv(x, filters, window)
    batch = tuple(x.shape[:-3])           # extra batch axes: fold them into one, and back
    y = _conv(reshape(x, (-1, *x.shape[-3:])), filters, window)
    return reshape(y, batch + tuple(y.shape[1:]))
