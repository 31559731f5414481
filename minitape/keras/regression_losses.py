"""Losses between real-valued targets and predictions: squared, absolute, percentage, logarithmic and Huber
errors, log-cosh, cosine similarity; and the overlap losses of segmentation, Dice and Tversky.

Each function gives one value per example (a mean over the last axis), its labels first brought to
the predictions' rank (``same_rank``); each class averages those over the batch.

>>> import minitape as tf
>>> tf.keras.losses.mae([[1.0, 0.3, 1.0]], [[1.9, 0.3, 1.8]]).numpy()
array([0.56666666], dtype=float32)
>>> tf.keras.losses.Huber(delta=1.0)([[0.0, 0.0]], [[0.5, 3.0]]).numpy()      # quadratic, then linear
np.float32(1.3125)
"""
from __future__ import annotations

import math
from typing import Any

from minitape import ops
from minitape.core.tensor import Tensor
from minitape.keras.loss import EPSILON, LossFunctionWrapper, same_rank

REDUCE = "sum_over_batch_size"


def _aligned(y_true: Any, y_pred: Any) -> tuple[Tensor, Tensor]:
    """``y_pred`` as a tensor, ``y_true`` cast to its dtype, both at the same rank."""
    y_pred = ops.as_operand(y_pred)
    return same_rank(ops.cast(y_true, y_pred.dtype), y_pred)


def mean_squared_error(y_true: Any, y_pred: Any) -> Tensor:
    """Mean of ``(y_true - y_pred)²`` over the last axis, one loss per example.

    >>> import minitape as tf
    >>> tf.keras.losses.mean_squared_error([[0.0, 1.0], [2.0, 2.0]], [[1.0, 1.0], [2.0, 2.0]]).numpy()
    array([0.5, 0. ], dtype=float32)
    """
    y_true, y_pred = _aligned(y_true, y_pred)
    return ops.reduce_mean(ops.square(y_true - y_pred), axis=-1)


def mean_absolute_error(y_true: Any, y_pred: Any) -> Tensor:
    """Mean of ``|y_true - y_pred|`` over the last axis.

    >>> import minitape as tf
    >>> tf.keras.losses.mae([[0.0, 1.0]], [[1.0, 3.0]]).numpy()
    array([1.5], dtype=float32)
    """
    y_true, y_pred = _aligned(y_true, y_pred)
    return ops.reduce_mean(ops.abs(y_true - y_pred), axis=-1)


def mean_absolute_percentage_error(y_true: Any, y_pred: Any) -> Tensor:
    """``100 ·`` the mean of ``|y_true - y_pred| / max(|y_true|, 1e-7)`` over the last axis.

    >>> import minitape as tf
    >>> tf.keras.losses.mape([[100.0, 200.0]], [[90.0, 210.0]]).numpy()
    array([7.5000005], dtype=float32)
    """
    y_true, y_pred = _aligned(y_true, y_pred)
    return 100.0 * ops.reduce_mean(ops.abs((y_true - y_pred) / ops.maximum(ops.abs(y_true), EPSILON)), axis=-1)


def mean_squared_logarithmic_error(y_true: Any, y_pred: Any) -> Tensor:
    """Mean of ``(log(1 + y_pred) - log(1 + y_true))²``, each first raised to at least 1e-7.

    >>> import minitape as tf
    >>> tf.keras.losses.msle([[0.0, 1.0]], [[1.0, 1.0]]).numpy()
    array([0.24022643], dtype=float32)
    """
    y_true, y_pred = _aligned(y_true, y_pred)
    log_pred, log_true = ops.log(ops.maximum(y_pred, EPSILON) + 1.0), ops.log(ops.maximum(y_true, EPSILON) + 1.0)
    return ops.reduce_mean(ops.square(log_pred - log_true), axis=-1)


def l2_normalize(x: Tensor, axis: int = -1) -> Tensor:
    """Keras' ``normalize``: ``x / |x|`` along ``axis``, the inverse norm capped at 1e7 (a zero vector stays zero).

    >>> import minitape as tf
    >>> from minitape.keras.regression_losses import l2_normalize
    >>> l2_normalize(tf.constant([[3.0, 4.0], [0.0, 0.0]])).numpy()
    array([[0.6, 0.8],
           [0. , 0. ]], dtype=float32)
    """
    squares = ops.reduce_sum(ops.square(x), axis=axis, keepdims=True)
    return x * ops.minimum(1.0 / ops.sqrt(squares), 1.0 / EPSILON)


