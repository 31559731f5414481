"""Convolution's fast path on NumPy: the windows copied into the rows of a matrix (im2col), then products.

Just an optimization of ``convolution``'s three ops, whose per-tap products are the algorithm to
read (and the path on other backends).  On NumPy the windows of a padded NHWC image are a *view*
of it, made without copying: of shape ``(batch, out_height, out_width, kernel_height, kernel_width,
channels)``, each output pixel's window at its place, the taps ``dilations`` apart and the windows
``strides`` apart.  Copied, a block of images of that view is the matrix of windows, one row per
output pixel; the filters are a ``(taps * channels, out_channels)`` matrix, and

    Y[block] = windows(X)[block] @ W            dW = sum over blocks of windows(X)[block]ᵀ @ G[block]

one large product per block instead of one small product per tap.  A block holds about ``BLOCK``
bytes of windows, so that the copy is still in the CPU's cache when the product reads it.

With stride 1 down the image, that copy holds each padded row ``kernel_height`` times, once in the
windows of each output row that reads it.  So there the copy is smaller: for every padded row, its
windows' *rows of taps* (``kernel_width * channels`` values each).  Output row ``r``'s windows read
the rows of taps of padded rows ``r, r + 1, ...`` (``dilations`` apart), so tap row ``i`` of every
window of an image is one block of rows of the copy, starting ``i`` padded rows on::

    Y[image] = sum over tap rows i of  rows(X[image])[from padded row i] @ W[i]

``kernel_height`` products with ``kernel_width * channels`` terms each, on a copy ``kernel_height``
times smaller (``patches``).

The input gradient of a stride-1 convolution is a convolution too: of the upstream gradient,
padded by ``reach - 1 - pad`` on each side (``reach`` being the dilated filter's extent), with the
filters flipped in both directions and their channel axes swapped.  So it takes the same path, and
the same copy of the gradient's windows gives the filter gradient as well (``gradients``).  A
strided convolution's input gradient stays on the per-tap path (split into stride phases there,
it measured no faster here).

Measured in one process, alternating, 1 thread, OpenBLAS's AVX-512 kernels on AMD Zen 5 (CPU
time, medians of 30; batch 32, ``'SAME'``), per tap against whole windows: 3x3, 16 -> 16 channels on
32x32, forward 2.04 / 1.44 ms, filter gradient 1.95 / 1.67, input gradient 2.03 / 1.44, both
gradients 2.49; 3x3, 32 -> 32 on 16x16, 1.44 / 1.10, 1.74 / 1.28, 1.44 / 1.05, both 2.10; 3x3
stride 2, 16 -> 32 on 32x32, forward 1.08 / 0.62, filter gradient 1.10 / 0.70.  Rows of taps against
whole windows (stride 1, the same way): 16 -> 16 on 32x32, forward 1.51 / 1.25, filter gradient 1.71 /
1.30, input gradient 1.49 / 1.22, both gradients 2.58 / 2.37; 32 -> 32 on 16x16, 1.00 / 0.80, 1.21 /
0.90, 1.00 / 0.78, both 1.99 / 1.59 (benchmarks/cnn_step.py's step: 0.89x, 5 rounds of paired processes).

>>> from minitape.ops.windows import Window
>>> window = Window.sliding("conv2d", image=(3, 3), size=(2, 2), strides=(1, 1), padding="VALID")
>>> view, starts = patches(np.arange(9.0).reshape(1, 3, 3, 1), window)
>>> view.shape, starts         # (images, padded rows, out_width, kernel_width, channels); tap row 1 two rows on
((1, 3, 2, 2, 1), [0, 2])
>>> view[0, 1, :, :, 0]        # padded row 1's windows' rows of taps
array([[3., 4.],
       [4., 5.]])
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from minitape.ops.windows import Window

BLOCK = 1 << 20           # bytes of windows copied per block (32x32x16, 3x3, stride 1: 4 images)
SUB_BLOCK = 1 << 17       # bytes of rows per product in a filter gradient (see _add_products)


def applies(xp: Any, *arrays: Any) -> bool:
    """Whether the fast path takes these arrays: NumPy floats that BLAS multiplies, none of them empty."""
    return xp is np and all(a.dtype in (np.float32, np.float64) and a.size for a in arrays)


def patches(x: np.ndarray, window: Window) -> tuple[np.ndarray, list[int]]:
    """The part of the padded image's windows that is copied (a view), and where each tap row's rows start.

    With stride 1 down the image, ``(batch, rows, out_width, kernel_width, channels)``: each padded row's
    windows' rows of taps, tap row ``i`` starting ``i * dilation`` rows on (counted in rows of the copy).
    Otherwise ``(batch, out_height, out_width, kernel_height, kernel_width, channels)``: the windows whole.
    """
    padded = window.pad(x)
    if padded.shape[3] > 1 and padded.strides[3] != padded.itemsize:
        padded = np.ascontiguousarray(padded)                    # a pixel's channels side by side (see _copied)
    (kh, kw), (sh, sw), (dh, dw), (oh, ow) = window.size, window.strides, window.dilations, window.output
    batch, rows, columns, channels = padded.strides
    if sh == 1:
        shape, strides = (oh + (kh - 1) * dh if oh else 0, ow), (rows, sw * columns)
        starts = [i * dh * ow for i in range(kh)]
    else:
        shape, strides, starts = (oh, ow, kh), (sh * rows, sw * columns, dh * rows), [0]
    view = np.lib.stride_tricks.as_strided(padded, (x.shape[0], *shape, kw, x.shape[3]),
                                           (batch, *strides, dw * columns, channels), writeable=False)
    return view, starts


def _blocks(view: np.ndarray) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """A buffer for a block of images' windows, and each block's ``(start, stop)`` image."""
    images, step = view.shape[0], max(1, BLOCK // max(view[0].nbytes, 1))
    buffer = np.empty((min(step, images), *view.shape[1:]), view.dtype)
    return buffer, [(start, min(start + step, images)) for start in range(0, images, step)]


def _records(view: np.ndarray, values: int) -> np.ndarray:
    """``view`` with each run of ``values`` values along its last two axes seen as one opaque record."""
    runs = view.reshape(*view.shape[:-2], -1, values)           # a view: each run lies side by side in memory
    runs = np.lib.stride_tricks.as_strided(runs, strides=(*runs.strides[:-1], runs.itemsize))   # a run of 1 too
    return runs.view(np.dtype((np.void, values * view.itemsize)))


def _copied(view: np.ndarray) -> Iterator[tuple[int, int, np.ndarray]]:
    """Each block's ``(start, stop)`` image and its part of ``view`` copied: per image, rows of one row of taps.

    The rows share one buffer: a block's are overwritten by the next block's.  The copy moves
    records (``_records``) of the values that lie side by side in the image: a window's row of taps,
    ``kernel_width * channels`` values, when its taps are adjacent pixels (no dilation), else one tap's
    channels.  NumPy copies a record with one ``memcpy`` and a float value by value: on 3x3 windows,
    16 channels, 32x32, batch 32, 1 thread, the copy took 0.39 ms instead of 0.52.
    """
    width = math.prod(view.shape[3:])
    if view.flags.c_contiguous:                                 # already rows (a 1x1 window, stride 1)
        yield 0, view.shape[0], view.reshape(view.shape[0], -1, width)
        return
    buffer, blocks = _blocks(view)
    adjacent = view.strides[-2] == view.shape[-1] * view.itemsize
    values = view.shape[-1] * (view.shape[-2] if adjacent else 1)
    source, target = _records(view, values), _records(buffer, values)
    for start, stop in blocks:
        np.copyto(target[:stop - start], source[start:stop])
        yield start, stop, buffer[:stop - start].reshape(stop - start, -1, width)


def _products(rows: np.ndarray, starts: list[int], count: int, matrices: np.ndarray, out: np.ndarray) -> None:
    """``out = sum over tap rows k of rows[:, starts[k]:starts[k] + count] @ matrices[k]``, image by image."""
    np.matmul(rows[:, starts[0]:starts[0] + count], matrices[0], out=out)
    for start, matrix in zip(starts[1:], matrices[1:]):
        out += np.matmul(rows[:, start:start + count], matrix)


def _sub_blocks(rows: int, width: int, itemsize: int) -> int:
    """How many rows each product of ``_add_products`` sums over: ``SUB_BLOCK`` bytes of rows, dividing ``rows``."""
    wanted = max(SUB_BLOCK // (width * itemsize), 1)
    power = math.gcd(rows, 1 << (wanted.bit_length() - 1))
    return power if 4 * power >= wanted else rows


def _add_products(grad: np.ndarray, left: np.ndarray, right: np.ndarray) -> None:
    """``grad += leftᵀ @ right`` summed over images (``left`` and ``right`` hold an image's rows each), as a sum
    of products over sub-blocks of rows.

    A filter gradient is a product whose inner dimension is every output pixel.  Cut into products of
    ``SUB_BLOCK`` bytes of rows (one NumPy call, summed after), each reads rows still in the CPU's cache:
    on 3x3 windows, 16 -> 16 channels, 32x32, batch 32, 1 thread, 1.52 ms instead of 1.84.
    """
    images, rows = left.shape[:2]
    size = _sub_blocks(rows, max(left.shape[2], right.shape[2]), left.itemsize)
    parts = left.reshape(images, -1, size, left.shape[2]).swapaxes(2, 3)
    grad += np.matmul(parts, right.reshape(images, -1, size, right.shape[2])).sum(axis=(0, 1))


def conv2d(x: np.ndarray, filters: np.ndarray, window: Window) -> np.ndarray:
    """``conv2d``: each block's windows, copied, times the filters as one matrix per tap row, summed.

    >>> window = Window.sliding("conv2d", image=(3, 3), size=(2, 2), strides=(1, 1), padding="VALID")
    >>> conv2d(np.arange(9.0).reshape(1, 3, 3, 1), np.ones((2, 2, 1, 1)), window)[0, :, :, 0]
    array([[ 8., 12.],
           [20., 24.]])
    """
    view, starts = patches(x, window)
    count, channels = math.prod(window.output), filters.shape[3]
    matrices = filters.reshape(len(starts), -1, channels)
    out = np.empty((x.shape[0], *window.output, channels), x.dtype)
    for start, stop, rows in _copied(view):
        _products(rows, starts, count, matrices, out[start:stop].reshape(stop - start, count, channels))
    return out


def filter_grad(x: np.ndarray, g: np.ndarray, window: Window, shape: tuple) -> np.ndarray:
    """``conv2d_backprop_filter``: each block's windows, transposed, times its upstream gradient; summed.

    >>> window = Window.sliding("conv2d", image=(3, 3), size=(2, 2), strides=(1, 1), padding="VALID")
    >>> filter_grad(np.arange(9.0).reshape(1, 3, 3, 1), np.ones((1, 2, 2, 1)), window, (2, 2, 1, 1))[..., 0, 0]
    array([[ 8., 12.],
           [20., 24.]])
    """
    view, starts = patches(x, window)
    count = math.prod(window.output)
    grad = np.zeros((len(starts), math.prod(shape[:3]) // len(starts), shape[3]), x.dtype)
    for start, stop, rows in _copied(view):
        upstream = g[start:stop].reshape(stop - start, count, shape[3])
        for part, first in zip(grad, starts):
            _add_products(part, rows[:, first:first + count], upstream)
    return grad.reshape(shape)


def transposed(window: Window, shape: tuple) -> Window | None:
    """The window of the stride-1 convolution of the upstream gradient that is ``window``'s input gradient.

    None when ``window`` has a stride, or pads more than ``reach - 1`` (the gradient would need cropping).

    >>> transposed(Window.sliding("conv2d", (5, 5), (3, 3), (1, 1), "VALID"), (1, 5, 5, 1)).pads
    ((2, 2), (2, 2))
    """
    reach = [(k - 1) * d + 1 for k, d in zip(window.size, window.dilations)]
    pads = tuple((r - 1 - before, r - 1 - after) for r, (before, after) in zip(reach, window.pads))
    if window.strides != (1, 1) or min(pads[0] + pads[1]) < 0:
        return None
    return Window(window.output, window.size, (1, 1), window.dilations, pads, tuple(shape[1:3]))


def _flipped(filters: np.ndarray) -> np.ndarray:
    """The filters of the input gradient's convolution: flipped in both directions, their channel axes swapped."""
    return filters[::-1, ::-1].transpose(0, 1, 3, 2)


def input_grad(g: np.ndarray, filters: np.ndarray, window: Window) -> np.ndarray:
    """``conv2d_backprop_input`` with stride 1 (``window`` from ``transposed``): ``g`` convolved with the filters
    flipped, their channel axes swapped.

    >>> window = transposed(Window.sliding("conv2d", (2, 2), (2, 2), (1, 1), "VALID"), (1, 2, 2, 1))
    >>> input_grad(np.ones((1, 1, 1, 1)), np.arange(4.0).reshape(2, 2, 1, 1), window)[0, :, :, 0]
    array([[0., 1.],
           [2., 3.]])
    """
    return conv2d(g, _flipped(filters), window)


def gradients(x: np.ndarray, filters: np.ndarray, g: np.ndarray, window: Window) -> tuple[np.ndarray, np.ndarray]:
    """Both gradients of a stride-1 ``conv2d`` (``window`` from ``transposed``) from one copy of ``g``'s windows.

    ``input_grad`` multiplies them by the flipped filters.  At input pixel ``q``, the flipped filters'
    tap ``(i, j)`` reads the gradient of the output that ``x[q]`` fed through tap ``(i, j)``: so the
    same rows also give the filter gradient, ``windows(g)ᵀ @ x``, its taps flipped back.

    >>> window = Window.sliding("conv2d", (2, 2), (2, 2), (1, 1), "VALID")
    >>> dx, dw = gradients(np.arange(4.0).reshape(1, 2, 2, 1), np.ones((2, 2, 1, 1)), np.ones((1, 1, 1, 1)),
    ...                    transposed(window, (1, 2, 2, 1)))
    >>> dx[0, :, :, 0], dw[:, :, 0, 0]
    (array([[1., 1.],
           [1., 1.]]), array([[0., 1.],
           [2., 3.]]))
    """
    view, starts = patches(g, window)
    flipped, (count, channels) = _flipped(filters), (math.prod(window.output), x.shape[3])
    matrices = flipped.reshape(len(starts), -1, channels)
    dx, grad = np.empty(x.shape, x.dtype), np.zeros(matrices.shape, x.dtype)
    for start, stop, rows in _copied(view):
        inputs = x[start:stop].reshape(stop - start, count, channels)
        _products(rows, starts, count, matrices, dx[start:stop].reshape(inputs.shape))
        for part, first in zip(grad, starts):
            _add_products(part, rows[:, first:first + count], inputs)
    return dx, grad.reshape(flipped.shape)[::-1, ::-1].transpose(0, 1, 3, 2).copy()
