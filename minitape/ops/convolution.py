"""2-D convolution as matrix products over the image read as one long row of pixels, and its two transposes.

Flatten a padded NHWC image into a matrix, one row of channels per pixel, row after row and image
after image.  With stride 1, the pixels that tap ``(i, j)`` of the filter reads, one per output
pixel in the same order, are then a *contiguous block* of that matrix starting ``i * width + j``
rows on (``width`` counting padded columns; dilations multiply ``i`` and ``j``).  So the
convolution is one matrix product per tap over blocks of one matrix, with nothing copied::

    Y = sum over taps (i, j) of  X[offset_ij : offset_ij + M] @ W[i, j]

``Y`` has a row for every pixel of the padded grid; the rows whose window ran off the edge of a
row or of an image are cropped away (13% more arithmetic for a 32x32 image and a 3x3 filter, and
no copy).  A stride ``(sh, sw)`` splits the padded image into its ``sh * sw`` phases (rows ``a,
a + sh, ...``, columns ``b, b + sw, ...``; together one copy of the image): each tap reads one
phase with stride 1, so the same sum works phase by phase (see ``Window.flat_taps``).  This is
im2col's one large product without im2col's copy of every window.  On NumPy (OpenBLAS's AVX-512
kernels, AMD Zen 5) copying the windows a block at a time (with stride 1, each row of taps once)
and multiplying once per tap row measured faster still: that is the fast path the three ops take
there (``im2col``).

It is linear in ``x`` and in ``W``, so each derivative is a transposed convolution, as in
TensorFlow's ``Conv2DBackpropInput`` and ``Conv2DBackpropFilter``:

* with respect to the input: ``G @ W[i, j]ᵀ`` added into each tap's block, then un-phased and cropped;
* with respect to the filters: ``X[offset_ij : offset_ij + M]ᵀ @ G`` for each tap.

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

import numpy as np

from minitape.core import arrays
from minitape.core.errors import InvalidArgumentError, UnimplementedError
from minitape.core.primitive import Joint, Op, apply
from minitape.core.state import first_order_numpy
from minitape.core.tensor import Tensor, wrap
from minitape.ops import im2col
from minitape.ops.arguments import pair
from minitape.ops.shapes import reshape
from minitape.ops.windows import Window, check_image, spatial


def _phases(xp, x, window):
    """The padded image's stride phases that taps read, each flattened to one row of channels per pixel."""
    padded, (sh, sw) = window.pad(x, grid=True), window.strides
    rows = math.prod(window.grid(x.shape[0]))
    return {(a, b): xp.reshape(padded[:, a::sh, b::sw, :], (rows, x.shape[3])) for a, b in window.phases()}


def _on_grid(xp, g, window):
    """Output pixels placed on the phase grid, where ``conv2d`` computed them, flattened; zeros where it cropped."""
    batch, height, width = window.grid(g.shape[0])
    grid = g
    if (height, width) != tuple(g.shape[1:3]):
        grid = arrays.full_beside(g, (batch, height, width, g.shape[3]), 0)
        grid[:, :g.shape[1], :g.shape[2], :] = g
    return xp.reshape(grid, (batch * height * width, g.shape[3]))


# Fast path (NumPy, for what im2col leaves here: strided input gradients, int32, float16): the rows are
# taken a block at a time, every tap's product for one block before the next, so that the block's input
# and output stay in the CPU's cache across the taps. Paired on batch 32, 32x32x16 -> 16, 3x3, 1 thread:
# 0.60-0.77x the time of all rows at once.  A GPU (CuPy) wants few large products instead: there the block
# is all the rows.
_BLOCK_ROWS = 4096


def _blocks(xp, rows):
    """The ``(start, stop)`` of each block of ``rows`` rows computed together (see above)."""
    step = _BLOCK_ROWS if xp is np else max(rows, 1)
    return [(start, min(start + step, rows)) for start in range(0, rows, step)]


def _conv2d_forward(xp, x, filters, window):
    """``Y = sum over taps of X[offset : offset + M] @ W[i, j]``, one row per pixel of the grid, then cropped."""
    if im2col.applies(xp, x, filters):                  # fast path (NumPy): see im2col
        return im2col.conv2d(x, filters, window)
    phases, rows, batch = _phases(xp, x, window), window.block(x.shape[0]), x.shape[0]
    out = arrays.full_beside(x, (math.prod(window.grid(batch)), filters.shape[3]), 0)
    taps = list(window.flat_taps())
    for start, stop in _blocks(xp, rows):
        for i, j, phase, offset in taps:
            out[start:stop, :] += xp.matmul(phases[phase][start + offset:stop + offset, :], filters[i, j, ...])
    out = xp.reshape(out, (*window.grid(batch), filters.shape[3]))
    if out.shape[1:3] == window.output:
        return out
    return xp.asarray(out[:, :window.output[0], :window.output[1], :], copy=True)   # not a view keeping the grid


