"""Losses between probability distributions: the cross-entropies, their focal forms, KL divergence, Poisson.

From probabilities (``from_logits=False``) Keras clips to ``[1e-7, 1 - 1e-7]`` before each log
(and a categorical ``y_pred`` is first renormalised to sum to one), so a confident wrong answer
costs about 16.1, not infinity.  ``label_smoothing`` moves the labels towards uniform: ``y·(1-s) +
s/2`` for binary labels, ``y·(1-s) + s/classes`` for one-hot ones.

>>> import minitape as tf
>>> tf.keras.losses.binary_crossentropy([[0.0, 1.0]], [[0.0, 0.0]]).numpy()        # two clipped logs
array([8.059048], dtype=float32)
>>> loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
>>> round(float(loss([1], [[1.0, 2.0]])), 6)
0.313262
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape import ops
from minitape.core.tensor import Tensor
from minitape.dialect import nn
from minitape.keras.loss import EPSILON, LossFunctionWrapper

REDUCE = "sum_over_batch_size"


def _operands(y_true: Any, y_pred: Any) -> tuple[Tensor, Tensor]:
    """``y_pred`` as a tensor and ``y_true`` cast to its dtype, as every Keras loss starts."""
    y_pred = ops.as_operand(y_pred)
    return ops.cast(y_true, y_pred.dtype), y_pred


def _same_shape(fn: str, y_true: Tensor, y_pred: Tensor) -> None:
    if tuple(y_true.shape) != tuple(y_pred.shape):
        raise ValueError(f"{fn}: Arguments `target` and `output` must have the same shape. Received: "
                         f"target.shape={tuple(y_true.shape)}, output.shape={tuple(y_pred.shape)}. Give one label "
                         f"per prediction (one-hot rows for categorical losses, integer labels for sparse ones).")


def _elementwise_bce(y_true: Tensor, y_pred: Tensor, from_logits: bool) -> Tensor:
    """The cross-entropy of each entry: TF's ``sigmoid_cross_entropy_with_logits`` from logits, else from clipped
    probabilities."""
    if from_logits:      # max(x, 0) - x·z + log(1 + exp(-|x|)): stable for large |x|
        return ops.maximum(y_pred, 0.0) - y_pred * y_true + ops.log1p(ops.exp(-ops.abs(y_pred)))
    p = ops.clip_by_value(y_pred, EPSILON, 1 - EPSILON)
    return -(y_true * ops.log(p) + (1 - y_true) * ops.log(1 - p))


def _smooth(y_true: Tensor, label_smoothing: float, classes: float) -> Tensor:
    return y_true * (1.0 - label_smoothing) + label_smoothing / classes if label_smoothing else y_true


def binary_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False, label_smoothing: float = 0.0,
                        axis: int = -1) -> Tensor:
    """The mean over ``axis`` of ``-(y·log p + (1-y)·log(1-p))``: one loss per example.

    >>> import minitape as tf
    >>> tf.keras.losses.binary_crossentropy([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]]).numpy()
    array([0.91629076, 0.7135582 ], dtype=float32)
    """
    y_true, y_pred = _operands(y_true, y_pred)
    _same_shape("binary_crossentropy", y_true, y_pred)
    return ops.reduce_mean(_elementwise_bce(_smooth(y_true, label_smoothing, 2.0), y_pred, from_logits), axis=axis)


def binary_focal_crossentropy(y_true: Any, y_pred: Any, apply_class_balancing: bool = False, alpha: float = 0.25,
                              gamma: float = 2.0, from_logits: bool = False, label_smoothing: float = 0.0,
                              axis: int = -1) -> Tensor:
    """Binary cross-entropy with each entry scaled by ``(1 - p_t)^gamma``, ``p_t`` the probability given to the true
    label: easy examples weigh less.  ``apply_class_balancing`` weighs positives ``alpha``, negatives ``1 - alpha``.

    >>> import minitape as tf
    >>> tf.keras.losses.binary_focal_crossentropy([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]], gamma=2.0).numpy()
    array([0.32986468, 0.20579839], dtype=float32)
    """
    y_true, y_pred = _operands(y_true, y_pred)
    _same_shape("binary_focal_crossentropy", y_true, y_pred)
    y_true = _smooth(y_true, label_smoothing, 2.0)
    p = ops.sigmoid(y_pred) if from_logits else y_pred
    p_true = y_true * p + (1 - y_true) * (1 - p)
    focal = ops.pow(1.0 - p_true, gamma) * _elementwise_bce(y_true, p, False)
    if apply_class_balancing:
        focal = (y_true * alpha + (1 - y_true) * (1 - alpha)) * focal
    return ops.reduce_mean(focal, axis=axis)


def _probabilities(y_pred: Tensor, from_logits: bool, axis: int) -> Tensor:
    """Keras' categorical probabilities: a softmax of logits, or ``y_pred`` renormalised; clipped away from 0 and 1."""
    p = ops.softmax(y_pred, axis=axis) if from_logits else y_pred / ops.reduce_sum(y_pred, axis=axis, keepdims=True)
    return ops.clip_by_value(p, EPSILON, 1 - EPSILON)


