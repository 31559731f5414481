"""Normalization: the mean and variance of a batch, and the batch normalized by them.

Both are written with other ops, so their derivatives (of every order) come from the op table.
``layer_normalization`` (what Keras' ``LayerNormalization`` computes) is one fused primitive instead:
a layer norm written with ops records a dozen of them and keeps three activations; the primitive keeps
its input and one factor per example, and its VJPs are written with ops again.

>>> import minitape as tf
>>> mean, variance = tf.nn.moments(tf.constant([1.0, 2.0, 3.0, 6.0]), axes=[0])
>>> mean.numpy(), variance.numpy()
(np.float32(3.0), np.float32(3.5))
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minitape.core import arrays, dtypes
from minitape.core.errors import InvalidArgumentError
from minitape.core.primitive import Joint, Op, apply
from minitape.core.state import first_order_numpy
from minitape.core.tensor import Tensor, wrap
from minitape.ops.arguments import as_axes, as_operand, operands
from minitape.ops.blas_sums import leading_sums, trailing_means
from minitape.ops.elementwise import cast, sqrt, square
from minitape.ops.reductions import reduce_mean, reduce_sum
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


def layer_normalization(x: Any, gamma: Any, beta: Any, axes: int, epsilon: float) -> Tensor:
    """Normalize ``x`` over its last ``axes`` axes, then scale by ``gamma`` and shift by ``beta`` (shaped as
    those axes): ``batch_normalization(x, *moments(x, those axes), beta, gamma, epsilon)``, as one primitive.

    It keeps ``x`` and, per example, ``r = 1 / sqrt(variance + epsilon)``; its VJPs work out the
    normalized ``x̂ = (x - mean) · r`` again from them.  With ``g·γ`` written ``ĝ``:
    ``dx = r · (ĝ - mean(ĝ) - x̂ · mean(ĝ · x̂))``, ``dγ = sum(g · x̂)``, ``dβ = sum(g)``.

    >>> import minitape as tf
    >>> x = tf.constant([[1.0, 3.0], [0.0, 10.0]])
    >>> tf.ops.layer_normalization(x, tf.ones((2,)), tf.zeros((2,)), axes=1, epsilon=0.0).numpy()
    array([[-1.,  1.],
           [-1.,  1.]], dtype=float32)
    """
    x, gamma, beta = operands("layer_normalization", x, gamma, beta)      # a variable is read: a tape sees it
    return apply(_LAYER_NORM, (x, gamma, beta), {"axes": tuple(range(x.ndim - axes, x.ndim)), "epsilon": epsilon})


def _layer_norm_forward(xp, x, gamma, beta, axes, epsilon):
    # The arithmetic of batch_normalization(x, *moments(x, axes, keepdims=True), ...), the means summed by BLAS.
    mean = _mean(xp, x, axes)
    r = 1.0 / xp.sqrt(_mean(xp, xp.square(x - mean), axes) + epsilon)
    inv = r * gamma
    return x * inv + (beta - mean * inv), r


def _mean(xp, x, axes):
    return trailing_means(xp, x, len(axes))         # over the last axes, kept; see ``blas_sums``


def _normalized(x: Tensor, axes: tuple[int, ...], epsilon: float) -> tuple[Tensor, Tensor]:
    """``x̂`` and ``r``, worked out with ops: a tape recording the backward pass sees how they depend on ``x``."""
    centred = x - reduce_mean(x, axes, keepdims=True)
    r = 1.0 / sqrt(reduce_mean(square(centred), axes, keepdims=True) + epsilon)
    return centred * r, r


def _summed(value: Tensor, axes: tuple[int, ...]) -> Tensor:
    """``value`` summed over the axes before the normalized ones: to the shape of ``gamma`` and ``beta``."""
    if axes[0] and first_order_numpy(value):          # first order: NumPy's sum, no op
        return wrap(leading_sums(np, value._value, len(axes)))
    return reduce_sum(value, tuple(range(axes[0]))) if axes[0] else value


def _first_order(g: Tensor, x: Tensor, residual: Tensor) -> bool:
    # Just an optimization: when no tape records the backward pass (a plain training step), the gradient
    # is never differentiated again, so it may be worked out in NumPy from the kept r, without ops.  It
    # saves about 14 ops per layer norm: on benchmarks/sequence.py's model, the forward and backward pass
    # took 153 ms against 167 ms with the ops (medians of 30, alternating in one process, a busy machine).
    return first_order_numpy(g, x, residual)


def _layer_norm_vjps(wanted, g, ans, x, gamma, beta, residual, axes, epsilon):
    """The gradients of ``x``, ``gamma`` and ``beta``; ``x`` and ``gamma``'s share ``x̂``."""
    if _first_order(g, x, residual):
        upstream, r = g._value, residual._value
        with np.errstate(all="ignore"):
            normal = (x._value - _mean(np, x._value, axes)) * r
            scaled = upstream * gamma._value
            return (wrap(r * (scaled - _mean(np, scaled, axes) - normal * _mean(np, scaled * normal, axes))),
                    wrap(leading_sums(np, upstream * normal, len(axes))), _summed(g, axes))
    return _vjps_with_ops(wanted, g, x, gamma, axes, epsilon, lambda value: _summed(value, axes))


