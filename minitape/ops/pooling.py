"""Pooling: the largest or the mean value of each window of an NHWC image.

Both visit the window's taps (see ``windows``): a tap's strided slice holds
the value it reads in every window at once, so a max-pool is the running maximum of the
slices, and an average pool is their sum divided by how many of each window's taps fall
inside the image (``'SAME'`` padding is not counted, as in TensorFlow).

The derivatives send each output's gradient back to where its window read: to the first
largest value of the window for a max-pool (TensorFlow's choice when values tie), evenly over
the window for an average.  Each gradient is an op whose own VJP is the forward pattern again,
so second derivatives work.

>>> import minitape as tf
>>> x = tf.reshape(tf.range(16.0), (1, 4, 4, 1))
>>> tf.nn.max_pool2d(x, ksize=2, strides=2, padding="VALID")[0, :, :, 0].numpy()
array([[ 5.,  7.],
       [13., 15.]], dtype=float32)
"""
from __future__ import annotations

import operator
from typing import Any

import numpy as np

from minitape.core import arrays, backends, dtypes
from minitape.core.errors import InvalidArgumentError
from minitape.core.primitive import Op, apply
from minitape.core.tensor import Tensor
from minitape.ops.arguments import as_operand
from minitape.ops.creation import zeros_like
from minitape.ops.reductions import bound
from minitape.ops.windows import Window, check_image, spatial


# --------------------------------------------------------------------------- max

def _slices(padded, window):
    """The slice of the padded image that each tap of the window reads, tap after tap (row by row)."""
    return (padded[key] for i, j, key in window.taps())


def _combined(combine, padded, window):
    """The slices the taps read, combined one after another: each window's maximum, or its sum."""
    slices = _slices(padded, window)
    out = next(slices)
    for tap in slices:
        out = combine(out, tap)
    return out


def _max_pool_forward(xp, x, window):
    return _combined(xp.maximum, window.pad(x, bound(xp, x, lowest=True)), window)


def _first_largest(xp, x, window):
    """For each output, the number of the tap that read its window's first largest value."""
    slices = _slices(window.pad(x, bound(xp, x, lowest=True)), window)
    largest = next(slices)
    which = xp.zeros(largest.shape, dtype=xp.int32, device=backends.device_of(x))
    for k, tap in enumerate(slices, start=1):
        larger = tap > largest                      # strictly: on a tie the earlier tap keeps it
        largest, which = xp.where(larger, tap, largest), xp.where(larger, k, which)
    return which


def _to_largest_forward(xp, g, x, window):
    """Each output's gradient ``g`` added to the input where its window's first largest value is."""
    which = _first_largest(xp, x, window)
    padded = arrays.full_beside(g, window.padded_shape(x.shape[0], x.shape[3]), 0)
    for k, (i, j, key) in enumerate(window.taps()):
        padded[key] += xp.where(which == k, g, 0)
    return padded[window.inside()]


def _from_largest_forward(xp, u, x, window):
    """The transpose of the above: each output takes ``u`` at its window's first largest value."""
    which = _first_largest(xp, x, window)
    padded = window.pad(u)
    out = xp.zeros_like(which, dtype=u.dtype)
    for k, (i, j, key) in enumerate(window.taps()):
        out += xp.where(which == k, padded[key], 0)
    return out


# Where the largest value sits does not change under a small change of x: no gradient flows to x
# through the choice, so those VJPs are zeros (TensorFlow's MaxPoolGrad gives zeros there too).
_MAX_POOL = Op("max_pool2d", _max_pool_forward, (
    lambda g, ans, x, window: apply(_TO_LARGEST, (g, x), {"window": window}),
), keep=(0,))
_TO_LARGEST = Op("max_pool2d_grad", _to_largest_forward, (
    lambda u, ans, g, x, window: apply(_FROM_LARGEST, (u, x), {"window": window}),
    lambda u, ans, g, x, window: zeros_like(x),
), keep=(1,))
_FROM_LARGEST = Op("max_pool2d_grad_grad", _from_largest_forward, (
    lambda v, ans, u, x, window: apply(_TO_LARGEST, (v, x), {"window": window}),
    lambda v, ans, u, x, window: zeros_like(x),
), keep=(1,))