def _input_grad_forward(xp, g, filters, window, shape):
    """Each tap's ``G @ W[i, j]ᵀ`` added into the block of its phase it read; the phases interleaved, cropped."""
    if im2col.applies(xp, g, filters) and im2col.transposed(window, shape):     # fast path (NumPy), stride 1
        return im2col.input_grad(g, filters, im2col.transposed(window, shape))
    grid, rows = window.grid(shape[0]), window.block(shape[0])
    upstream = _on_grid(xp, g, window)[:rows, :]
    phases = {phase: arrays.full_beside(g, (math.prod(grid), shape[3]), 0) for phase in window.phases()}
    taps = list(window.flat_taps())
    for start, stop in _blocks(xp, rows):
        for i, j, phase, offset in taps:
            phases[phase][start + offset:stop + offset, :] += xp.matmul(upstream[start:stop, :], filters[i, j, ...].mT)
    (sh, sw), padded_shape = window.strides, window.padded_shape(shape[0], shape[3], grid=True)
    if (sh, sw) == (1, 1) and phases:                   # one phase: the padded image itself
        padded = xp.reshape(phases[0, 0], padded_shape)
    else:
        padded = arrays.full_beside(g, padded_shape, 0)
        for (a, b), phase in phases.items():
            padded[:, a::sh, b::sw, :] = xp.reshape(phase, (*grid, shape[3]))
    return padded[window.inside()]


def _filter_grad_forward(xp, x, g, window, shape):
    """``dW[i, j] = X[offset : offset + M]ᵀ @ G``: the input values each tap read, against the gradients they fed."""
    if im2col.applies(xp, x, g):                        # fast path (NumPy): see im2col
        return im2col.filter_grad(x, g, window, shape)
    phases, rows = _phases(xp, x, window), window.block(x.shape[0])
    upstream = _on_grid(xp, g, window)[:rows, :]
    grad = arrays.full_beside(x, shape, 0)
    taps = list(window.flat_taps())
    for start, stop in _blocks(xp, rows):
        for i, j, phase, offset in taps:
            grad[i, j, ...] += xp.matmul(phases[phase][start + offset:stop + offset, :].mT, upstream[start:stop, :])
    return grad


def _conv(x: Tensor, filters: Tensor, window: Window) -> Tensor:
    return apply(_CONV2D, (x, filters), {"window": window})


def _input_grad(g: Tensor, filters: Tensor, window: Window, shape: tuple) -> Tensor:
    return apply(_CONV2D_INPUT_GRAD, (g, filters), {"window": window, "shape": tuple(shape)})


def _filter_grad(x: Tensor, g: Tensor, window: Window, shape: tuple) -> Tensor:
    return apply(_CONV2D_FILTER_GRAD, (x, g), {"window": window, "shape": tuple(shape)})


def _conv2d_vjps(wanted: tuple[bool, bool], g: Tensor, ans: Any, x: Tensor, filters: Tensor,
                 window: Window) -> tuple[Tensor | None, Tensor | None]:
    """The input's gradient (a transposed convolution) and the filters' (their backprop op), as ``wanted``."""
    values = (g._value, x._value, filters._value)
    # Fast path (NumPy, first order): with no tape recording the backward pass, both gradients come from one
    # copy of the upstream gradient's windows (im2col.gradients).  Batch 32, 32x32, 3x3, 16 -> 16 channels,
    # 1 thread: both in 2.3 ms instead of 2.9.
    if all(wanted) and first_order_numpy(g, x, filters) and im2col.applies(np, *values):
        transposed = im2col.transposed(window, x.shape)
        if transposed is not None:
            dx, dw = arrays.quietly(im2col.gradients, *values[1:], values[0], transposed)
            return wrap(dx), wrap(dw)
    return (_input_grad(g, filters, window, x.shape) if wanted[0] else None,
            _filter_grad(x, g, window, filters.shape) if wanted[1] else None)


_CONV2D = Op("conv2d", _conv2d_forward, Joint(_conv2d_vjps), keep=(0, 1))

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