def _vjps_with_ops(wanted: tuple[bool, ...], g: Tensor, x: Tensor, scale: Tensor, axes: tuple[int, ...],
                   epsilon: float, total: Callable) -> tuple[Tensor | None, ...]:
    """A normalization's gradients written with ops (a tape recording them sees how they depend on ``x``): of
    ``x``, of the scale and of the offset, as ``wanted``; ``total`` sums a gradient to the scale's shape."""
    dx = dscale = None
    if wanted[0] or wanted[1]:
        normal, r = _normalized(x, axes, epsilon)
        dx = _normalized_input_grad(g * scale, normal, r, axes) if wanted[0] else None
        dscale = total(g * normal) if wanted[1] else None
    return dx, dscale, total(g) if wanted[2] else None


def _normalized_input_grad(scaled: Tensor, normal: Tensor, r: Tensor, axes: tuple[int, ...]) -> Tensor:
    """The gradient reaching ``x`` through ``x̂ = (x - mean) · r`` (mean and r over ``axes``), ``scaled`` reaching x̂."""
    return r * (scaled - reduce_mean(scaled, axes, keepdims=True)
                - normal * reduce_mean(scaled * normal, axes, keepdims=True))


_LAYER_NORM = Op("layer_normalization", _layer_norm_forward, Joint(_layer_norm_vjps), keep=(0, 1), residual=True)