def max_pool2d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NHWC",
               name: str | None = None) -> Tensor:
    """The largest value of each ``ksize`` window, moving by ``strides``; ``'SAME'`` pads with -inf.

    ``ksize`` and ``strides`` are an int, ``[h, w]`` or ``[1, h, w, 1]``; ``padding`` is ``'SAME'``,
    ``'VALID'`` or ``[[0, 0], [top, bottom], [left, right], [0, 0]]``.  When values tie, the
    gradient goes to the first of them in the window (row by row), as in TensorFlow.

    >>> x = tf.constant([[[[1.0], [3.0]], [[3.0], [2.0]]]])
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tf.nn.max_pool2d(x, ksize=2, strides=2, padding="VALID")
    >>> y.numpy().ravel(), tape.gradient(y, x).numpy().ravel()
    (array([3.], dtype=float32), array([0., 1., 0., 0.], dtype=float32))
    """
    x, window = _pooled("max_pool2d", input, ksize, strides, padding, data_format)
    if not isinstance(padding, str):
        for sides, pads, size in zip((("Top", "Bottom"), ("Left", "Right")), window.pads, window.size):
            for side, pad in zip(sides, pads):
                if pad >= size:
                    raise InvalidArgumentError(f"max_pool2d: {side} padding {pad} needs to be smaller than the "
                                               f"window size {size}; pad less, or widen ksize.")
    return apply(_MAX_POOL, (x,), {"window": window})


def _pooled(op: str, input: Any, ksize: Any, strides: Any, padding: Any, data_format: str) -> tuple[Tensor, Window]:
    """The checked input of a pooling op, and its window."""
    x = as_operand(input, op)
    check_image(op, x, data_format)
    allowed = ("float16", "float32", "float64") + (("int32",) if op == "max_pool2d" else ())
    if x.dtype.name not in allowed:
        raise InvalidArgumentError(f"{op}: input must be {', '.join(allowed)}, got {x.dtype.name}.")
    size = spatial(ksize, "ksize", op)
    window = Window.sliding(op, tuple(x.shape[1:3]), size, spatial(strides, "strides", op), padding,
                            explicit=op == "max_pool2d")
    return x, window


# --------------------------------------------------------------------------- average

def _counts(x, window):
    """How many taps of each window fall inside the image, shaped (1, height, width, 1) beside ``x``."""
    inside = window.pad(np.ones((1, *window.image, 1), dtype=dtypes.of_array(x).as_numpy_dtype))
    return arrays.asarray_beside(x, _combined(operator.add, inside, window))


def _avg_pool_forward(xp, x, window):
    return _combined(operator.add, window.pad(x), window) / _counts(x, window)


def _spread_forward(xp, g, window, shape):
    """Each output's gradient spread evenly over the taps of its window that are inside the image."""
    padded = arrays.full_beside(g, window.padded_shape(shape[0], shape[3]), 0)
    share = g / _counts(g, window)
    for i, j, key in window.taps():
        padded[key] += share
    return padded[window.inside()]


# Both are linear, and each is the other's transpose.
_AVG_POOL = Op("avg_pool2d", _avg_pool_forward, (
    lambda g, ans, x, window: apply(_SPREAD, (g,), {"window": window, "shape": tuple(x.shape)}),
))
_SPREAD = Op("avg_pool2d_grad", _spread_forward, (
    lambda u, ans, g, window, shape: apply(_AVG_POOL, (u,), {"window": window}),
))


def avg_pool2d(input: Any, ksize: Any, strides: Any, padding: str, data_format: str = "NHWC",
               name: str | None = None) -> Tensor:
    """The mean of each ``ksize`` window, moving by ``strides``; ``'SAME'`` averages the image's entries only.

    >>> x = tf.reshape(tf.range(9.0), (1, 3, 3, 1))
    >>> tf.nn.avg_pool2d(x, ksize=2, strides=2, padding="SAME")[0, :, :, 0].numpy()
    array([[2. , 3.5],
           [6.5, 8. ]], dtype=float32)
    """
    x, window = _pooled("avg_pool2d", input, ksize, strides, padding, data_format)
    return apply(_AVG_POOL, (x,), {"window": window})
