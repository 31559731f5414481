"""Metrics: running means over batches, as ``fit`` and ``evaluate`` report them.

A metric accumulates with ``update_state`` and reports with ``result()``; like Keras 3's,
it keeps its state in variables, a float32 ``total`` and ``count``, so a mean over batches
of unequal sizes weighs each example once.  Metrics are never differentiated: they compute
on the host, with NumPy.

>>> import minitape as tf
>>> accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
>>> accuracy.update_state([0, 1], [[0.9, 0.1], [0.8, 0.2]])         # one right of two
>>> accuracy.update_state([1], [[0.3, 0.7]])                         # and one of one
>>> float(accuracy.result())
0.6666666865348816
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minitape.core.tensor import Tensor, constant
from minitape.keras import losses
from minitape.keras.auc_metrics import (AUC, PrecisionAtRecall, RecallAtPrecision, SensitivityAtSpecificity,
                                        SpecificityAtSensitivity)
from minitape.keras.confusion_metrics import (FalseNegatives, FalsePositives, Precision, Recall, TrueNegatives,
                                              TruePositives)
from minitape.keras.f_score_metrics import F1Score, FBetaScore
from minitape.keras.metric import Metric
from minitape.keras.losses import same_rank
from minitape.keras.metric import host as _host
from minitape.keras.naming import from_identifier, snake_case
from minitape.keras.reduction_metrics import Mean, MeanMetricWrapper, Sum
from minitape.keras.regression_metrics import (
    BinaryCrossentropy, CategoricalCrossentropy, CategoricalHinge, CosineSimilarity, Hinge, KLDivergence, LogCoshError,
    MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError, Poisson, RootMeanSquaredError,
    SparseCategoricalCrossentropy, SquaredHinge)


def sparse_categorical_accuracy(y_true: Any, y_pred: Any) -> Tensor:
    """1 where the most probable class is the integer label, 0 elsewhere (labels may be ``(n,)`` or ``(n, 1)``).

    Keras' own rule, not ``same_rank``: labels ``(n, 1)`` against ``(n, classes)`` lose their last axis,
    and a result ending in an axis of 1 loses it.

    >>> import minitape as tf
    >>> tf.keras.metrics.sparse_categorical_accuracy([1, 0], [[0.2, 0.8], [0.3, 0.7]])
    <minitape.Tensor: shape=(2,), dtype=float32, numpy=array([1., 0.], dtype=float32)>
    >>> tf.keras.metrics.sparse_categorical_accuracy([[1], [0]], [[0.2, 0.8], [0.3, 0.7]]).shape
    TensorShape([2])
    """
    y_pred = _host(y_pred)
    labels = _host(y_true).astype(y_pred.dtype)
    if labels.ndim == y_pred.ndim and labels.shape[-1:] == (1,):
        labels = labels[..., 0]
    matches = (labels == np.argmax(y_pred, axis=-1).astype(y_pred.dtype)).astype(np.float32)
    return constant(matches[..., 0] if matches.ndim > 1 and matches.shape[-1] == 1 else matches)


def categorical_accuracy(y_true: Any, y_pred: Any) -> Tensor:
    """1 where the most probable class is the one-hot label's, 0 elsewhere.

    Keras' own rule: if the labels' classes (``argmax`` of ``y_true``) have as many axes as ``y_pred``, their
    last axis must be 1, and is dropped for the comparison.

    >>> import minitape as tf
    >>> tf.keras.metrics.categorical_accuracy([[0, 1], [0, 1]], [[0.2, 0.8], [0.3, 0.1]]).numpy()
    array([1., 0.], dtype=float32)
    """
    y_true, y_pred = _host(y_true), _host(y_pred)
    labels = np.argmax(y_true, axis=-1)
    if labels.ndim != y_pred.ndim:
        return constant((labels == np.argmax(y_pred, axis=-1)).astype(np.float32))
    if labels.shape[-1:] != (1,):
        raise ValueError(f"categorical_accuracy: y_true of shape {y_true.shape} holds one-hot labels along its last "
                         f"axis, so y_pred (shape {y_pred.shape}) needs that axis too: give y_pred one score per "
                         f"class, e.g. shape {y_true.shape}.")
    return constant((labels[..., 0] == np.argmax(y_pred, axis=-1)).astype(np.float32).reshape(labels.shape))


def binary_accuracy(y_true: Any, y_pred: Any, threshold: float = 0.5) -> Tensor:
    """1 where ``y_pred > threshold`` agrees with the 0/1 label, entry by entry (``BinaryAccuracy`` averages).

    >>> import minitape as tf
    >>> tf.keras.metrics.binary_accuracy([[1], [0]], [[0.7], [0.6]]).numpy()
    array([[1.],
           [0.]], dtype=float32)
    """
    y_pred = _host(y_pred)
    y_true, y_pred = same_rank(_host(y_true).astype(y_pred.dtype), y_pred)
    return constant((y_true == (y_pred > threshold).astype(y_true.dtype)).astype(np.float32))


def accuracy(y_true: Any, y_pred: Any) -> Tensor:
    """1 where the prediction equals the label exactly (minitape's name for what ``Accuracy`` averages).

    >>> import minitape as tf
    >>> tf.keras.metrics.accuracy([1, 2, 3], [1, 2, 4]).numpy()
    array([1., 1., 0.], dtype=float32)
    """
    y_pred = _host(y_pred)
    y_true, y_pred = same_rank(_host(y_true).astype(y_pred.dtype), y_pred)
    return constant((y_true == y_pred).astype(np.float32))


def _in_top_k(classes: np.ndarray, y_pred: np.ndarray, k: int) -> np.ndarray:
    """TF's ``in_top_k``: 1 where fewer than ``k`` scores beat the labelled class's (ties count as in the top k)."""
    rows = y_pred.reshape(-1, y_pred.shape[-1])
    labelled = rows[np.arange(len(rows)), classes.reshape(-1)]
    return ((rows > labelled[:, None]).sum(axis=-1) < k).astype(np.float32).reshape(classes.shape)


def top_k_categorical_accuracy(y_true: Any, y_pred: Any, k: int = 5) -> Tensor:
    """1 where the one-hot label's class is among the ``k`` highest scores.

    >>> import minitape as tf
    >>> tf.keras.metrics.top_k_categorical_accuracy([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]],
    ...                                             k=1).numpy()
    array([0., 1.], dtype=float32)
    """
    return constant(_in_top_k(np.argmax(_host(y_true), axis=-1), _host(y_pred), k))


def sparse_top_k_categorical_accuracy(y_true: Any, y_pred: Any, k: int = 5, from_sorted_ids: bool = False) -> Tensor:
    """1 where the integer label is among the ``k`` highest scores (or, ``from_sorted_ids``, among the first ``k``
    class ids of each row).

    >>> import minitape as tf
    >>> tf.keras.metrics.sparse_top_k_categorical_accuracy([2, 1], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]], k=2).numpy()
    array([1., 1.], dtype=float32)
    """
    classes, y_pred = _host(y_true), _host(y_pred)
    if classes.ndim == y_pred.ndim and classes.shape[-1:] == (1,):
        classes = classes[..., 0]
    if from_sorted_ids:
        return constant((y_pred[..., :k] == classes[..., None]).any(axis=-1).astype(np.float32))
    return constant(_in_top_k(classes.astype(np.int64), y_pred, k))


def mean_squared_error(y_true: Any, y_pred: Any) -> Tensor:
    """The mean of ``(y_true - y_pred)²`` over the last axis, one value per example (``mse`` is the same).

    >>> import minitape as tf
    >>> tf.keras.metrics.mse([[0.0, 0.0]], [[1.0, 3.0]])
    <minitape.Tensor: shape=(1,), dtype=float32, numpy=array([5.], dtype=float32)>
    """
    return constant(_host(losses.mean_squared_error(y_true, y_pred)))


mse = MSE = mean_squared_error
# As Keras 3: the loss functions are metrics' functions too (per-example values, differentiable).
(binary_crossentropy, binary_focal_crossentropy, categorical_crossentropy, categorical_focal_crossentropy,
 sparse_categorical_crossentropy, hinge, squared_hinge, categorical_hinge, huber, poisson, logcosh) = (
    losses.binary_crossentropy, losses.binary_focal_crossentropy, losses.categorical_crossentropy,
    losses.categorical_focal_crossentropy, losses.sparse_categorical_crossentropy, losses.hinge, losses.squared_hinge,
    losses.categorical_hinge, losses.huber, losses.poisson, losses.log_cosh)
mae = MAE = losses.mean_absolute_error
mape = MAPE = losses.mean_absolute_percentage_error
msle = MSLE = losses.mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = losses.kl_divergence


class Accuracy(MeanMetricWrapper):
    """How often predictions equal labels, exactly: ``tf.keras.metrics.Accuracy()`` after one batch, ``[1, 2]``
    against ``[1, 3]``, gives 0.5.

    >>> import minitape as tf
    >>> tf.keras.metrics.Accuracy().name
    'accuracy'
    """

    fn = staticmethod(accuracy)


class BinaryAccuracy(MeanMetricWrapper):
    """How often ``y_pred > 0.5`` matches the 0/1 labels.

    >>> import minitape as tf
    >>> metric = tf.keras.metrics.BinaryAccuracy()
    >>> metric.update_state([[1], [0]], [[0.9], [0.2]])
    >>> float(metric.result())
    1.0
    """

    fn = staticmethod(binary_accuracy)


class CategoricalAccuracy(MeanMetricWrapper):
    """How often the most probable class is the one-hot label's (see ``categorical_accuracy``).

    >>> import minitape as tf
    >>> tf.keras.metrics.CategoricalAccuracy().fn is tf.keras.metrics.categorical_accuracy
    True
    """

    fn = staticmethod(categorical_accuracy)


class SparseCategoricalAccuracy(MeanMetricWrapper):
    """How often the most probable class is the integer label: what ``"accuracy"`` means for integer labels.

    >>> import minitape as tf
    >>> metric = tf.keras.metrics.SparseCategoricalAccuracy()
    >>> for labels, probabilities in [([1], [[0.4, 0.6]]), ([1], [[0.9, 0.1]])]:
    ...     metric.update_state(labels, probabilities)
    >>> metric.name, float(metric.result())
    ('sparse_categorical_accuracy', 0.5)
    """

    fn = staticmethod(sparse_categorical_accuracy)


class MeanSquaredError(MeanMetricWrapper):
    """The mean squared error over examples (``metrics=["mse"]``).

    >>> import minitape as tf
    >>> tf.keras.metrics.MeanSquaredError().name
    'mean_squared_error'
    """

    fn = staticmethod(mean_squared_error)



class TopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the one-hot label's class is among the ``k`` highest scores.

    >>> import minitape as tf
    >>> metric = tf.keras.metrics.TopKCategoricalAccuracy(k=1)
    >>> float(metric([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]]))
    0.5
    """

    def __init__(self, k: int = 5, name: str = "top_k_categorical_accuracy", dtype: Any = None) -> None:
        super().__init__(top_k_categorical_accuracy, name=name, dtype=dtype, k=k)
        self.k = k

    def get_config(self) -> dict[str, Any]:
        """Name, dtype and ``k``.

        >>> import minitape as tf
        >>> tf.keras.metrics.TopKCategoricalAccuracy(k=3).get_config()["k"]
        3
        """
        return {**super().get_config(), "k": self.k}


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the integer label is among the ``k`` highest scores.

    >>> import minitape as tf
    >>> metric = tf.keras.metrics.SparseTopKCategoricalAccuracy(k=1)
    >>> float(metric([2, 1], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]]))
    0.5
    """

    def __init__(self, k: int = 5, name: str = "sparse_top_k_categorical_accuracy", dtype: Any = None,
                 from_sorted_ids: bool = False) -> None:
        super().__init__(sparse_top_k_categorical_accuracy, name=name, dtype=dtype, k=k,
                         from_sorted_ids=from_sorted_ids)
        self.k = k

    def get_config(self) -> dict[str, Any]:
        """Name, dtype and ``k``.

        >>> import minitape as tf
        >>> tf.keras.metrics.SparseTopKCategoricalAccuracy(k=3).get_config()["k"]
        3
        """
        return {**super().get_config(), "k": self.k}


_WRAPPED = (AUC, F1Score, FBetaScore, FalseNegatives, FalsePositives, TrueNegatives, TruePositives, Precision, Recall,
            PrecisionAtRecall, RecallAtPrecision, SensitivityAtSpecificity, SpecificityAtSensitivity, Sum, Mean,
            TopKCategoricalAccuracy, SparseTopKCategoricalAccuracy, BinaryCrossentropy, CategoricalCrossentropy,
            CategoricalHinge, CosineSimilarity, Hinge, KLDivergence,
            LogCoshError, MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError, Poisson,
            RootMeanSquaredError, SparseCategoricalCrossentropy, SquaredHinge)
_BY_NAME: dict[str, Callable[[], Metric]] = {
    **{cls.__name__: cls for cls in _WRAPPED}, **{snake_case(cls.__name__): cls for cls in _WRAPPED},
    "mae": MeanAbsoluteError, "MAE": MeanAbsoluteError, "mape": MeanAbsolutePercentageError,
    "MAPE": MeanAbsolutePercentageError, "msle": MeanSquaredLogarithmicError, "MSLE": MeanSquaredLogarithmicError,
    "bce": BinaryCrossentropy, "BCE": BinaryCrossentropy, "MSE": MeanSquaredError, "MeanSquaredError": MeanSquaredError,
    "sparse_categorical_accuracy": SparseCategoricalAccuracy, "categorical_accuracy": CategoricalAccuracy,
    "binary_accuracy": BinaryAccuracy, "mse": MeanSquaredError, "mean_squared_error": MeanSquaredError,
}


def get(identifier: Any, y_true: Any = None, y_pred: Any = None) -> Metric:
    """A metric object for ``identifier``: a name, a metric, or a function of ``(y_true, y_pred)``.

    ``"accuracy"`` (or ``"acc"``) means what fits the data, as Keras decides it from a batch:
    binary when ``y_pred`` has one column, sparse categorical when ``y_true`` holds integer
    labels (fewer axes), categorical otherwise.  It keeps the name it was given.

    >>> import minitape as tf
    >>> tf.keras.metrics.get("accuracy", y_true=[1, 0], y_pred=[[0.2, 0.8], [0.6, 0.4]])
    <SparseCategoricalAccuracy name=accuracy>
    """
    if isinstance(identifier, Metric):
        return identifier
    if isinstance(identifier, str) and identifier.lower() in ("accuracy", "acc"):
        true_shape, pred_shape = _host(y_true).shape, _host(y_pred).shape
        if pred_shape[-1:] == (1,):
            return BinaryAccuracy(name=identifier)
        sparse = len(true_shape) < len(pred_shape) or (true_shape[-1:] == (1,) and pred_shape[-1] > 1)
        return (SparseCategoricalAccuracy if sparse else CategoricalAccuracy)(name=identifier)
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Could not interpret metric identifier: {identifier}. Known names: accuracy, "
                             f"{', '.join(sorted(_BY_NAME))}; or pass a metric object or a function.")
        metric = _BY_NAME[identifier]()
        metric.name = identifier
        return metric
    if callable(identifier):
        return MeanMetricWrapper(identifier)
    raise ValueError(f"Could not interpret metric identifier: {identifier!r}.")


def serialize(metric: Metric) -> dict[str, Any]:
    """Keras' description of a metric: ``{"module", "class_name", "config", "registered_name"}``.

    >>> import minitape as tf
    >>> tf.keras.metrics.serialize(tf.keras.metrics.Sum())["config"]
    {'name': 'sum', 'dtype': 'float32'}
    """
    return {"module": "keras.metrics", "class_name": type(metric).__name__, "config": metric.get_config(),
            "registered_name": None}


def deserialize(config: Any, custom_objects: dict[str, Any] | None = None) -> Metric:
    """The metric a ``serialize`` result (or a name) describes.

    >>> import minitape as tf
    >>> tf.keras.metrics.deserialize(tf.keras.metrics.serialize(tf.keras.metrics.AUC(num_thresholds=50))).num_thresholds
    50
    """
    return from_identifier(config, {**_BY_NAME, **(custom_objects or {})},
                           "Could not interpret serialized metric: {identifier}")


__all__ = [*(cls.__name__ for cls in _WRAPPED), "Accuracy", "BinaryAccuracy", "CategoricalAccuracy", "KLD", "MAE",
           "MAPE", "MSE", "MSLE", "MeanMetricWrapper", "MeanSquaredError", "Metric", "SparseCategoricalAccuracy",
           "accuracy", "binary_accuracy", "binary_crossentropy", "binary_focal_crossentropy", "categorical_accuracy",
           "categorical_crossentropy", "categorical_focal_crossentropy", "categorical_hinge", "deserialize", "get",
           "hinge", "huber", "kld", "kullback_leibler_divergence", "logcosh", "mae", "mape", "mean_squared_error",
           "mse", "msle", "poisson", "serialize", "sparse_categorical_accuracy", "sparse_categorical_crossentropy",
           "sparse_top_k_categorical_accuracy", "squared_hinge", "top_k_categorical_accuracy"]
