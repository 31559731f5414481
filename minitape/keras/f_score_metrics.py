"""``FBetaScore`` and ``F1Score``: the weighted harmonic mean of precision and recall, per class or averaged.

Predictions ``(batch, classes)`` become 0/1: above ``threshold`` if one is given, else the row's
largest score (ties all count) unless it is 0.  Per class, (weighted) true positives, false
positives and false negatives accumulate; the result is ``(1+β²)·P·R / (β²·P + R)`` with Keras'
1e-7 guards, per class (``average=None``), their mean (``"macro"``), their mean weighted by each
class's number of positives (``"weighted"``), or one score of counts summed over classes (``"micro"``).

>>> import minitape as tf
>>> f1 = tf.keras.metrics.F1Score(average="macro", threshold=0.5)
>>> f1.update_state([[1, 0], [0, 1], [1, 0]], [[0.9, 0.2], [0.6, 0.7], [0.3, 0.1]])
>>> round(float(f1.result()), 4)
0.75
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape.core.tensor import Tensor, constant
from minitape.keras.metric import Metric, host

EPSILON = 1e-7
COUNTS = ("true_positives", "false_positives", "false_negatives", "intermediate_weights")


class FBetaScore(Metric):
    """The F-beta score: recall counts ``beta`` times as much as precision (see the module).

    >>> import minitape as tf
    >>> score = tf.keras.metrics.FBetaScore(beta=2.0)
    >>> score([[1, 0], [0, 1]], [[0.8, 0.2], [0.7, 0.3]]).numpy()       # per class
    array([0.8333332, 0.       ], dtype=float32)
    """

    def __init__(self, average: str | None = None, beta: float = 1.0, threshold: float | None = None,
                 name: str = "fbeta_score", dtype: Any = None) -> None:
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError(f"Invalid `average` argument value. Expected one of: {{None, 'micro', 'macro', "
                             f"'weighted'}}. Received: average={average}")
        if not isinstance(beta, float) or beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be a Python float > 0. Received: "
                             f"beta={beta} of type '{type(beta)}'")
        if threshold is not None and (not isinstance(threshold, float) or not 0.0 < threshold <= 1.0):
            raise ValueError(f"Invalid `threshold` argument value. It should be a Python float with 0 < threshold "
                             f"<= 1. Received: threshold={threshold}")
        self.average, self.beta, self.threshold = average, beta, threshold
        super().__init__(name=name, dtype=dtype)

    def reset_state(self) -> None:
        """Forget the counts (their shape is set by the first batch, as in Keras).

        >>> import minitape as tf
        >>> tf.keras.metrics.F1Score().variables
        []
        """
        if getattr(self, "true_positives", None) is not None:
            super().reset_state()

    def _build(self, y_true: np.ndarray, y_pred: np.ndarray) -> None:
        if y_pred.ndim != 2 or y_true.ndim != 2:
            raise ValueError(f"FBetaScore expects 2D inputs with shape (batch_size, output_dim). Received input "
                             f"shapes: y_pred.shape={y_pred.shape} and y_true.shape={y_true.shape}.")
        shape = () if self.average == "micro" else (y_pred.shape[-1],)
        for count in COUNTS:
            setattr(self, count, self.add_variable(shape, "zeros", dtype=self.dtype, name=count))

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        """Count one batch of one-hot (or multi-label) rows.

        >>> import minitape as tf
        >>> f1 = tf.keras.metrics.F1Score()
        >>> f1.update_state([[1, 0]], [[0.6, 0.4]]); f1.true_positives.numpy()
        array([1., 0.], dtype=float32)
        """
        dtype = np.dtype(self.dtype)
        y_true, y_pred = host(y_true).astype(dtype), host(y_pred).astype(dtype)
        if getattr(self, "true_positives", None) is None:
            self._build(y_true, y_pred)
        if self.threshold is None:
            predicted = (y_pred >= y_pred.max(axis=-1, keepdims=True)) & (np.abs(y_pred) > 1e-9)
        else:
            predicted = y_pred > self.threshold
        predicted = predicted.astype(dtype)
        weights = 1 if sample_weight is None else host(sample_weight).astype(dtype)[:, None]
        axis = None if self.average == "micro" else 0
        terms = (predicted * y_true, predicted * (1 - y_true), (1 - predicted) * y_true, y_true)
        for count, term in zip(COUNTS, terms):
            getattr(self, count).assign_add(np.sum(term * weights, axis=axis, dtype=dtype))

    def result(self) -> Tensor:
        """The score so far: per class, or averaged as ``average`` says.

        >>> import minitape as tf
        >>> f1 = tf.keras.metrics.F1Score(average="micro")
        >>> float(f1([[1, 0], [0, 1]], [[0.8, 0.2], [0.7, 0.3]]))
        0.4999999403953552
        """
        tp, fp, fn, weights = (getattr(self, count).numpy() for count in COUNTS)
        precision, recall = tp / (tp + fp + EPSILON), tp / (tp + fn + EPSILON)
        beta2 = self.beta ** 2
        score = (precision * recall / (beta2 * precision + recall + EPSILON) * (1 + beta2)).astype(tp.dtype)
        if self.average == "weighted":
            score = np.sum(score * (weights / (weights.sum() + EPSILON)), dtype=tp.dtype)
        elif self.average is not None:
            score = np.mean(score, dtype=tp.dtype)
        return constant(score)

    def get_config(self) -> dict[str, Any]:
        """Name, dtype, ``average``, ``beta`` and ``threshold``.

        >>> import minitape as tf
        >>> tf.keras.metrics.FBetaScore(beta=0.5).get_config()
        {'name': 'fbeta_score', 'dtype': 'float32', 'average': None, 'beta': 0.5, 'threshold': None}
        """
        return {**super().get_config(), "average": self.average, "beta": self.beta, "threshold": self.threshold}


class F1Score(FBetaScore):
    """The F1 score: precision and recall weighed alike (see the module's example).

    >>> import minitape as tf
    >>> tf.keras.metrics.F1Score(average="weighted").get_config()
    {'name': 'f1_score', 'dtype': 'float32', 'average': 'weighted', 'threshold': None}
    """

    def __init__(self, average: str | None = None, threshold: float | None = None, name: str = "f1_score",
                 dtype: Any = None) -> None:
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        """FBetaScore's config without ``beta``, as Keras 3's.

        >>> import minitape as tf
        >>> "beta" in tf.keras.metrics.F1Score().get_config()
        False
        """
        config = super().get_config()
        del config["beta"]
        return config