def categorical_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False, label_smoothing: float = 0.0,
                             axis: int = -1) -> Tensor:
    """``-sum(y_true · log p)`` over ``axis``, one loss per example (labels one-hot, or any distribution).

    >>> import minitape as tf
    >>> tf.keras.losses.categorical_crossentropy([[0.0, 1.0], [1.0, 0.0]], [[0.2, 0.8], [0.5, 0.5]]).numpy()
    array([0.22314353, 0.6931472 ], dtype=float32)
    """
    y_true, y_pred = _operands(y_true, y_pred)
    _same_shape("categorical_crossentropy", y_true, y_pred)
    y_true = _smooth(y_true, label_smoothing, float(y_true.shape[-1]))
    log_p = ops.log_softmax(y_pred, axis=axis) if from_logits else ops.log(_probabilities(y_pred, False, axis))
    return -ops.reduce_sum(y_true * log_p, axis=axis)


def categorical_focal_crossentropy(y_true: Any, y_pred: Any, alpha: float = 0.25, gamma: float = 2.0,
                                   from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1) -> Tensor:
    """Categorical cross-entropy with each class's term scaled by ``alpha · (1 - p)^gamma``.

    >>> import minitape as tf
    >>> tf.keras.losses.categorical_focal_crossentropy([[0.0, 1.0]], [[0.4, 0.6]]).numpy()
    array([0.02043302], dtype=float32)
    """
    y_true, y_pred = _operands(y_true, y_pred)
    _same_shape("categorical_focal_crossentropy", y_true, y_pred)
    y_true = _smooth(y_true, label_smoothing, float(y_true.shape[-1]))
    p = _probabilities(y_pred, from_logits, axis)
    return ops.reduce_sum(alpha * ops.pow(1.0 - p, gamma) * (-y_true * ops.log(p)), axis=axis)


def _class_labels(y_true: Any, y_pred: Tensor, ignore_class: int | None) -> tuple[np.ndarray, np.ndarray | None]:
    """Integer labels of shape ``y_pred.shape[:-1]`` (a trailing axis of 1 dropped), the ignored ones set to 0;
    and where they were not ignored (None without ``ignore_class``)."""
    classes = np.asarray(ops.as_operand(y_true).numpy()).astype(np.int64)
    if classes.ndim == y_pred.ndim and classes.shape[-1:] == (1,):     # labels (n, 1) against (n, classes)
        classes = classes[..., 0]
    if classes.shape != tuple(y_pred.shape[:-1]):
        raise ValueError(f"sparse_categorical_crossentropy: y_true (labels) of shape {classes.shape} must match "
                         f"y_pred of shape {tuple(y_pred.shape)} up to its last axis (the classes): one integer "
                         f"label per row of predictions.")
    if ignore_class is None:
        return classes, None
    kept = classes != ignore_class
    return np.where(kept, classes, 0), kept