def cosine_similarity(y_true: Any, y_pred: Any, axis: int = -1) -> Tensor:
    """Minus the cosine of the angle between ``y_true`` and ``y_pred`` along ``axis``: -1 when they point alike,
    so minimising it aligns them.

    >>> import minitape as tf
    >>> tf.keras.losses.cosine_similarity([[0.0, 1.0], [1.0, 1.0]], [[1.0, 0.0], [1.0, 1.0]]).numpy()
    array([-0.        , -0.99999994], dtype=float32)
    """
    y_true, y_pred = _aligned(y_true, y_pred)
    return -ops.reduce_sum(l2_normalize(y_true, axis) * l2_normalize(y_pred, axis), axis=axis)


def huber(y_true: Any, y_pred: Any, delta: float = 1.0) -> Tensor:
    """Mean over the last axis of ``½e²`` where ``|e| <= delta``, else ``delta·|e| - ½delta²`` (``e = y_pred -
    y_true``): squared near the target, absolute far from it.

    >>> import minitape as tf
    >>> tf.keras.losses.huber([[0.0, 0.0]], [[0.5, 3.0]]).numpy()
    array([1.3125], dtype=float32)
    """
    y_true, y_pred = _aligned(y_true, y_pred)
    error = y_pred - y_true
    small = ops.abs(error) <= delta
    return ops.reduce_mean(ops.where(small, 0.5 * ops.square(error), delta * ops.abs(error) - 0.5 * delta ** 2),
                           axis=-1)


def log_cosh(y_true: Any, y_pred: Any) -> Tensor:
    """Mean over the last axis of ``log(cosh(y_pred - y_true))``, computed as ``x + softplus(-2x) - log 2``.

    >>> import minitape as tf
    >>> tf.keras.losses.logcosh([[0.0, 0.0]], [[1.0, -1.0]]).numpy()
    array([0.43378085], dtype=float32)
    """
    y_true, y_pred = _aligned(y_true, y_pred)
    x = y_pred - y_true
    return ops.reduce_mean(x + ops.softplus(-2.0 * x) - math.log(2.0), axis=-1)


