"""Keras masks: which time steps of a sequence are real (True) and which are padding (False).

Keras 3 hangs a mask on the tensor a layer returns (``Embedding(mask_zero=True)`` marks the
id 0 as padding); the next layer whose ``call`` takes ``mask`` receives it, and a layer that
``supports_masking`` passes one on (``compute_mask``).  minitape's tensors have fixed slots, so
the masks live in a side table keyed by the tensor, forgotten when the tensor is.

>>> import minitape as tf
>>> embed = tf.keras.layers.Embedding(5, 2, mask_zero=True)
>>> vectors = embed(tf.constant([[3, 1, 0]]))
>>> get_keras_mask(vectors).numpy()
array([[ True,  True, False]])
"""
from __future__ import annotations

import weakref
from typing import Any

from minitape import ops
from minitape.core import nest
from minitape.core.tensor import Tensor

_masks: dict[int, Tensor] = {}


def set_keras_mask(x: Tensor, mask: Tensor | None) -> None:
    """Hang ``mask`` on ``x`` (None takes it off).

    >>> import minitape as tf
    >>> x = tf.ones((1, 2, 3))
    >>> set_keras_mask(x, tf.constant([[True, False]]))
    >>> get_keras_mask(x).shape
    TensorShape([1, 2])
    """
    if mask is None:
        _masks.pop(id(x), None)
        return
    if id(x) not in _masks:
        weakref.finalize(x, _masks.pop, id(x), None)
    _masks[id(x)] = mask


def get_keras_mask(x: Any) -> Tensor | None:
    """The mask hung on ``x``, or None.

    >>> import minitape as tf
    >>> get_keras_mask(tf.ones((2, 3))) is None
    True
    """
    return _masks.get(id(x)) if isinstance(x, Tensor) else None


def mask_of(inputs: Any) -> Any:
    """The mask of a tensor; for a structure of them, the list of their masks (None when none has one).

    >>> import minitape as tf
    >>> x = tf.ones((1, 2, 3))
    >>> set_keras_mask(x, tf.constant([[True, False]]))
    >>> mask_of(x).shape, mask_of([x, tf.ones(2)])[1], mask_of([tf.ones(2)])
    (TensorShape([1, 2]), None, None)
    """
    if not nest.is_nested(inputs):
        return get_keras_mask(inputs)
    masks = [get_keras_mask(x) for x in nest.flatten(inputs)]
    return masks if any(m is not None for m in masks) else None


def mask_weights(mask: Tensor, values: Tensor, sample_weight: Any = None) -> Tensor:
    """``mask`` as 0/1 weights for ``values`` (brought to their rank: a trailing axis of 1 dropped, or axes of 1
    added), times ``sample_weight`` if given: how a loss or a metric leaves out the padding steps, as Keras 3.

    >>> import minitape as tf
    >>> mask_weights(tf.constant([[True, False]]), tf.ones((1, 2)), sample_weight=[3.0]).numpy()
    array([[3., 0.]], dtype=float32)
    """
    weights = ops.cast(mask, values.dtype)
    while weights.ndim > values.ndim and weights.shape[-1] == 1:
        weights = ops.squeeze(weights, -1)
    while weights.ndim < values.ndim:
        weights = ops.expand_dims(weights, -1)
    if sample_weight is None:
        return weights
    sample_weight = ops.cast(ops.as_operand(sample_weight), values.dtype)
    while sample_weight.ndim > weights.ndim and sample_weight.shape[-1] == 1:
        sample_weight = ops.squeeze(sample_weight, -1)
    while sample_weight.ndim < weights.ndim:
        sample_weight = ops.expand_dims(sample_weight, -1)
    return weights * sample_weight
