"""Metrics that count a confusion matrix: ``Precision`` and ``Recall``, as Keras 3 counts them.

Each prediction above a threshold (0.5 unless ``thresholds`` says otherwise) is a positive;
each label other than 0 is a positive.  The metric keeps, for each threshold, the (weighted)
counts it needs in float32 variables of shape ``(len(thresholds),)``: true and false
positives for precision, true positives and false negatives for recall.  ``top_k`` counts
only each example's k largest predictions as positive; ``class_id`` looks at one column.

>>> import minitape as tf
>>> precision = tf.keras.metrics.Precision(name="precision")
>>> precision([0, 1, 1, 1, 0, 1, 0, 1], [1, 1, 0, 1, 0, 1, 0, 1])     # 4 of the 5 predicted positives are right
<minitape.Tensor: shape=(), dtype=float32, numpy=0.8>
>>> precision.variables
[<Variable path=precision/true_positives, shape=(1,), dtype=float32, value=[4.]>,
 <Variable path=precision/false_positives, shape=(1,), dtype=float32, value=[1.]>]
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from minitape.core.tensor import Tensor, constant
from minitape.keras.losses import same_rank
from minitape.keras.metric import Metric, host

NEG_INF = -1e10         # Keras' threshold when ``top_k`` is set: every kept prediction is a positive


def _thresholds(thresholds: float | Sequence[float] | None, default: float) -> list[float]:
    """``thresholds`` as a list (the default alone if None), each checked to lie in [0, 1]."""
    values = [default] if thresholds is None else [thresholds] if np.isscalar(thresholds) else list(thresholds)
    if thresholds is not None and any(not 0 <= t <= 1 for t in values):
        raise ValueError(f"Threshold values must be in [0, 1]. Received: {values}")
    return [float(t) for t in values]


def _keep_top_k(y_pred: np.ndarray, k: int) -> np.ndarray:
    """Keras' ``_filter_top_k``: the k largest entries of each row kept, the rest set to ``NEG_INF``."""
    top = np.argsort(-y_pred, axis=-1, kind="stable")[..., :k]
    mask = np.zeros_like(y_pred)
    np.put_along_axis(mask, top, 1.0, axis=-1)
    return y_pred * mask + NEG_INF * (1 - mask)


def count_cells(y_true: Any, y_pred: Any, thresholds: Sequence[float], sample_weight: Any = None,
                top_k: int | None = None, class_id: int | None = None,
                evenly: str | None = None) -> dict[str, np.ndarray]:
    """Keras' ``update_confusion_matrix_variables``: for each threshold, the (weighted) true and false positives and
    negatives of one batch.  A prediction above a threshold is a positive, a label other than 0 is.  With
    ``evenly`` ("with_epsilon" for AUC's ``[-ε, ..., 1+ε]``, "plain" for ``[0, ..., 1]``) the thresholds are evenly
    spaced and Keras buckets the predictions, clipped to [0, 1], by ``p·(n-1) > i`` instead.

    >>> from minitape.keras.confusion_metrics import count_cells
    >>> {k: v.tolist() for k, v in count_cells([0, 1, 1], [0.2, 0.6, 0.4], [0.5]).items()}
    {'true_positives': [1.0], 'false_positives': [0.0], 'true_negatives': [1.0], 'false_negatives': [1.0]}
    """
    y_pred, y_true = same_rank(host(y_pred).astype(np.float32), host(y_true).astype(np.float32))
    weights = np.ones_like(y_pred)
    if sample_weight is not None:
        expanded = host(sample_weight).astype(np.float32)[..., None]
        weights = np.broadcast_to(same_rank(y_true, expanded, expand_rank_1=False)[1], y_pred.shape)
    if top_k is not None:
        y_pred = _keep_top_k(y_pred, top_k)
    if class_id is not None:
        if y_pred.ndim == 1:
            raise ValueError(f"When class_id is provided, y_pred must be a 2D array with shape (num_samples, "
                             f"num_classes), found shape: {y_pred.shape}")
        y_true, y_pred = y_true[..., class_id, None], y_pred[..., class_id, None]
        weights = weights[..., class_id, None]
    y_pred, label, weights = y_pred.reshape(1, -1), y_true.reshape(1, -1) != 0, weights.reshape(1, -1)
    if evenly:
        steps = np.clip(y_pred, 0, 1) * np.float32(len(thresholds) - 1)
        predicted = steps > np.arange(len(thresholds), dtype=np.float32)[:, None]
        if evenly == "with_epsilon":
            predicted[0] = True
    else:
        predicted = y_pred > np.array(thresholds, np.float32)[:, None]
    cells = {"true_positives": label & predicted, "false_positives": ~label & predicted,
             "true_negatives": ~label & ~predicted, "false_negatives": label & ~predicted}
    return {name: (cell * weights).sum(axis=1, dtype=np.float32) for name, cell in cells.items()}


