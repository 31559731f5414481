"""The hinge losses of maximum-margin classifiers: ``hinge``, ``squared_hinge`` and ``categorical_hinge``.

Labels are -1 or 1; labels that are all 0 or 1 are first turned into -1 and 1, as Keras 3 does.

>>> import minitape as tf
>>> tf.keras.losses.hinge([[0.0, 1.0]], [[0.3, 0.8]]).numpy()            # labels 0/1 read as -1/1
array([0.75], dtype=float32)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape import ops
from minitape.core.tensor import Tensor
from minitape.keras.loss import LossFunctionWrapper

REDUCE = "sum_over_batch_size"


def _signed_labels(y_true: Any, y_pred: Any) -> tuple[Tensor, Tensor]:
    """``y_true`` cast to ``y_pred``'s dtype, as -1/1 if it held only 0s and 1s."""
    y_pred = ops.as_operand(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    binary = bool(np.isin(y_true.numpy(), (0.0, 1.0)).all())
    return (2.0 * y_true - 1.0 if binary else y_true), y_pred


def hinge(y_true: Any, y_pred: Any) -> Tensor:
    """Mean over the last axis of ``max(1 - y_true·y_pred, 0)``.

    >>> import minitape as tf
    >>> tf.keras.losses.hinge([[-1.0, 1.0]], [[0.3, 0.8]]).numpy()
    array([0.75], dtype=float32)
    """
    y_true, y_pred = _signed_labels(y_true, y_pred)
    return ops.reduce_mean(ops.maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


def squared_hinge(y_true: Any, y_pred: Any) -> Tensor:
    """Mean over the last axis of ``max(1 - y_true·y_pred, 0)²``.

    >>> import minitape as tf
    >>> tf.keras.losses.squared_hinge([[-1.0, 1.0]], [[0.3, 0.8]]).numpy()
    array([0.8649999], dtype=float32)
    """
    y_true, y_pred = _signed_labels(y_true, y_pred)
    return ops.reduce_mean(ops.square(ops.maximum(1.0 - y_true * y_pred, 0.0)), axis=-1)


def categorical_hinge(y_true: Any, y_pred: Any) -> Tensor:
    """``max(1 + best wrong score - true class's score, 0)`` for one-hot labels.

    >>> import minitape as tf
    >>> tf.keras.losses.categorical_hinge([[0.0, 1.0]], [[0.3, 0.8]]).numpy()
    array([0.5], dtype=float32)
    """
    y_pred = ops.as_operand(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    positive = ops.reduce_sum(y_true * y_pred, axis=-1)
    negative = ops.reduce_max((1.0 - y_true) * y_pred, axis=-1)
    return ops.maximum(negative - positive + 1.0, 0.0)


class Hinge(LossFunctionWrapper):
    """The hinge loss, averaged over the batch.

    >>> import minitape as tf
    >>> tf.keras.losses.Hinge()([[0.0, 1.0]], [[0.3, 0.8]]).numpy()
    np.float32(0.75)
    """

    def __init__(self, reduction: str | None = REDUCE, name: str = "hinge", dtype: Any = None) -> None:
        super().__init__(hinge, reduction=reduction, name=name, dtype=dtype)


class SquaredHinge(LossFunctionWrapper):
    """The squared hinge loss, averaged over the batch.

    >>> import minitape as tf
    >>> tf.keras.losses.SquaredHinge()([[0.0, 1.0]], [[0.3, 0.8]]).numpy()
    np.float32(0.8649999)
    """

    def __init__(self, reduction: str | None = REDUCE, name: str = "squared_hinge", dtype: Any = None) -> None:
        super().__init__(squared_hinge, reduction=reduction, name=name, dtype=dtype)


class CategoricalHinge(LossFunctionWrapper):
    """The categorical hinge loss, averaged over the batch.

    >>> import minitape as tf
    >>> tf.keras.losses.CategoricalHinge()([[0.0, 1.0]], [[0.3, 0.8]]).numpy()
    np.float32(0.5)
    """

    def __init__(self, reduction: str | None = REDUCE, name: str = "categorical_hinge", dtype: Any = None) -> None:
        super().__init__(categorical_hinge, reduction=reduction, name=name, dtype=dtype)
