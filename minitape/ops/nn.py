"""Neural-network ops: softmax, its logarithm, the cross-entropies, and dropout.

Each is computed stably (shifted by the row's maximum) and differentiated
from its output: softmax's VJP needs only the probabilities it produced.
Sparse cross-entropy is one fused primitive; the other cross-entropy and
dropout are written with other ops, so their gradients (with respect to
logits *and* labels) come from the op table.

>>> import minitape as tf
>>> tf.nn.softmax([0.0, 0.0]).numpy()
array([0.5, 0.5], dtype=float32)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape.core import arrays, random
from minitape.core.errors import InvalidArgumentError
from minitape.core.primitive import ANS, Op, apply
from minitape.core.tensor import Tensor, wrap
from minitape.ops.blas_sums import trailing_sums
from minitape.ops.arguments import LABELS, as_axis, as_operand, as_shape, check_indices, needs_floating, plain
from minitape.ops.elementwise import cast, negative
from minitape.ops.elementwise import exp
from minitape.ops.indexing import hot, one_hot
from minitape.ops.reductions import reduce_sum
from minitape.ops.shapes import expand_dims


def _softmax_forward(xp, x, axis):
    if 0 in [x.shape[a] for a in axis]:
        return x                # nothing to normalise, and no maximum to shift by: empty, as TF's
    e = xp.exp(x - xp.max(x, axis=axis, keepdims=True))
    last = tuple(axis) in ((-1,), (x.ndim - 1,))        # the common case: summed by BLAS, see ``blas_sums``
    return e / (trailing_sums(xp, e, 1) if last else xp.sum(e, axis=axis, keepdims=True))


def _log_softmax_forward(xp, x, axis):
    if 0 in [x.shape[a] for a in axis]:
        return x
    shifted = x - xp.max(x, axis=axis, keepdims=True)
    return shifted - xp.log(xp.sum(xp.exp(shifted), axis=axis, keepdims=True))


def _softmax_vjp(g: Tensor, probabilities: Tensor, axis: Any) -> Tensor:
    """``s · (g - sum(g · s))``: the VJP of softmax, given its output ``s``."""
    return probabilities * (g - reduce_sum(g * probabilities, axis=axis, keepdims=True))


_SOFTMAX = Op("softmax", _softmax_forward, (lambda g, ans, x, axis: _softmax_vjp(g, ans, axis),), keep=(ANS,))
_LOG_SOFTMAX = Op("log_softmax", _log_softmax_forward,
                  (lambda g, ans, x, axis: g - exp(ans) * reduce_sum(g, axis=axis, keepdims=True),), keep=(ANS,))


def softmax(logits: Any, axis: int = -1, name: str | None = None) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``axis``, computed without overflow.

    >>> tf.nn.softmax([0.0, 0.0]).numpy()
    array([0.5, 0.5], dtype=float32)
    """
    x = as_operand(logits, "softmax")
    needs_floating("softmax", x)
    return apply(_SOFTMAX, (x,), {"axis": (as_axis(axis, x.ndim, "softmax"),)})


def log_softmax(logits: Any, axis: int = -1, name: str | None = None) -> Tensor:
    """``log(softmax(x))`` along ``axis``, computed stably.

    >>> tf.nn.log_softmax([0.0, 0.0]).numpy()
    array([-0.6931472, -0.6931472], dtype=float32)
    """
    x = as_operand(logits, "log_softmax")
    needs_floating("log_softmax", x)
    return apply(_LOG_SOFTMAX, (x,), {"axis": (as_axis(axis, x.ndim, "log_softmax"),)})


# d/dlogits of -log softmax(logits)[label] is softmax(logits) - one_hot(label).  As TF's fused
# kernel does, the forward rule works that out on its way to the loss and leaves it as its residual,
# the "backprop": the backward step is then one multiplication, an op of its own.
def _sparse_xent_forward(xp, logits, labels):
    # -log softmax(logits)[label] = log(sum(exp(shifted))) - shifted[label], shifted by the row's max.
    shifted = logits - xp.max(logits, axis=-1, keepdims=True)
    exp = xp.exp(shifted)
    total = trailing_sums(xp, exp, 1)
    loss = xp.log(total[..., 0]) - xp.take_along_axis(shifted, labels[..., None], axis=-1)[..., 0]
    return loss, exp / total - xp.astype(hot(xp, labels, logits.shape[-1]), logits.dtype)


def _sparse_xent_vjp(g, ans, logits, labels, residual):
    return apply(_SPARSE_XENT_GRAD, (logits, g, residual), {"labels": labels})


_SPARSE_XENT = Op("sparse_softmax_cross_entropy", _sparse_xent_forward, (_sparse_xent_vjp,), keep=(0,),
                  residual=True)


# g · backprop, with the logits beside it: a second tape differentiates it through the logits.
# Its VJPs rebuild softmax - one_hot from the logits with minitape ops rather than read the
# backprop, a bare value: a third tape must see how that, too, depends on the logits.
def _sparse_xent_grad_vjp_logits(gg, ans, logits, g, backprop, labels):
    return _softmax_vjp(gg * expand_dims(g, -1), softmax(logits), -1)


def _sparse_xent_grad_vjp_g(gg, ans, logits, g, backprop, labels):
    return reduce_sum(gg * (softmax(logits) - one_hot(wrap(labels), logits.shape[-1], dtype=logits.dtype)), axis=-1)