class _ConfusionMetric(Metric):
    """What ``Precision`` and ``Recall`` share: thresholds, ``top_k``, ``class_id`` and the counting."""

    counts: tuple[str, str] = ("true_positives", "false_positives")

    def __init__(self, thresholds: float | Sequence[float] | None = None, top_k: int | None = None,
                 class_id: int | None = None, name: str | None = None, dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds, self.top_k, self.class_id = thresholds, top_k, class_id
        self.thresholds = _thresholds(thresholds, 0.5 if top_k is None else NEG_INF)
        for count in self.counts:
            setattr(self, count, self.add_variable((len(self.thresholds),), "zeros", name=count))

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        """Count one batch: labels ``y_true`` (0 is negative), scores ``y_pred``, optional weights per example.

        >>> import minitape as tf
        >>> recall = tf.keras.metrics.Recall(thresholds=[0.3, 0.7])
        >>> recall.update_state([0, 1, 1, 0], [0.2, 0.5, 0.8, 0.9])
        >>> recall.result().numpy()
        array([1. , 0.5], dtype=float32)
        """
        cells = count_cells(y_true, y_pred, self.thresholds, sample_weight, self.top_k, self.class_id)
        for count in self.counts:
            getattr(self, count).assign_add(cells[count])

    def result(self) -> Tensor:
        """``true_positives / (true_positives + <the other count>)`` per threshold (0 where nothing was counted);
        a scalar for one threshold.

        >>> import minitape as tf
        >>> tf.keras.metrics.Precision().result(), tf.keras.metrics.Recall().result().numpy()
        (<minitape.Tensor: shape=(), dtype=float32, numpy=0.0>, np.float32(0.0))
        """
        hits, misses = (getattr(self, count).numpy() for count in self.counts)
        total = hits + misses
        ratio = np.divide(hits, total, out=np.zeros_like(hits), where=total != 0)
        return constant(ratio[0] if len(self.thresholds) == 1 else ratio)

    def get_config(self) -> dict[str, Any]:
        """Keras' config: the name and dtype, then ``thresholds``, ``top_k`` and ``class_id`` as given.

        >>> import minitape as tf
        >>> tf.keras.metrics.Recall(thresholds=0.6, name="recall").get_config()
        {'name': 'recall', 'dtype': 'float32', 'thresholds': 0.6, 'top_k': None, 'class_id': None}
        """
        return {**super().get_config(), "thresholds": self.init_thresholds, "top_k": self.top_k,
                "class_id": self.class_id}


class Precision(_ConfusionMetric):
    """Of the predicted positives, the fraction that are positive: ``tp / (tp + fp)``, per threshold.

    >>> import minitape as tf
    >>> precision = tf.keras.metrics.Precision(thresholds=[0.3, 0.7])
    >>> precision.update_state([0, 1, 1, 0], [0.2, 0.5, 0.8, 0.9])
    >>> precision.result().numpy()                   # 2 of 3 above 0.3, 1 of 2 above 0.7
    array([0.6666667, 0.5      ], dtype=float32)
    """

    counts = ("true_positives", "false_positives")


class Recall(_ConfusionMetric):
    """Of the positives, the fraction predicted positive: ``tp / (tp + fn)``, per threshold.

    >>> import minitape as tf
    >>> recall = tf.keras.metrics.Recall(thresholds=0.6)
    >>> recall([0, 1, 1, 0], [0.2, 0.5, 0.8, 0.9], sample_weight=[1, 2, 3, 4])     # 3 of 2 + 3
    <minitape.Tensor: shape=(), dtype=float32, numpy=0.6>
    """

    counts = ("true_positives", "false_negatives")


class _ConditionCount(Metric):
    """Keras' ``_ConfusionMatrixConditionCount``: one cell of the confusion matrix, summed, per threshold."""

    cell = "true_positives"

    def __init__(self, thresholds: float | Sequence[float] | None = None, name: str | None = None,
                 dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds, self.thresholds = thresholds, _thresholds(thresholds, 0.5)
        self.accumulator = self.add_variable((len(self.thresholds),), "zeros", name="accumulator")

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        """Add one batch's count.

        >>> import minitape as tf
        >>> negatives = tf.keras.metrics.TrueNegatives()
        >>> negatives.update_state([0, 1, 0], [0.2, 0.6, 0.7]); float(negatives.result())
        1.0
        """
        self.accumulator.assign_add(count_cells(y_true, y_pred, self.thresholds, sample_weight)[self.cell])

    def result(self) -> Tensor:
        """The count so far: a scalar for one threshold, else one per threshold.

        >>> import minitape as tf
        >>> tf.keras.metrics.FalseNegatives(thresholds=[0.1, 0.9]).result().numpy()
        array([0., 0.], dtype=float32)
        """
        counts = self.accumulator.numpy()
        return constant(counts[0] if len(self.thresholds) == 1 else counts)

    def get_config(self) -> dict[str, Any]:
        """Name, dtype and the thresholds as given.

        >>> import minitape as tf
        >>> tf.keras.metrics.TruePositives(name="tp").get_config()
        {'name': 'tp', 'dtype': 'float32', 'thresholds': None}
        """
        return {**super().get_config(), "thresholds": self.init_thresholds}


class TruePositives(_ConditionCount):
    """The (weighted) number of positives predicted positive.

    >>> import minitape as tf
    >>> float(tf.keras.metrics.TruePositives()([0, 1, 1, 1], [1, 0, 1, 1]))
    2.0
    """

    cell = "true_positives"


class FalsePositives(_ConditionCount):
    """The (weighted) number of negatives predicted positive.

    >>> import minitape as tf
    >>> float(tf.keras.metrics.FalsePositives()([0, 1, 0, 0], [0, 0, 1, 1], sample_weight=[0, 0, 1, 0]))
    1.0
    """

    cell = "false_positives"


class TrueNegatives(_ConditionCount):
    """The (weighted) number of negatives predicted negative.

    >>> import minitape as tf
    >>> float(tf.keras.metrics.TrueNegatives()([0, 1, 0, 0], [1, 1, 0, 0]))
    2.0
    """

    cell = "true_negatives"


class FalseNegatives(_ConditionCount):
    """The (weighted) number of positives predicted negative.

    >>> import minitape as tf
    >>> float(tf.keras.metrics.FalseNegatives()([0, 1, 1, 1], [0, 1, 0, 0]))
    2.0
    """

    cell = "false_negatives"
