"""``tf.nn``: activations, softmax, cross-entropy, dropout; convolution, pooling and normalization.

The cross-entropies are written with other ops, so their gradients (with
respect to logits *and* labels) come from the op table.

>>> import minitape as tf
>>> tf.nn.softmax_cross_entropy_with_logits(labels=[[0.0, 1.0]], logits=[[1.0, 2.0]]).numpy()
array([0.31326166], dtype=float32)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape.core import arrays, backends, random
from minitape.core.errors import InvalidArgumentError
from minitape.ops.arguments import LABELS, as_shape, check_indices, needs_floating, plain
from minitape.ops import (  # noqa: F401
    as_operand, avg_pool2d, batch_normalization, cast, conv2d, log_softmax, max_pool2d, moments, multiply,
    elu, gelu, leaky_relu, negative, operands, reduce_sum, relu, relu6, selu, sigmoid, softmax, softplus, sparse_softmax_cross_entropy, tanh,
)
from minitape.core.tensor import Tensor, wrap

__all__ = ["avg_pool2d", "batch_normalization", "conv2d", "dropout", "elu", "gelu", "leaky_relu", "log_softmax", "max_pool2d",
           "moments", "relu", "relu6", "selu", "sigmoid", "softmax", "softmax_cross_entropy_with_logits", "softplus", "sparse_softmax_cross_entropy_with_logits", "tanh"]


def softmax_cross_entropy_with_logits(labels: Any, logits: Any, axis: int = -1, name: str | None = None) -> Tensor:
    """``-sum(labels * log_softmax(logits))`` along ``axis``: one loss per example.

    ``labels`` may be any distribution over the classes, not only one-hot.  The gradient is
    exact even where the labels do not sum to 1 (``sum(labels) * softmax - labels``); TF's
    fused kernel returns ``softmax - labels`` there (minitape differs on purpose).

    >>> import minitape as tf
    >>> tf.nn.softmax_cross_entropy_with_logits(labels=[[0.0, 1.0], [0.5, 0.5]], logits=[[1.0, 2.0], [0.0, 0.0]])
    <minitape.Tensor: shape=(2,), dtype=float32, numpy=array([0.31326166, 0.6931472 ], dtype=float32)>
    """
    labels, logits = operands("softmax_cross_entropy_with_logits", labels, logits)
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
