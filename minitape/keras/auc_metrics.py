"""Metrics over many thresholds: ``AUC``, and the best of one rate where another reaches a target
(``SensitivityAtSpecificity``, ``SpecificityAtSensitivity``, ``PrecisionAtRecall``, ``RecallAtPrecision``).

Each keeps, per threshold, the four (weighted) counts of the confusion matrix, as Keras 3 does:
``num_thresholds`` evenly spaced in [0, 1] (AUC's first and last moved out by 1e-7 so that every
prediction is above the first and none above the last).  ``AUC`` sums the area under the ROC or
precision-recall curve those points draw, by the trapezoid rule ("interpolation"), or by the
smaller or larger end of each step ("minoring", "majoring"); for PR, interpolation follows Davis &
Goadrich (2006), as Keras does.

>>> import minitape as tf
>>> auc = tf.keras.metrics.AUC(num_thresholds=3)
>>> auc.update_state([0, 0, 1, 1], [0, 0.5, 0.3, 0.9])
>>> float(auc.result())
0.75
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from minitape.core.tensor import Tensor, constant
from minitape.keras.confusion_metrics import count_cells
from minitape.keras.metric import Metric, host

EPSILON = 1e-7
CELLS = ("true_positives", "false_positives", "true_negatives", "false_negatives")


def _ratio(top: np.ndarray, bottom: np.ndarray) -> np.ndarray:
    """``top / bottom``, 0 where ``bottom`` is 0 (Keras' ``divide_no_nan``)."""
    return np.divide(top, bottom, out=np.zeros_like(top), where=bottom != 0)


class _ThresholdCounts(Metric):
    """The four counts at each of a list of thresholds, updated batch by batch."""

    evenly: str | None = "plain"

    def __init__(self, thresholds: list[float], name: str | None = None, dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self.thresholds = thresholds
        for cell in CELLS:
            setattr(self, cell, self.add_variable((len(thresholds),), "zeros", name=cell))

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        """Count one batch at every threshold.

        >>> import minitape as tf
        >>> auc = tf.keras.metrics.AUC(num_thresholds=3)
        >>> auc.update_state([0, 1], [0.2, 0.8]); auc.true_positives.numpy()
        array([1., 1., 0.], dtype=float32)
        """
        cells = count_cells(y_true, self._scores(y_pred), self.thresholds, sample_weight,
                            class_id=getattr(self, "class_id", None), evenly=self.evenly)
        for cell in CELLS:
            getattr(self, cell).assign_add(cells[cell])

    def _scores(self, y_pred: Any) -> np.ndarray:
        """The predictions as scores in [0, 1] (``AUC(from_logits=True)`` applies the sigmoid)."""
        return host(y_pred).astype(np.float32)

    def counts(self) -> tuple[np.ndarray, ...]:
        """The four counts: true positives, false positives, true negatives, false negatives.

        >>> import minitape as tf
        >>> [c.tolist() for c in tf.keras.metrics.AUC(num_thresholds=2).counts()]
        [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]
        """
        return tuple(getattr(self, cell).numpy() for cell in CELLS)


def _even_thresholds(num_thresholds: int) -> list[float]:
    return [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]


class AUC(_ThresholdCounts):
    """The area under the ROC (``curve="ROC"``) or precision-recall (``"PR"``) curve (see the module).

    >>> import minitape as tf
    >>> auc = tf.keras.metrics.AUC(curve="PR", num_thresholds=3)
    >>> float(auc([0, 0, 1, 1], [0, 0.5, 0.3, 0.9]))
    0.8206993937492371
    """

    def __init__(self, num_thresholds: int = 200, curve: str = "ROC", summation_method: str = "interpolation",
                 name: str | None = None, dtype: Any = None, thresholds: Sequence[float] | None = None,
                 multi_label: bool = False, num_labels: int | None = None, label_weights: Any = None,
                 from_logits: bool = False) -> None:
        if multi_label or label_weights is not None:
            raise NotImplementedError("AUC: minitape computes one curve over every label (multi_label=False, no "
                                      "label_weights); average per-label AUC metrics yourself for now.")
        if curve.upper() not in ("ROC", "PR") or summation_method not in ("interpolation", "minoring", "majoring"):
            raise ValueError(f"Invalid AUC arguments: curve={curve!r} (expected 'ROC' or 'PR'), summation_method="
                             f"{summation_method!r} (expected 'interpolation', 'minoring' or 'majoring').")
        if thresholds is None and num_thresholds <= 1:
            raise ValueError(f"Argument `num_thresholds` must be an integer > 1. Received: num_thresholds="
                             f"{num_thresholds}")
        inner = sorted(thresholds) if thresholds is not None else _even_thresholds(num_thresholds)
        self.evenly = "with_epsilon" if thresholds is None else None
        self.num_thresholds, self.curve, self.summation_method = len(inner) + 2, curve.upper(), summation_method
        self.from_logits, self.multi_label, self.num_labels, self.label_weights = from_logits, False, None, None
        self._given_thresholds = thresholds is not None
        super().__init__([0.0 - EPSILON, *inner, 1.0 + EPSILON], name=name, dtype=dtype)

    def _scores(self, y_pred: Any) -> np.ndarray:
        y_pred = host(y_pred).astype(np.float32)
        return 1 / (1 + np.exp(-y_pred)) if self.from_logits else y_pred

    def result(self) -> Tensor:
        """The area so far.

        >>> import minitape as tf
        >>> float(tf.keras.metrics.AUC().result())
        0.0
        """
        tp, fp, tn, fn = self.counts()
        if self.curve == "PR" and self.summation_method == "interpolation":
            return constant(np.float32(self._interpolated_pr_area(tp, fp, fn)))
        recall = _ratio(tp, tp + fn)
        x, y = (_ratio(fp, fp + tn), recall) if self.curve == "ROC" else (recall, _ratio(tp, tp + fp))
        heights = {"interpolation": (y[:-1] + y[1:]) / 2, "minoring": np.minimum(y[:-1], y[1:]),
                   "majoring": np.maximum(y[:-1], y[1:])}[self.summation_method]
        return constant(np.sum((x[:-1] - x[1:]) * heights, dtype=np.float32))

    @staticmethod
    def _interpolated_pr_area(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray) -> np.ndarray:
        """Between two thresholds precision is interpolated as TP over predicted positives grows linearly: each
        step's area is ``slope·(dTP + intercept·log(P_A/P_B)) / positives``."""
        dtp, p = tp[:-1] - tp[1:], tp + fp
        dp = p[:-1] - p[1:]
        slope = _ratio(dtp, np.maximum(dp, 0))
        intercept = tp[1:] - slope * p[1:]
        both = (p[:-1] > 0) & (p[1:] > 0)
        p_ratio = np.where(both, _ratio(p[:-1], np.maximum(p[1:], 0)), np.ones_like(p[1:]))
        return np.sum(_ratio(slope * (dtp + intercept * np.log(p_ratio)), np.maximum(tp[1:] + fn[1:], 0)))

    def get_config(self) -> dict[str, Any]:
        """Keras' config (``thresholds`` only when given).

        >>> import minitape as tf
        >>> tf.keras.metrics.AUC(name="auc")  .get_config()["num_thresholds"]
        200
        """
        config = {**super().get_config(), "num_thresholds": self.num_thresholds, "curve": self.curve,
                  "summation_method": self.summation_method, "multi_label": False, "num_labels": None,
                  "label_weights": None, "from_logits": self.from_logits}
        return {**config, "thresholds": self.thresholds[1:-1]} if self._given_thresholds else config


class _AtTarget(_ThresholdCounts):
    """Keras' ``SensitivitySpecificityBase``: the best ``_rates()[1]`` among the thresholds where ``_rates()[0]``
    reaches ``value``."""

    target = "specificity"

    def __init__(self, value: float | None = None, num_thresholds: int = 200, class_id: int | None = None,
                 name: str | None = None, dtype: Any = None, **by_name: float) -> None:
        value = by_name.pop(self.target, value)           # the target by its own name: ``recall=0.6``...
        if by_name or value is None:
            raise TypeError(f"{type(self).__name__}() takes its target as `{self.target}`; received "
                            f"{sorted(by_name) or 'none'}.")
        if not 0 <= value <= 1:
            raise ValueError(f"Argument `{self.target}` must be in the range [0, 1]. Received: "
                             f"{self.target}={value}")
        if num_thresholds <= 0:
            raise ValueError(f"Argument `num_thresholds` must be an integer > 0. Received: num_thresholds="
                             f"{num_thresholds}")
        self.value, self.num_thresholds, self.class_id = value, num_thresholds, class_id
        setattr(self, self.target, value)
        self.evenly = "plain" if num_thresholds > 1 else None
        super().__init__([0.5] if num_thresholds == 1 else [0.0, *_even_thresholds(num_thresholds), 1.0],
                         name=name, dtype=dtype)

    def _rates(self) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    def result(self) -> Tensor:
        """The best rate where the constraint holds (0 if it never does).

        >>> import minitape as tf
        >>> float(tf.keras.metrics.PrecisionAtRecall(0.5).result())
        0.0
        """
        constrained, dependent = self._rates()
        return constant(np.max(np.where(constrained >= self.value, dependent, 0), initial=0).astype(np.float32))

    def get_config(self) -> dict[str, Any]:
        """Name, dtype, ``class_id``, ``num_thresholds`` and the target.

        >>> import minitape as tf
        >>> tf.keras.metrics.RecallAtPrecision(0.8, name="r").get_config()
        {'name': 'r', 'dtype': 'float32', 'class_id': None, 'num_thresholds': 200, 'precision': 0.8}
        """
        return {**super().get_config(), "class_id": self.class_id, "num_thresholds": self.num_thresholds,
                self.target: self.value}


class SensitivityAtSpecificity(_AtTarget):
    """The best sensitivity (recall) where specificity ``tn / (tn + fp)`` is at least ``specificity``.

    >>> import minitape as tf
    >>> float(tf.keras.metrics.SensitivityAtSpecificity(0.5)([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]))
    0.5
    """

    target = "specificity"

    def _rates(self) -> tuple[np.ndarray, np.ndarray]:
        tp, fp, tn, fn = self.counts()
        return _ratio(tn, tn + fp), _ratio(tp, tp + fn)


class SpecificityAtSensitivity(_AtTarget):
    """The best specificity where sensitivity (recall) is at least ``sensitivity``.

    >>> import minitape as tf
    >>> round(float(tf.keras.metrics.SpecificityAtSensitivity(0.5)([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8])), 6)
    0.666667
    """

    target = "sensitivity"

    def _rates(self) -> tuple[np.ndarray, np.ndarray]:
        tp, fp, tn, fn = self.counts()
        return _ratio(tp, tp + fn), _ratio(tn, tn + fp)


class PrecisionAtRecall(_AtTarget):
    """The best precision where recall is at least ``recall``.

    >>> import minitape as tf
    >>> float(tf.keras.metrics.PrecisionAtRecall(0.5)([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]))
    0.5
    """

    target = "recall"

    def _rates(self) -> tuple[np.ndarray, np.ndarray]:
        tp, fp, tn, fn = self.counts()
        return _ratio(tp, tp + fn), _ratio(tp, tp + fp)


class RecallAtPrecision(_AtTarget):
    """The best recall where precision is at least ``precision``.

    >>> import minitape as tf
    >>> float(tf.keras.metrics.RecallAtPrecision(0.8)([0, 0, 1, 1], [0, 0.5, 0.3, 0.9]))
    0.5
    """

    target = "precision"

    def _rates(self) -> tuple[np.ndarray, np.ndarray]:
        tp, fp, tn, fn = self.counts()
        return _ratio(tp, tp + fp), _ratio(tp, tp + fn)
