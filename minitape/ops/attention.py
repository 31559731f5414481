"""Dot-product attention as one primitive: ``softmax(scale · q kᵀ, masked) v`` for every head at once.

Written with other ops, attention records a scaling, an einsum, a ``where``, a softmax and another einsum,
and keeps the scaled queries beside the queries.  As one primitive (what Keras 3's
``ops.dot_product_attention`` is, and what its ``MultiHeadAttention`` runs when it neither drops weights
out nor returns them) it keeps the queries, keys and values and, as its residual, the attention weights;
its VJPs are written with ops again, so derivatives of every order come from the op table.

Shapes are Keras': ``query`` ``(batch, T, heads, depth)``, ``key`` and ``value`` ``(batch, S, heads, depth)``,
the weights ``(batch, heads, T, S)``; a mask broadcasts against the weights (true: may attend).

>>> import minitape as tf
>>> q = k = v = tf.reshape(tf.range(8.0), (1, 2, 2, 2))
>>> tf.ops.dot_product_attention(q, k, v, mask=tf.constant([[1, 0], [1, 1]], bool)).numpy()[0, :, 0]
array([[0., 1.],
       [4., 5.]], dtype=float32)
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from minitape.core import arrays
from minitape.core.errors import InvalidArgumentError
from minitape.core.primitive import Joint, Op, apply
from minitape.core.state import first_order_numpy
from minitape.core.tensor import Tensor, wrap
from minitape.ops.arguments import needs_floating, operands, plain
from minitape.ops.einsum import einsum
from minitape.ops.elementwise import where, zeros_like
from minitape.ops.nn import _softmax_forward, _softmax_vjp, softmax

LARGE_NEGATIVE = -1e9        # a masked logit, as Keras' masked softmax writes it: exp of it is 0


def dot_product_attention(query: Any, key: Any, value: Any, mask: Any = None, scale: float | None = None) -> Tensor:
    """``softmax(scale · query keyᵀ) value`` per head, a masked pair's logit set to -1e9 first.

    ``scale`` defaults to ``1 / sqrt(depth)``.  A query row masked throughout attends uniformly, as in
    Keras' fused attention.

    >>> import minitape as tf
    >>> q, k, v = tf.ones((2, 3, 4, 5)), tf.ones((2, 6, 4, 5)), tf.ones((2, 6, 4, 7))
    >>> tf.ops.dot_product_attention(q, k, v).shape
    TensorShape([2, 3, 4, 7])
    """
    query, key, value = operands("dot_product_attention", query, key, value)
    for name, t in (("query", query), ("key", key), ("value", value)):
        needs_floating("dot_product_attention", t)
        if t.ndim != 4:
            raise InvalidArgumentError(f"dot_product_attention: {name} must be (batch, steps, heads, depth), got "
                                       f"shape {tuple(t.shape)}.")
    (b, t, n, h), (b_k, s, n_k, h_k), (b_v, s_v, n_v, _) = query.shape, key.shape, value.shape
    if (b, n, h) != (b_k, n_k, h_k) or (b_k, s, n_k) != (b_v, s_v, n_v):
        raise InvalidArgumentError(f"dot_product_attention: query {tuple(query.shape)}, key {tuple(key.shape)} "
                                   f"and value {tuple(value.shape)} must share batch and heads, query and key their "
                                   f"depth, key and value their steps.")
    keep = None if mask is None else np.asarray(plain(mask), bool)
    if keep is not None:
        try:
            np.broadcast_shapes(keep.shape, (b, n, t, s))
        except ValueError:
            raise InvalidArgumentError(f"dot_product_attention: mask of shape {keep.shape} does not broadcast "
                                       f"against the weights' (batch, heads, T, S) = {(b, n, t, s)}.") from None
    scale = 1.0 / math.sqrt(h) if scale is None else float(scale)
    keep = None if keep is None else arrays.asarray_beside(query._value, keep)      # where the values live
    return apply(_ATTENTION, (query, key, value), {"mask": keep, "scale": scale})


def _heads_first(x, xp=np):
    # (batch, steps, heads, depth) <-> (batch, heads, steps, depth); a NumPy array's own transpose skips
    # np.permute_dims's dispatch (0.1 µs against 0.5, 12 times an attention's forward and backward pass).
    return x.transpose(0, 2, 1, 3) if type(x) is np.ndarray else xp.permute_dims(x, (0, 2, 1, 3))


def _attention_forward(xp, q, k, v, mask, scale):
    if type(q) is np.ndarray and q.size and k.size:         # NumPy's fast path: see ``_keys_first``
        weights = _keys_first_weights(q, k, mask, scale)
    else:
        logits = xp.matmul(_heads_first(q, xp), _heads_first(k, xp).mT)
        logits *= scale
        if mask is not None:
            logits = xp.where(mask, logits, LARGE_NEGATIVE)
        weights = _softmax_forward(xp, logits, (-1,))
    return _heads_first(xp.matmul(weights, _heads_first(v, xp)), xp), weights


# Just an optimization, for NumPy arrays: the (T, S) tables of the logits, the weights and their gradient are
# laid out keys first, (S, batch, heads, T), and handed on as (batch, heads, T, S) views.  NumPy reduces a
# short last axis row by row (the maximum of each of benchmarks/sequence.py's 512 rows of 32 logits costs it
# 28 µs) but a first axis in one vectorized pass per key (2 µs), and BLAS reads and writes either layout at
# the same speed: attention's forward rule takes 40 µs there against 70, and the step 0.96× the time (CPU-time
# medians of 300 steps, 6 rounds of paired fresh processes).
def _keys_first(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a bᵀ`` for each batch and head of ``(batch, steps, heads, depth)`` arrays, S steps in ``a`` and T in
    ``b``: an ``(S, batch, heads, T)`` array."""
    out = np.empty((a.shape[1], a.shape[0], a.shape[2], b.shape[1]), np.result_type(a, b))
    np.matmul(_heads_first(a), _heads_first(b).mT, out=out.transpose(1, 2, 0, 3))
    return out