def sparse_categorical_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False,
                                    ignore_class: int | None = None, axis: int = -1) -> Tensor:
    """Cross-entropy against integer class labels, one loss per example (0 for a label equal to ``ignore_class``).

    >>> import minitape as tf
    >>> tf.keras.losses.sparse_categorical_crossentropy([1, 0], [[1.0, 2.0], [1.0, 2.0]], from_logits=True).numpy()
    array([0.31326166, 1.3132616 ], dtype=float32)
    """
    y_pred = ops.as_operand(y_pred)
    if axis not in (-1, y_pred.ndim - 1):
        raise ValueError(f"sparse_categorical_crossentropy: only the last axis can hold the classes in minitape; "
                         f"received axis={axis}. Move the classes last with tf.transpose.")
    classes, kept = _class_labels(y_true, y_pred, ignore_class)
    # From probabilities, Keras clips first and lets the softmax renormalise: logits = log(clip(p)).
    logits = y_pred if from_logits else ops.log(ops.clip_by_value(y_pred, EPSILON, 1 - EPSILON))
    losses = nn.sparse_softmax_cross_entropy_with_logits(classes, logits)
    return losses if kept is None else ops.where(kept, losses, 0.0)


def kl_divergence(y_true: Any, y_pred: Any) -> Tensor:
    """``sum(y_true · log(y_true / y_pred))`` over the last axis, both clipped to ``[1e-7, 1]``.

    >>> import minitape as tf
    >>> tf.keras.losses.kld([[0.5, 0.5]], [[0.25, 0.75]]).numpy()
    array([0.14384106], dtype=float32)
    """
    y_true, y_pred = _operands(y_true, y_pred)
    y_true, y_pred = ops.clip_by_value(y_true, EPSILON, 1.0), ops.clip_by_value(y_pred, EPSILON, 1.0)
    return ops.reduce_sum(y_true * ops.log(y_true / y_pred), axis=-1)


def poisson(y_true: Any, y_pred: Any) -> Tensor:
    """The mean over the last axis of ``y_pred - y_true · log(y_pred + 1e-7)``: counts predicted as rates.

    >>> import minitape as tf
    >>> tf.keras.losses.poisson([[1.0, 2.0]], [[1.0, 1.0]]).numpy()
    array([0.9999998], dtype=float32)
    """
    y_true, y_pred = _operands(y_true, y_pred)
    return ops.reduce_mean(y_pred - y_true * ops.log(y_pred + EPSILON), axis=-1)