def dice(y_true: Any, y_pred: Any, axis: int | tuple[int, ...] | None = None) -> Tensor:
    """``1 - 2·sum(y_true·y_pred) / (sum(y_true) + sum(y_pred) + 1e-7)`` over ``axis`` (everything if None).

    >>> import minitape as tf
    >>> tf.keras.losses.dice([[1.0, 0.0]], [[0.5, 0.5]]).numpy()
    np.float32(0.5)
    """
    y_pred = ops.as_operand(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    overlap = ops.reduce_sum(y_true * y_pred, axis=axis)
    return 1 - 2.0 * overlap / (ops.reduce_sum(y_true, axis=axis) + ops.reduce_sum(y_pred, axis=axis) + EPSILON)


def tversky(y_true: Any, y_pred: Any, alpha: float = 0.5, beta: float = 0.5,
            axis: int | tuple[int, ...] | None = None) -> Tensor:
    """``1 - TP / (TP + alpha·FP + beta·FN + 1e-7)`` with soft counts over ``axis``; alpha = beta = ½ is Dice.

    >>> import minitape as tf
    >>> tf.keras.losses.tversky([[1.0, 0.0]], [[0.5, 0.5]], alpha=0.7, beta=0.3).numpy()
    np.float32(0.50000006)
    """
    y_pred = ops.as_operand(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    hits = ops.reduce_sum(y_true * y_pred, axis=axis)
    false_pos = ops.reduce_sum((1 - y_pred) * y_true, axis=axis)        # Keras' own naming of the two terms
    false_neg = ops.reduce_sum(y_pred * (1 - y_true), axis=axis)
    return 1 - hits / (hits + false_pos * alpha + false_neg * beta + EPSILON)


class MeanSquaredError(LossFunctionWrapper):
    """The mean squared error, averaged over the batch (see ``mean_squared_error``).

    >>> import minitape as tf
    >>> tf.keras.losses.MeanSquaredError()([[0.0, 1.0], [2.0, 2.0]], [[1.0, 1.0], [2.0, 2.0]]).numpy()
    np.float32(0.25)
    """

    def __init__(self, reduction: str | None = REDUCE, name: str = "mean_squared_error", dtype: Any = None) -> None:
        super().__init__(mean_squared_error, reduction=reduction, name=name, dtype=dtype)


class MeanAbsoluteError(LossFunctionWrapper):
    """The mean absolute error, averaged over the batch.

    >>> import minitape as tf
    >>> tf.keras.losses.MeanAbsoluteError()([[0.0], [0.0]], [[1.0], [-3.0]]).numpy()
    np.float32(2.0)
    """

    def __init__(self, reduction: str | None = REDUCE, name: str = "mean_absolute_error", dtype: Any = None) -> None:
        super().__init__(mean_absolute_error, reduction=reduction, name=name, dtype=dtype)


class MeanAbsolutePercentageError(LossFunctionWrapper):
    """The mean absolute percentage error, averaged over the batch.

    >>> import minitape as tf
    >>> tf.keras.losses.MeanAbsolutePercentageError()([[100.0], [200.0]], [[90.0], [210.0]]).numpy()
    np.float32(7.5)
    """

    def __init__(self, reduction: str | None = REDUCE, name: str = "mean_absolute_percentage_error",
                 dtype: Any = None) -> None:
        super().__init__(mean_absolute_percentage_error, reduction=reduction, name=name, dtype=dtype)


class MeanSquaredLogarithmicError(LossFunctionWrapper):
    """The mean squared logarithmic error, averaged over the batch.

    >>> import minitape as tf
    >>> tf.keras.losses.MeanSquaredLogarithmicError()([[0.0, 1.0]], [[1.0, 1.0]]).numpy()
    np.float32(0.24022643)
    """

    def __init__(self, reduction: str | None = REDUCE, name: str = "mean_squared_logarithmic_error",
                 dtype: Any = None) -> None:
        super().__init__(mean_squared_logarithmic_error, reduction=reduction, name=name, dtype=dtype)


class CosineSimilarity(LossFunctionWrapper):
    """Minus the cosine similarity along ``axis``, averaged over the batch.

    >>> import minitape as tf
    >>> tf.keras.losses.CosineSimilarity()([[0.0, 1.0], [1.0, 1.0]], [[1.0, 0.0], [1.0, 1.0]]).numpy()
    np.float32(-0.49999997)
    """

    def __init__(self, axis: int = -1, reduction: str | None = REDUCE, name: str = "cosine_similarity",
                 dtype: Any = None) -> None:
        super().__init__(cosine_similarity, reduction=reduction, name=name, dtype=dtype, axis=axis)


class Huber(LossFunctionWrapper):
    """The Huber loss with threshold ``delta``, averaged over the batch (see ``huber``).

    >>> import minitape as tf
    >>> tf.keras.losses.Huber(delta=2.0)([[0.0]], [[3.0]]).numpy()
    np.float32(4.0)
    """

    def __init__(self, delta: float = 1.0, reduction: str | None = REDUCE, name: str = "huber_loss",
                 dtype: Any = None) -> None:
        super().__init__(huber, reduction=reduction, name=name, dtype=dtype, delta=delta)


class LogCosh(LossFunctionWrapper):
    """The log-cosh loss, averaged over the batch.

    >>> import minitape as tf
    >>> tf.keras.losses.LogCosh()([[0.0, 0.0]], [[1.0, -1.0]]).numpy()
    np.float32(0.43378085)
    """

    def __init__(self, reduction: str | None = REDUCE, name: str = "log_cosh", dtype: Any = None) -> None:
        super().__init__(log_cosh, reduction=reduction, name=name, dtype=dtype)


class Dice(LossFunctionWrapper):
    """The Dice loss over ``axis`` (the whole batch if None), as segmentation uses it.

    >>> import minitape as tf
    >>> tf.keras.losses.Dice()([[1.0, 0.0]], [[0.5, 0.5]]).numpy()
    np.float32(0.5)
    """

    configured = ("axis",)

    def __init__(self, reduction: str | None = REDUCE, name: str = "dice", axis: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(dice, reduction=reduction, name=name, dtype=dtype, axis=axis)


class Tversky(LossFunctionWrapper):
    """The Tversky loss, weighing false positives by ``alpha`` and false negatives by ``beta``.

    >>> import minitape as tf
    >>> tf.keras.losses.Tversky(alpha=0.7, beta=0.3)([[1.0, 0.0]], [[0.5, 0.5]]).numpy()
    np.float32(0.50000006)
    """

    configured = ("alpha", "beta", "axis")

    def __init__(self, alpha: float = 0.5, beta: float = 0.5, reduction: str | None = REDUCE,
                 name: str = "tversky", axis: Any = None, dtype: Any = None) -> None:
        super().__init__(tversky, reduction=reduction, name=name, dtype=dtype, alpha=alpha, beta=beta, axis=axis)


mse, mae, mape, msle = (mean_squared_error, mean_absolute_error, mean_absolute_percentage_error,
                        mean_squared_logarithmic_error)