def _keys_first_weights(q: np.ndarray, k: np.ndarray, mask: np.ndarray | None, scale: float) -> np.ndarray:
    """The attention weights, ``(batch, heads, T, S)``, as a view of an array laid out keys first."""
    logits = _keys_first(k, q)
    logits *= scale
    if mask is not None:
        np.copyto(logits, LARGE_NEGATIVE, where=_keys_first_mask(~mask))
    logits -= np.maximum.reduce(logits, axis=0)          # the softmax over the keys: axis 0
    np.exp(logits, out=logits)
    logits /= np.add.reduce(logits, axis=0)
    return logits.transpose(1, 2, 3, 0)


def _keys_first_mask(mask: np.ndarray) -> np.ndarray:
    """A mask that broadcasts against ``(batch, heads, T, S)``, as a view that broadcasts against ``(S, batch,
    heads, T)``."""
    return mask.reshape((1,) * (4 - mask.ndim) + mask.shape).transpose(3, 0, 1, 2)


def _plain(*tensors: Tensor) -> bool:
    # Just an optimization, as layer_normalization's: when no tape records the backward pass, its gradients are
    # never differentiated again, and are worked out in NumPy from the kept weights, without ops.  The primitive
    # with these VJPs takes benchmarks/sequence.py's step to 0.90× the five ops it replaces (CPU-time, fresh
    # processes alternating, 10 rounds, a busy machine).
    return first_order_numpy(*tensors)


def _weights(q: Tensor, k: Tensor, mask: np.ndarray | None, scale: float) -> Tensor:
    """The attention weights again, with ops: a tape recording the backward pass sees how they depend on q, k."""
    logits = einsum("btnh,bsnh->bnts", q, k) * scale
    return softmax(logits if mask is None else where(mask, logits, LARGE_NEGATIVE))


def _logits_grad(g: Tensor, q: Tensor, k: Tensor, v: Tensor, weights: Tensor, mask, scale) -> Tensor | np.ndarray:
    """The gradient reaching ``q kᵀ``: softmax's VJP, nothing through a masked logit, times the scale."""
    if _plain(g, q, k, v, weights):
        w = weights._value.transpose(3, 0, 1, 2)          # keys first, as ``_keys_first``
        upstream = _keys_first(v._value, g._value)
        with np.errstate(all="ignore"):
            grad = w * (upstream - np.add.reduce(upstream * w, axis=0))
            if mask is not None:
                np.copyto(grad, 0, where=_keys_first_mask(~mask))
            grad *= scale
        return grad.transpose(1, 2, 3, 0)
    weights = _weights(q, k, mask, scale)
    grad = _softmax_vjp(einsum("btnh,bsnh->bnts", g, v), weights, -1)
    return (grad if mask is None else where(mask, grad, zeros_like(grad))) * scale


def _attention_vjps(wanted, g, ans, q, k, v, residual, mask, scale):
    """The gradients of the queries, keys and values; the first two share the gradient reaching the logits."""
    dq = dk = None
    if wanted[0] or wanted[1]:
        grad = _logits_grad(g, q, k, v, residual, mask, scale)
        if isinstance(grad, np.ndarray):
            dq = wrap(_heads_first(np.matmul(grad, _heads_first(k._value)))) if wanted[0] else None
            dk = wrap(_heads_first(np.matmul(grad.mT, _heads_first(q._value)))) if wanted[1] else None
        else:
            dq = einsum("bnts,bsnh->btnh", grad, k) if wanted[0] else None
            dk = einsum("bnts,btnh->bsnh", grad, q) if wanted[1] else None
    return dq, dk, _value_grad(g, q, k, residual, mask, scale) if wanted[2] else None


def _value_grad(g, q, k, weights, mask, scale):
    if _plain(g, weights):
        return wrap(_heads_first(np.matmul(weights._value.mT, _heads_first(g._value))))
    return einsum("bnts,btnh->bsnh", _weights(q, k, mask, scale), g)


_ATTENTION = Op("dot_product_attention", _attention_forward, Joint(_attention_vjps), keep=(0, 1, 2),
                residual=True)