class BinaryCrossentropy(LossFunctionWrapper):
    """Binary cross-entropy for 0/1 labels, averaged over the batch (see ``binary_crossentropy``).

    >>> import minitape as tf
    >>> loss = tf.keras.losses.BinaryCrossentropy(from_logits=True)([[1.0], [0.0]], [[2.0], [-1.0]])
    >>> round(float(loss), 6)             # TF: 0.22009484 (the last digit moves with the CPU's exp and log1p)
    0.220095
    """

    configured = ("from_logits", "label_smoothing", "axis")

    def __init__(self, from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1,
                 reduction: str | None = REDUCE, name: str = "binary_crossentropy", dtype: Any = None) -> None:
        super().__init__(binary_crossentropy, reduction=reduction, name=name, dtype=dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


class BinaryFocalCrossentropy(LossFunctionWrapper):
    """Binary cross-entropy that weighs hard examples more (see ``binary_focal_crossentropy``).

    >>> import minitape as tf
    >>> tf.keras.losses.BinaryFocalCrossentropy(gamma=0.0)([[1.0]], [[0.5]]).numpy()   # gamma 0: plain BCE
    np.float32(0.6931472)
    """

    configured = ("from_logits", "label_smoothing", "axis", "apply_class_balancing", "alpha", "gamma")

    def __init__(self, apply_class_balancing: bool = False, alpha: float = 0.25, gamma: float = 2.0,
                 from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1,
                 reduction: str | None = REDUCE, name: str = "binary_focal_crossentropy", dtype: Any = None) -> None:
        super().__init__(binary_focal_crossentropy, reduction=reduction, name=name, dtype=dtype,
                         apply_class_balancing=apply_class_balancing, alpha=alpha, gamma=gamma,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class CategoricalCrossentropy(LossFunctionWrapper):
    """Cross-entropy against one-hot labels, averaged over the batch; ``from_logits`` if not probabilities.

    >>> import minitape as tf
    >>> tf.keras.losses.CategoricalCrossentropy(from_logits=True)([[0.0, 1.0]], [[1.0, 2.0]]).numpy()
    np.float32(0.31326166)
    """

    configured = ("from_logits", "label_smoothing", "axis")

    def __init__(self, from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1,
                 reduction: str | None = REDUCE, name: str = "categorical_crossentropy", dtype: Any = None) -> None:
        super().__init__(categorical_crossentropy, reduction=reduction, name=name, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class CategoricalFocalCrossentropy(LossFunctionWrapper):
    """Categorical cross-entropy that weighs hard examples more (see ``categorical_focal_crossentropy``).

    >>> import minitape as tf
    >>> tf.keras.losses.CategoricalFocalCrossentropy(alpha=1.0, gamma=0.0)([[0.0, 1.0]], [[0.5, 0.5]]).numpy()
    np.float32(0.6931472)
    """

    configured = ("from_logits", "label_smoothing", "axis", "alpha", "gamma")

    def __init__(self, alpha: float = 0.25, gamma: float = 2.0, from_logits: bool = False,
                 label_smoothing: float = 0.0, axis: int = -1, reduction: str | None = REDUCE,
                 name: str = "categorical_focal_crossentropy", dtype: Any = None) -> None:
        super().__init__(categorical_focal_crossentropy, reduction=reduction, name=name, dtype=dtype, alpha=alpha,
                         gamma=gamma, from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """Cross-entropy against integer labels, averaged over the batch; labels equal to ``ignore_class`` are left out
    of the loss and of the count it is averaged over.

    >>> import minitape as tf
    >>> loss = tf.keras.losses.SparseCategoricalCrossentropy(ignore_class=-1)
    >>> loss([1, -1], [[0.5, 0.5], [0.9, 0.1]]).numpy()                 # the second label is ignored
    np.float32(0.6931472)
    """

    configured = ("from_logits", "ignore_class")

    def __init__(self, from_logits: bool = False, ignore_class: int | None = None, reduction: str | None = REDUCE,
                 name: str = "sparse_categorical_crossentropy", dtype: Any = None) -> None:
        super().__init__(sparse_categorical_crossentropy, reduction=reduction, name=name, dtype=dtype,
                         from_logits=from_logits, ignore_class=ignore_class)

    def mask(self, y_true: Tensor, y_pred: Tensor) -> Tensor | None:
        """Where the labels are not ``ignore_class`` (None when no class is ignored).

        >>> import minitape as tf
        >>> tf.keras.losses.SparseCategoricalCrossentropy(ignore_class=0).mask([0, 2], tf.ones((2, 3)))
        array([False,  True])
        """
        return None if self.ignore_class is None else _class_labels(y_true, ops.as_operand(y_pred),
                                                                    self.ignore_class)[1]


class KLDivergence(LossFunctionWrapper):
    """Kullback-Leibler divergence of ``y_pred`` from ``y_true``, averaged over the batch.

    >>> import minitape as tf
    >>> tf.keras.losses.KLDivergence()([[0.5, 0.5]], [[0.5, 0.5]]).numpy()
    np.float32(0.0)
    """

    def __init__(self, reduction: str | None = REDUCE, name: str = "kl_divergence", dtype: Any = None) -> None:
        super().__init__(kl_divergence, reduction=reduction, name=name, dtype=dtype)


class Poisson(LossFunctionWrapper):
    """The Poisson loss, averaged over the batch (see ``poisson``).

    >>> import minitape as tf
    >>> tf.keras.losses.Poisson()([[1.0, 2.0]], [[1.0, 1.0]]).numpy()
    np.float32(0.9999998)
    """

    def __init__(self, reduction: str | None = REDUCE, name: str = "poisson", dtype: Any = None) -> None:
        super().__init__(poisson, reduction=reduction, name=name, dtype=dtype)
