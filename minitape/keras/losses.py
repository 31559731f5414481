"""Losses: Keras' formulas, averaged over the batch.

Probabilities (``from_logits=False``) are renormalised to sum to one and
clipped to ``[1e-7, 1 - 1e-7]`` before the log, as Keras does.

>>> import minitape as tf
>>> tf.keras.losses.MeanSquaredError()([[0.0, 1.0]], [[1.0, 1.0]]).numpy()
np.float32(0.5)
>>> loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
>>> round(float(loss([1], [[1.0, 2.0]])), 6)
0.313262
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape import ops
from minitape.dialect import nn
from minitape.core.tensor import Tensor

EPSILON = 1e-7


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
    classes = ops.as_operand(y_true).numpy().astype(np.int64).reshape(tuple(y_pred.shape[:-1]))
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
    return ops.reduce_mean(ops.square(ops.cast(y_true, y_pred.dtype) - y_pred), axis=-1)


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
        return ops.reduce_mean(self.call(ops.as_operand(y_true), ops.as_operand(y_pred)))

    def call(self, y_true: Any, y_pred: Any) -> Tensor:
        """The loss of each example: what subclasses write.

        >>> import minitape as tf
        >>> tf.keras.losses.Loss().call([1.0], [0.0])
        Traceback (most recent call last):
        ...
        NotImplementedError
        """
        raise NotImplementedError


class MeanSquaredError(Loss):
    """The mean squared error, averaged over the batch (see ``mean_squared_error``).

    >>> import minitape as tf
    >>> tf.keras.losses.MeanSquaredError()([[0.0, 1.0], [2.0, 2.0]], [[1.0, 1.0], [2.0, 2.0]]).numpy()
    np.float32(0.25)
    """

    def call(self, y_true: Any, y_pred: Any) -> Tensor:
        """The mean squared error of each example.

        >>> import minitape as tf
        >>> tf.keras.losses.MeanSquaredError().call([[0.0, 1.0], [2.0, 2.0]], [[1.0, 1.0], [2.0, 2.0]]).numpy()
        array([0.5, 0. ], dtype=float32)
        """
        return mean_squared_error(y_true, y_pred)


class SparseCategoricalCrossentropy(Loss):
    """Cross-entropy against integer labels, averaged over the batch; ``from_logits`` if not probabilities.

    >>> import minitape as tf
    >>> loss = tf.keras.losses.SparseCategoricalCrossentropy()
    >>> loss([1, 0], [[0.5, 0.5], [0.5, 0.5]]).numpy()
    np.float32(0.6931472)
    """

    def __init__(self, from_logits: bool = False) -> None:
        self.from_logits = from_logits

    def call(self, y_true: Any, y_pred: Any) -> Tensor:
        """The cross-entropy of each example.

        >>> import minitape as tf
        >>> tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True).call([1], [[1.0, 2.0]]).numpy()
        array([0.31326166], dtype=float32)
        """
        return sparse_categorical_crossentropy(y_true, y_pred, self.from_logits)


class CategoricalCrossentropy(Loss):
    """Cross-entropy against one-hot labels, averaged over the batch; ``from_logits`` if not probabilities.

    >>> import minitape as tf
    >>> tf.keras.losses.CategoricalCrossentropy(from_logits=True)([[0.0, 1.0]], [[1.0, 2.0]]).numpy()
    np.float32(0.31326166)
    """

    def __init__(self, from_logits: bool = False) -> None:
        self.from_logits = from_logits

    def call(self, y_true: Any, y_pred: Any) -> Tensor:
        """The cross-entropy of each example.

        >>> import minitape as tf
        >>> tf.keras.losses.CategoricalCrossentropy().call([[0.0, 1.0], [1.0, 0.0]], [[0.2, 0.8], [0.5, 0.5]]).numpy()
        array([0.22314353, 0.6931472 ], dtype=float32)
        """
        return categorical_crossentropy(y_true, y_pred, self.from_logits)


class LossFunctionWrapper(Loss):
    """A function of ``(y_true, y_pred)`` giving one loss per example, as a loss object (``compile`` makes these).

    >>> import minitape as tf
    >>> loss = tf.keras.losses.LossFunctionWrapper(tf.keras.losses.mean_squared_error)
    >>> loss([[0.0], [0.0]], [[1.0], [3.0]]).numpy()
    np.float32(5.0)
    """

    def __init__(self, fn: Any, name: str | None = None) -> None:
        self.fn, self.name = fn, name or getattr(fn, "__name__", "loss")

    def call(self, y_true: Any, y_pred: Any) -> Tensor:
        """``fn(y_true, y_pred)``.

        >>> import minitape as tf
        >>> tf.keras.losses.LossFunctionWrapper(tf.keras.losses.mean_squared_error).call([[0.0]], [[2.0]]).numpy()
        array([4.], dtype=float32)
        """
        return self.fn(y_true, y_pred)


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
           "categorical_crossentropy", "get", "mean_squared_error", "sparse_categorical_crossentropy"]