def fused_batch_norm(x: Any, scale: Any, offset: Any, epsilon: float) -> tuple[Tensor, Tensor, Tensor]:
    """Batch normalization while training, as one primitive: ``x`` normalized over every axis but the last
    by its own mean and (biased) variance, then scaled and shifted; also that mean and variance.

    The same values as ``batch_normalization(x, *moments(x, axes), offset, scale, epsilon)`` (what
    TF's ``FusedBatchNorm`` computes while training), but one entry on the tape instead of a dozen,
    keeping ``x`` and not four activations.  The statistics come back as constants, for the moving
    averages: as in TF, no gradient flows back through them, only through the output (whose VJPs
    account for the statistics' dependence on ``x``, to every order).

    >>> import minitape as tf
    >>> x = tf.constant([[1.0, 0.0], [3.0, 10.0]])
    >>> y, mean, variance = tf.ops.fused_batch_norm(x, tf.ones((2,)), tf.zeros((2,)), epsilon=0.0)
    >>> y.numpy(), mean.numpy(), variance.numpy()
    (array([[-1., -1.],
           [ 1.,  1.]], dtype=float32), array([2., 5.], dtype=float32), array([ 1., 25.], dtype=float32))
    """
    x, scale, offset = operands("fused_batch_norm", x, scale, offset)
    if x.ndim < 2:
        raise InvalidArgumentError(f"fused_batch_norm: x must have a batch axis and a channel axis (rank 2 or more), "
                                   f"got shape {tuple(x.shape)}; use batch_normalization with moments for a vector.")
    axes = tuple(range(x.ndim - 1))
    value = x._value
    with np.errstate(all="ignore"):
        if type(value) is np.ndarray:
            mean = _channel_sums(value, _rows(value)) / (value.size // value.shape[-1])
            centred = _rows(value) - _tiled(mean, value)
            variance = _channel_sums(value, centred, centred) / (value.size // value.shape[-1])
        else:
            xp = arrays.namespace_of_inputs("fused_batch_norm", [value])
            mean = xp.mean(value, axis=axes)
            variance = xp.mean(xp.square(value - mean), axis=axes)    # two passes, as moments: no cancellation
    statistics = {"axes": axes, "epsilon": epsilon, "mean": mean, "variance": variance}
    return apply(_BATCH_NORM, (x, scale, offset), statistics), wrap(mean), wrap(variance)


# Fast path (NumPy): an array of shape (..., width, channels) broadcast against one value per channel
# runs NumPy's inner loop over 16 channels at a time, and sums over all but the last axis the same way.
# Seen as rows of width × channels against the vector tiled width times, the loops are long: on
# benchmarks/cnn_step.py's 32x32x16 batch, one BatchNormalization layer's forward + backward took 16.4 ms
# against 22.9 ms without it (and 27.3 ms as a dozen ops; CPU time, medians of 11, alternating in one
# process, a busy machine).

def _rows(value: np.ndarray) -> np.ndarray:
    """``value`` as rows of width × channels (of channels alone for a matrix)."""
    return value.reshape(-1, value.shape[-2] * value.shape[-1]) if value.ndim > 2 else value


def _tiled(vector: np.ndarray, value: np.ndarray) -> np.ndarray:
    """One value per channel, repeated along a row of ``_rows(value)``."""
    return np.tile(vector, value.shape[-2]) if value.ndim > 2 else vector


def _channel_sums(value: np.ndarray, rows: np.ndarray, other: np.ndarray | None = None) -> np.ndarray:
    """Per channel of ``value``, the sum of its ``rows`` (or of ``rows · other``), rows as ``_rows`` makes them."""
    sums = rows.sum(axis=0) if other is None else np.einsum("ij,ij->j", rows, other)
    return sums.reshape(-1, value.shape[-1]).sum(axis=0)


def _batch_norm_forward(xp, x, scale, offset, axes, epsilon, mean, variance):
    inv = scale / xp.sqrt(variance + epsilon)
    if type(x) is np.ndarray:                       # the fast path above
        y = _rows(x) * _tiled(inv, x)
        y += _tiled(offset - mean * inv, x)
        return y.reshape(x.shape)
    return x * inv + (offset - mean * inv)


def _batch_norm_vjps(wanted, g, ans, x, scale, offset, axes, epsilon, mean, variance):
    """The gradients of ``x``, ``scale`` and ``offset``: at first order from sums they share, in NumPy."""
    if _first_order(g, x, scale):
        with np.errstate(all="ignore"):
            return [None if grad is None else wrap(grad)
                    for grad in _batch_norm_numpy_vjps(wanted, g._value, x._value, scale._value, mean, variance,
                                                       epsilon)]
    return _vjps_with_ops(wanted, g, x, scale, axes, epsilon, lambda value: reduce_sum(value, axes))


def _batch_norm_numpy_vjps(wanted, g, x, scale, mean, variance, epsilon):
    # Just an optimization, as for layer norm: a few passes in NumPy instead of a dozen ops.  With
    # c = x - mean: dx = γr·(g - mean(g)) - c·γr³·mean(g·c), dscale = r·sum(g·c), doffset = sum(g).
    rows_g, r = _rows(g), 1.0 / np.sqrt(variance + epsilon)
    sum_g = _channel_sums(x, rows_g) if wanted[0] or wanted[2] else None
    if not (wanted[0] or wanted[1]):
        return None, None, sum_g
    centred = _rows(x) - _tiled(mean, x)
    sum_gc = _channel_sums(x, rows_g, centred)
    dx = None
    if wanted[0]:
        count, factor = centred.size // x.shape[-1], scale * r
        dx = rows_g - _tiled(sum_g / count, x)
        dx *= _tiled(factor, x)
        centred *= _tiled(factor * r * r * sum_gc / count, x)        # in place: c is not needed again
        dx -= centred
        dx = dx.reshape(x.shape)
    return dx, sum_gc * r if wanted[1] else None, sum_g if wanted[2] else None


_BATCH_NORM = Op("fused_batch_norm", _batch_norm_forward, Joint(_batch_norm_vjps), keep=(0, 1))
