"""Losses: Keras' formulas, averaged over the batch.

Probabilities (``from_logits=False``) are renormalised to sum to one and
clipped to ``[1e-7, 1 - 1e-7]`` before the log, as Keras does.  Labels whose rank is
one off the predictions' are first brought to it (``same_rank``): labels ``y`` of shape
``(n,)`` against a model's ``(n, 1)`` output compare row with row, never broadcast to ``(n, n)``.

>>> import minitape as tf
>>> tf.keras.losses.MeanSquaredError()([[0.0, 1.0]], [[1.0, 1.0]]).numpy()
np.float32(0.5)
>>> loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
>>> round(float(loss([1], [[1.0, 2.0]])), 6)
0.313262
>>> y = tf.constant([0.0, 1.0, 2.0, 3.0])
>>> tf.keras.losses.MeanSquaredError()(y, tf.reshape(y + 0.5, (4, 1))).numpy()
np.float32(0.25)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape import ops
from minitape.dialect import nn
from minitape.core.tensor import Tensor
from minitape.keras.masking import get_keras_mask, mask_weights

EPSILON = 1e-7


def same_rank(x1: Any, x2: Any, expand_rank_1: bool = True) -> tuple[Any, Any]:
    """Keras' ``squeeze_or_expand_to_same_rank``: when the ranks are one apart and the longer one ends in an axis
    of 1, that axis is dropped (or, with ``expand_rank_1``, one is added to a vector instead).  For tensors and
    NumPy arrays alike.

    >>> from minitape.keras.losses import same_rank
    >>> [x.shape for x in same_rank(np.zeros((3, 1)), np.zeros(3))]
    [(3, 1), (3, 1)]
    >>> [x.shape for x in same_rank(np.zeros((3, 1)), np.zeros(3), expand_rank_1=False)]
    [(3,), (3,)]
    """
    if x1.ndim == x2.ndim + 1 and x1.shape[-1] == 1:
        return (x1, x2[..., None]) if x2.ndim == 1 and expand_rank_1 else (x1[..., 0], x2)
    if x2.ndim == x1.ndim + 1 and x2.shape[-1] == 1:
        return (x1[..., None], x2) if x1.ndim == 1 and expand_rank_1 else (x1, x2[..., 0])
    return x1, x2


def _log_probabilities(y_pred: Tensor, from_logits: bool) -> Tensor:
    if from_logits:
        return ops.log_softmax(y_pred)
    y_pred = y_pred / ops.reduce_sum(y_pred, axis=-1, keepdims=True)
    return ops.log(ops.clip_by_value(y_pred, EPSILON, 1 - EPSILON))


def categorical_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False) -> Tensor:
    """``-sum(y_true · log p)`` over the last axis, one loss per example.

    >>> import minitape as tf
    >>> tf.keras.losses.categorical_crossentropy([[0.0, 1.0], [1.0, 0.0]], [[0.2, 0.8], [0.5, 0.5]]).numpy()
    array([0.22314353, 0.6931472 ], dtype=float32)
    """
    y_pred = ops.as_operand(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    if y_true.shape != y_pred.shape:
        raise ValueError(f"categorical_crossentropy: y_true shape {tuple(y_true.shape)} must equal y_pred shape "
                         f"{tuple(y_pred.shape)} (one-hot labels, one row per example).")
    return -ops.reduce_sum(y_true * _log_probabilities(y_pred, from_logits), axis=-1)


def sparse_categorical_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False) -> Tensor:
    """Cross-entropy against integer class labels, one loss per example.

    >>> import minitape as tf
    >>> tf.keras.losses.sparse_categorical_crossentropy([1, 0], [[1.0, 2.0], [1.0, 2.0]], from_logits=True).numpy()
    array([0.31326166, 1.3132616 ], dtype=float32)
    """
    y_pred = ops.as_operand(y_pred)
    classes = ops.as_operand(y_true).numpy().astype(np.int64)
    if classes.ndim == y_pred.ndim and classes.shape[-1:] == (1,):     # labels (n, 1) against (n, classes)
        classes = classes[..., 0]
    if classes.shape != tuple(y_pred.shape[:-1]):
        raise ValueError(f"sparse_categorical_crossentropy: y_true (labels) of shape {classes.shape} must match "
                         f"y_pred of shape {tuple(y_pred.shape)} up to its last axis (the classes): one integer "
                         f"label per row of predictions.")
    # From probabilities, Keras clips first and lets the softmax renormalise: logits = log(clip(p)).
    logits = y_pred if from_logits else ops.log(ops.clip_by_value(y_pred, EPSILON, 1 - EPSILON))
    return nn.sparse_softmax_cross_entropy_with_logits(classes, logits)


def mean_squared_error(y_true: Any, y_pred: Any) -> Tensor:
    """Mean of ``(y_true - y_pred)²`` over the last axis, one loss per example.

    >>> import minitape as tf
    >>> tf.keras.losses.mean_squared_error([[0.0, 1.0], [2.0, 2.0]], [[1.0, 1.0], [2.0, 2.0]]).numpy()
    array([0.5, 0. ], dtype=float32)
    """
    y_pred = ops.as_operand(y_pred)
    y_true, y_pred = same_rank(ops.cast(y_true, y_pred.dtype), y_pred)
    return ops.reduce_mean(ops.square(y_true - y_pred), axis=-1)


def masked_mean(losses: Tensor, mask: Tensor) -> Tensor:
    """The mean of ``losses`` where ``mask`` is True (0 if it is nowhere): Keras 3 averages a sequence's loss
    over its real steps when the predictions carry a mask (see ``minitape.keras.masking``).

    >>> import minitape as tf
    >>> masked_mean(tf.constant([[1.0, 3.0, 8.0]]), tf.constant([[True, True, False]])).numpy()
    np.float32(2.0)
    """
    mask = mask_weights(mask, losses)
    valid = ops.reduce_sum(mask * ops.ones_like(losses))
    return ops.reduce_sum(losses * mask) / ops.maximum(valid, 1.0)      # no real step: the sum is 0, and so is this


class Loss:
    """A loss object: called as ``loss(y_true, y_pred)``, it averages the per-example losses.

    >>> import minitape as tf
    >>> class MeanAbsoluteError(tf.keras.losses.Loss):
    ...     def call(self, y_true, y_pred):
    ...         return tf.reduce_mean(tf.abs(y_pred - y_true), axis=-1)   # tensors here, as in Keras
    >>> MeanAbsoluteError()([[0.0, 1.0], [1.0, 1.0]], [[1.0, 1.0], [1.0, 3.0]]).numpy()
    np.float32(0.75)
    """

    def __call__(self, y_true: Any, y_pred: Any) -> Tensor:
        # As Keras: lists and arrays arrive at ``call`` as tensors.
        losses = self.call(ops.as_operand(y_true), ops.as_operand(y_pred))
        mask = get_keras_mask(y_pred)
        return ops.reduce_mean(losses) if mask is None else masked_mean(losses, mask)

    def call(self, y_true: Any, y_pred: Any) -> Tensor:
        """The loss of each example: what subclasses write.

        >>> import minitape as tf
        >>> tf.keras.losses.Loss().call([1.0], [0.0])
        Traceback (most recent call last):
        ...
        NotImplementedError
        """
        raise NotImplementedError


class LossFunctionWrapper(Loss):
    """A function of ``(y_true, y_pred)`` giving one loss per example, as a loss object (``compile`` makes these
    of functions; the built-in losses are these too).  The labels are brought to the predictions' rank first
    (``same_rank``); ``fn_kwargs`` go to ``fn``.

    >>> import minitape as tf
    >>> loss = tf.keras.losses.LossFunctionWrapper(tf.keras.losses.mean_squared_error)
    >>> loss([[0.0], [0.0]], [[1.0], [3.0]]).numpy()
    np.float32(5.0)
    """

    def __init__(self, fn: Any, name: str | None = None, **fn_kwargs: Any) -> None:
        self.fn, self.name, self.fn_kwargs = fn, name or getattr(fn, "__name__", "loss"), fn_kwargs

    def call(self, y_true: Any, y_pred: Any) -> Tensor:
        """``fn(y_true, y_pred, **fn_kwargs)``, the labels at the predictions' rank.

        >>> import minitape as tf
        >>> tf.keras.losses.LossFunctionWrapper(tf.keras.losses.mean_squared_error).call([0.0], [[2.0]]).numpy()
        array([4.], dtype=float32)
        """
        y_true, y_pred = same_rank(ops.as_operand(y_true), ops.as_operand(y_pred))
        return self.fn(y_true, y_pred, **self.fn_kwargs)


class MeanSquaredError(LossFunctionWrapper):
    """The mean squared error, averaged over the batch (see ``mean_squared_error``).

    >>> import minitape as tf
    >>> tf.keras.losses.MeanSquaredError()([[0.0, 1.0], [2.0, 2.0]], [[1.0, 1.0], [2.0, 2.0]]).numpy()
    np.float32(0.25)
    """

    def __init__(self, name: str = "mean_squared_error") -> None:
        super().__init__(mean_squared_error, name)


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """Cross-entropy against integer labels, averaged over the batch; ``from_logits`` if not probabilities.

    >>> import minitape as tf
    >>> loss = tf.keras.losses.SparseCategoricalCrossentropy()
    >>> loss([1, 0], [[0.5, 0.5], [0.5, 0.5]]).numpy()
    np.float32(0.6931472)
    """

    def __init__(self, from_logits: bool = False, name: str = "sparse_categorical_crossentropy") -> None:
        super().__init__(sparse_categorical_crossentropy, name, from_logits=from_logits)
        self.from_logits = from_logits


class CategoricalCrossentropy(LossFunctionWrapper):
    """Cross-entropy against one-hot labels, averaged over the batch; ``from_logits`` if not probabilities.

    >>> import minitape as tf
    >>> tf.keras.losses.CategoricalCrossentropy(from_logits=True)([[0.0, 1.0]], [[1.0, 2.0]]).numpy()
    np.float32(0.31326166)
    """

    def __init__(self, from_logits: bool = False, name: str = "categorical_crossentropy") -> None:
        super().__init__(categorical_crossentropy, name, from_logits=from_logits)
        self.from_logits = from_logits


_BY_NAME = {"sparse_categorical_crossentropy": SparseCategoricalCrossentropy,
            "categorical_crossentropy": CategoricalCrossentropy, "mse": MeanSquaredError,
            "mean_squared_error": MeanSquaredError}


def get(identifier: Any) -> Loss:
    """A loss object: a new one for a name (``"mse"``, ``"categorical_crossentropy"``...), a loss object itself,
    or a function of ``(y_true, y_pred)`` wrapped.

    >>> import minitape as tf
    >>> type(tf.keras.losses.get("sparse_categorical_crossentropy")).__name__
    'SparseCategoricalCrossentropy'
    """
    if isinstance(identifier, Loss):
        return identifier
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]()
    if callable(identifier) and not isinstance(identifier, str):
        return LossFunctionWrapper(identifier)
    raise ValueError(f"Could not interpret loss identifier: {identifier!r}. Known names: {', '.join(sorted(_BY_NAME))}; "
                     f"or pass a loss object or a function of (y_true, y_pred).")


__all__ = ["CategoricalCrossentropy", "Loss", "LossFunctionWrapper", "MeanSquaredError", "SparseCategoricalCrossentropy",
           "categorical_crossentropy", "get", "mean_squared_error", "same_rank", "sparse_categorical_crossentropy"]