_SPARSE_XENT_GRAD = Op("sparse_softmax_cross_entropy_grad",
                       lambda xp, logits, g, backprop, labels: g[..., None] * backprop,
                       (_sparse_xent_grad_vjp_logits, _sparse_xent_grad_vjp_g, None), keep=(0, 1))


def sparse_softmax_cross_entropy(logits: Tensor, labels: Any) -> Tensor:
    """``-log softmax(logits)[labels]`` per example, as one primitive (see [`minitape.dialect.nn`][minitape.dialect.nn]).

    ``labels`` is an integer array of the logits' backend, checked by the caller.

    >>> import minitape as tf
    >>> tf.ops.sparse_softmax_cross_entropy(tf.constant([[1.0, 2.0], [3.0, 0.0]]), np.array([1, 0])).numpy()
    array([0.31326166, 0.04858733], dtype=float32)
    """
    return apply(_SPARSE_XENT, (logits,), {"labels": labels})


def softmax_cross_entropy_with_logits(labels: Any, logits: Any, axis: int = -1, name: str | None = None) -> Tensor:
    """``-sum(labels * log_softmax(logits))`` along ``axis``: one loss per example.

    ``labels`` may be any distribution over the classes, not only one-hot.  The gradient is
    exact even where the labels do not sum to 1 (``sum(labels) * softmax - labels``); TF's
    fused kernel returns ``softmax - labels`` there (minitape differs on purpose).

    >>> import minitape as tf
    >>> tf.nn.softmax_cross_entropy_with_logits(labels=[[0.0, 1.0], [0.5, 0.5]], logits=[[1.0, 2.0], [0.0, 0.0]])
    <minitape.Tensor: shape=(2,), dtype=float32, numpy=array([0.31326166, 0.6931472 ], dtype=float32)>
    """
    logits = as_operand(logits, "softmax_cross_entropy_with_logits")
    labels = cast(as_operand(labels, "softmax_cross_entropy_with_logits"), logits.dtype)    # as TF: any dtype
    if labels.shape != logits.shape:
        raise InvalidArgumentError(f"softmax_cross_entropy_with_logits: labels shape {tuple(labels.shape)} "
                                   f"must equal logits shape {tuple(logits.shape)}.")
    return negative(reduce_sum(labels * log_softmax(logits, axis=axis), axis=axis))


def sparse_softmax_cross_entropy_with_logits(labels: Any, logits: Any, name: str | None = None) -> Tensor:
    """Cross-entropy against integer class ``labels`` (one per example).

    >>> import minitape as tf
    >>> tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1], logits=[[1.0, 2.0]]).numpy()
    array([0.31326166], dtype=float32)
    """
    op = "sparse_softmax_cross_entropy_with_logits"
    logits = as_operand(logits, op)
    needs_floating(op, logits)
    # Checked on the host (a tensor's value comes to it); TF's kernel refuses float labels.
    check_indices(LABELS, op, labels)
    classes = arrays.integers(plain(labels), f"{op}: labels", InvalidArgumentError)
    if logits.ndim == 0 or classes.ndim != logits.ndim - 1:
        raise ValueError(f"{op}: labels must have rank logits.rank - 1 (one class per example), got labels "
                         f"of shape {classes.shape} and logits of shape {tuple(logits.shape)}.")
    n = logits.shape[-1]
    if tuple(classes.shape) != tuple(logits.shape[:-1]):
        raise InvalidArgumentError(f"sparse_softmax_cross_entropy_with_logits: labels must be integers of shape "
                                   f"{tuple(logits.shape[:-1])}, got {classes.dtype} of shape {classes.shape}.")
    if classes.size and (classes.min() < 0 or classes.max() >= n):
        raise InvalidArgumentError(f"sparse_softmax_cross_entropy_with_logits: labels must be in [0, {n}), "
                                   f"got {classes.min()}..{classes.max()}.")
    return sparse_softmax_cross_entropy(logits, arrays.asarray_beside(logits._value, classes.astype(np.int64)))


def dropout(x: Any, rate: float, noise_shape: Any = None, seed: int | None = None, name: str | None = None) -> Tensor:
    """Zero each entry with probability ``rate``; scale the rest by ``1 / (1 - rate)``.

    Inside ``recompute_grad`` the mask is replayed identically on recomputation.

    >>> import minitape as tf
    >>> y = tf.nn.dropout(tf.ones((1000,)), rate=0.5)
    >>> sorted(set(y.numpy().tolist()))
    [0.0, 2.0]
    """
    x = as_operand(x, "dropout")
    if not x.dtype.is_floating:
        raise ValueError(f"dropout: x must be a floating-point tensor, as it is scaled; got {x.dtype.name}. "
                         f"Use tf.cast(x, tf.float32) first.")
    fraction = plain(rate)
    if not isinstance(fraction, float | int | np.number) or not 0 <= fraction < 1:
        raise ValueError(f"dropout: rate must be a number in [0, 1), got {rate!r}.")
    shape = tuple(x.shape) if noise_shape is None else as_shape(noise_shape, "dropout", "noise_shape",
                                                                InvalidArgumentError)
    keep = random.uniform_array(shape, dtype=x.dtype, seed=seed) >= rate
    scale = (keep / (1 - rate)).astype(x.dtype.as_numpy_dtype_)
    return x * wrap(arrays.asarray_beside(x._value, scale))       # the mask lives where x does
