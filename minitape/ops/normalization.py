"""Normalization: the mean and variance of a batch, and the batch normalized by them.

Both are written with other ops, so their derivatives (of every order) come from the op table.

>>> import minitape as tf
>>> mean, variance = tf.nn.moments(tf.constant([1.0, 2.0, 3.0, 6.0]), axes=[0])
>>> mean.numpy(), variance.numpy()
(np.float32(3.0), np.float32(3.5))
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape.core import dtypes
from minitape.core.errors import InvalidArgumentError
from minitape.core.tensor import Tensor
from minitape.ops.arguments import as_axes, as_operand, operands
from minitape.ops.elementwise import cast, sqrt, square
from minitape.ops.reductions import reduce_mean
from minitape.ops.shapes import squeeze


def moments(x: Any, axes: Any, shift: Any = None, keepdims: bool = False,
            name: str | None = None) -> tuple[Tensor, Tensor]:
    """The mean and the (biased) variance of ``x`` over ``axes``: ``mean((x - mean)²)``.

    ``shift`` is not used, as in TensorFlow.  float16 is computed in float32, as TensorFlow
    does.  TensorFlow stops the gradient of the mean inside the variance, which changes no
    first derivative (that gradient is zero) but makes its second derivatives inexact;
    minitape differs and lets it flow, so derivatives of every order are exact.

    >>> x = tf.constant([[1.0, 2.0], [3.0, 6.0]])
    >>> mean, variance = tf.nn.moments(x, axes=[0], keepdims=True)
    >>> mean.numpy(), variance.numpy()
    (array([[2., 4.]], dtype=float32), array([[1., 4.]], dtype=float32))
    """
    x = as_operand(x, "moments")
    axes = as_axes(axes, x.ndim, "moments")
    y = cast(x, dtypes.float32) if x.dtype == dtypes.float16 else x
    mean = reduce_mean(y, axes, keepdims=True)
    variance = reduce_mean(square(y - mean), axes, keepdims=True)
    if not keepdims:
        mean, variance = squeeze(mean, axes), squeeze(variance, axes)
    return _as(mean, x.dtype), _as(variance, x.dtype)


def batch_normalization(x: Any, mean: Any, variance: Any, offset: Any, scale: Any, variance_epsilon: float,
                        name: str | None = None) -> Tensor:
    """``scale * (x - mean) / sqrt(variance + variance_epsilon) + offset``; ``offset`` and ``scale`` may be None.

    The statistics broadcast against ``x`` (e.g. one per channel, the last axis), as TensorFlow
    computes it: ``x * inv + (offset - mean * inv)`` with ``inv = scale / sqrt(variance + epsilon)``.

    >>> x = tf.constant([[1.0, 2.0], [3.0, 6.0]])
    >>> mean, variance = tf.nn.moments(x, axes=[0])
    >>> tf.nn.batch_normalization(x, mean, variance, offset=None, scale=None, variance_epsilon=0.0).numpy()
    array([[-1., -1.],
           [ 1.,  1.]], dtype=float32)
    """
    x = as_operand(x, "batch_normalization")
    named = {"mean": mean, "variance": variance, "offset": offset, "scale": scale}
    named = {argument: value for argument, value in named.items() if value is not None}
    given = dict(zip(named, operands("batch_normalization", *named.values())))
    for argument, t in given.items():
        try:
            np.broadcast_shapes(tuple(t.shape), tuple(x.shape))
        except ValueError:
            raise InvalidArgumentError(f"batch_normalization: {argument} of shape {tuple(t.shape)} does not broadcast "
                                       f"against x of shape {tuple(x.shape)}; give one value per channel, or keepdims "
                                       f"statistics from tf.nn.moments.") from None
    inv = 1.0 / sqrt(given["variance"] + variance_epsilon)
    if "scale" in given:
        inv = inv * given["scale"]
    shift = given["offset"] - given["mean"] * inv if "offset" in given else -given["mean"] * inv
    return x * _as(inv, x.dtype) + _as(shift, x.dtype)


def _as(t: Tensor, dtype: dtypes.DType) -> Tensor:
    """``t`` in ``dtype``, cast only when it is not (a cast to its own dtype would record an identity op)."""
    return t if t.dtype == dtype else cast(t, dtype)
