"""What ``compile`` keeps and ``fit`` reports, the pieces Keras 3 puts beside its trainer.

``CompileMetrics`` holds compile's ``metrics`` as one metric named ``compile_metrics`` (it is
what ``model.metrics`` lists after the loss); its ``result()`` is a dict of its metrics'
results.  ``pythonify_logs`` turns what a step returned (tensors, and such dicts) into the
flat dict of Python floats that callbacks and ``History`` see, in Keras' order (sorted by
name, a dict's entries where its name sorts).  ``class_weight_samples`` is ``class_weight``
as per-example weights.

>>> import minitape as tf
>>> from minitape.keras.compile_utils import CompileMetrics, pythonify_logs
>>> metrics = CompileMetrics(["mse"])
>>> metrics.update_state(tf.constant([[1.0], [2.0]]), tf.constant([[1.0], [4.0]]))
>>> pythonify_logs({"loss": tf.constant(0.5), "compile_metrics": metrics.result()})
{'mse': 2.0, 'loss': 0.5}
"""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from minitape.keras import metrics as metrics_module
from minitape.core.tensor import Tensor
from minitape.keras.metric import Metric


class CompileMetrics(Metric):
    """compile's ``metrics``, made on the first batch (``"accuracy"`` is chosen from its shapes), as one metric.

    Compile's metrics are not weighted by ``sample_weight``, as Keras' (its ``weighted_metrics`` would be).

    >>> import minitape as tf
    >>> from minitape.keras.compile_utils import CompileMetrics
    >>> metrics = CompileMetrics(["accuracy"])
    >>> metrics.update_state(np.array([0, 1]), tf.constant([[0.9, 0.1], [0.8, 0.2]]))
    >>> metrics.name, metrics.result()
    ('compile_metrics', {'accuracy': <minitape.Tensor: shape=(), dtype=float32, numpy=0.5>})
    """

    def __init__(self, identifiers: Any) -> None:
        super().__init__(name="compile_metrics")
        self._identifiers = list(identifiers) if isinstance(identifiers, list | tuple) else [identifiers]
        self.metrics: list[Metric] = []
        self.built = False

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        """Update each metric with a batch (making them on the first one); ``sample_weight`` is not used.

        >>> import minitape as tf
        >>> from minitape.keras.compile_utils import CompileMetrics
        >>> metrics = CompileMetrics("mse")
        >>> metrics.update_state(tf.zeros((2, 1)), tf.ones((2, 1)))
        >>> [m.name for m in metrics.metrics]
        ['mse']
        """
        if not self.built:
            self.metrics = [metrics_module.get(m, y_true, y_pred) for m in self._identifiers]
            self.built = True
        for metric in self.metrics:
            metric.update_state(y_true, y_pred)

    def result(self) -> dict[str, Any]:
        """Each metric's result, by name.

        >>> import minitape as tf
        >>> from minitape.keras.compile_utils import CompileMetrics
        >>> metrics = CompileMetrics(["mse"])
        >>> metrics.update_state(tf.zeros((2, 1)), 2 * tf.ones((2, 1)))
        >>> float(metrics.result()["mse"])
        4.0
        """
        return {metric.name: metric.result() for metric in self.metrics}

    def reset_state(self) -> None:
        """Reset each metric.

        >>> import minitape as tf
        >>> from minitape.keras.compile_utils import CompileMetrics
        >>> metrics = CompileMetrics(["mse"])
        >>> metrics.update_state(tf.zeros((2, 1)), tf.ones((2, 1))); metrics.reset_state()
        >>> float(metrics.result()["mse"])
        0.0
        """
        for metric in self.metrics:
            metric.reset_state()

    @property
    def variables(self) -> list:
        """The state variables of its metrics (none before the first batch).

        >>> import minitape as tf
        >>> from minitape.keras.compile_utils import CompileMetrics
        >>> metrics = CompileMetrics(["mse"])
        >>> metrics.variables
        []
        >>> metrics.update_state(tf.zeros((2, 1)), tf.ones((2, 1)))
        >>> [v.name for v in metrics.variables]
        ['total', 'count']
        """
        return [v for metric in self.metrics for v in metric.variables]


class Reporting:
    """The metrics side of Keras 3's ``Trainer`` (``Model`` has these): what ``fit`` resets, updates and logs.

    >>> import minitape as tf
    >>> from minitape.keras.compile_utils import Reporting
    >>> issubclass(tf.keras.Model, Reporting)
    True
    """

    compiled = False
    _compile_metrics: CompileMetrics | None = None
    _loss_tracker: Metric

    @property
    def metrics(self) -> list:
        """What ``fit`` resets each epoch and reports: the loss's running mean, compile's metrics as one
        (``compile_metrics``), then the metrics held in the model's attributes, as Keras 3 lists them.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> model.compile(loss="mse", metrics=["mse"])
        >>> [m.name for m in model.metrics]
        ['loss', 'compile_metrics']
        """
        own = [self._loss_tracker, *([self._compile_metrics] if self._compile_metrics else [])] if self.compiled else []
        return own + [value for name, value in vars(self).items() if isinstance(value, Metric) and name[0] != "_"]

    @property
    def metrics_names(self) -> list[str]:
        """The names of ``metrics``.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> model.compile(loss="mse")
        >>> model.metrics_names
        ['loss']
        """
        return [m.name for m in self.metrics]

    def reset_metrics(self) -> None:
        """Put every metric of ``metrics`` back to its start (``fit`` does it at each epoch's start).

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
        >>> model.compile(loss="mse")
        >>> _ = model.test_step((tf.ones((2, 3)), tf.ones((2, 1))))
        >>> model.reset_metrics(); float(model.metrics[0].result())
        0.0
        """
        for metric in self.metrics:
            metric.reset_state()

    def get_metrics_result(self) -> dict[str, Tensor]:
        """Each metric's result by name; ``compile_metrics``' dict is spread into it, as Keras 3 does.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
        >>> model.compile(loss="mse", metrics=["mse"])
        >>> _ = model.test_step((tf.ones((2, 3)), tf.ones((2, 1))))
        >>> {name: float(value) for name, value in model.get_metrics_result().items()}
        {'loss': 1.0, 'mse': 1.0}
        """
        results: dict[str, Tensor] = {}
        for metric in self.metrics:
            result = metric.result()
            results.update(result if isinstance(result, dict) else {metric.name: result})
        return results

    def compute_metrics(self, x: Any, y: Any, y_pred: Any, sample_weight: Any = None) -> dict[str, Tensor]:
        """Update compile's metrics with a batch and return ``get_metrics_result()`` (Keras 3's signature).

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> model.compile(loss="mse", metrics=["mse"])
        >>> float(model.compute_metrics(None, tf.ones((2, 1)), tf.zeros((2, 1)))["mse"])
        1.0
        """
        if self._compile_metrics is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    @property
    def compiled_metrics(self) -> _DeprecatedCompiledMetrics:
        """tf.keras' ``compiled_metrics``, kept by Keras 3 (TF backend) with a warning: its ``update_state``
        updates every metric of ``metrics``, and a ``Mean`` among them (the loss tracker) with ``y_pred``.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> model.compile(loss="mse")
        >>> type(model.compiled_metrics).__name__
        '_DeprecatedCompiledMetrics'
        """
        return _DeprecatedCompiledMetrics(self)


class _DeprecatedCompiledMetrics:
    """What ``model.compiled_metrics`` gives: an ``update_state`` over the model's metrics, as Keras 3 has it."""

    def __init__(self, model: Reporting) -> None:
        self.model = model

    def update_state(self, y: Any, y_pred: Any, sample_weight: Any = None) -> None:
        warnings.warn("`model.compiled_metrics()` is deprecated. Instead, use e.g.:\n```\nfor metric in "
                      "self.metrics:\n    metric.update_state(y, y_pred)\n```\n", stacklevel=2)
        for metric in self.model.metrics:
            if isinstance(metric, metrics_module.Mean):
                metric.update_state(y_pred, sample_weight=sample_weight)
            else:
                metric.update_state(y, y_pred, sample_weight=sample_weight)


def pythonify_logs(logs: dict[str, Any]) -> dict[str, Any]:
    """A step's logs as Python floats, sorted by name, nested dicts flattened in place, as Keras 3's ``fit`` does.

    >>> import minitape as tf
    >>> from minitape.keras.compile_utils import pythonify_logs
    >>> pythonify_logs({"b": tf.constant(1.0), "a": {"z": 2, "y": np.float32(3.0)}})
    {'y': 3.0, 'z': 2.0, 'b': 1.0}
    """
    result: dict[str, Any] = {}
    for key, value in sorted(logs.items()):
        if isinstance(value, dict):
            result.update(pythonify_logs(value))
        else:
            try:
                result[key] = float(value)
            except (TypeError, ValueError):      # Keras keeps what is not a number as it is
                result[key] = value
    return result


def class_weight_samples(class_weight: dict[int, float], y: np.ndarray) -> np.ndarray:
    """``class_weight`` as one weight per example: the weight of its class (the argmax of a one-hot row).

    >>> from minitape.keras.compile_utils import class_weight_samples
    >>> class_weight_samples({0: 2.0, 1: 0.5}, np.array([0, 1, 1]))
    array([2. , 0.5, 0.5], dtype=float32)
    """
    labels = np.argmax(y, axis=-1) if y.ndim > 1 and y.shape[-1] > 1 else np.round(y.reshape(len(y), -1)[:, 0])
    labels = labels.astype(np.int64)
    missing = sorted(set(labels.tolist()) - set(class_weight))
    if missing:
        raise ValueError(f"`class_weight` must contain all classes in the data. The classes {set(missing)} exist in "
                         f"the data but not in `class_weight`.")
    return np.array([class_weight[label] for label in labels.tolist()], np.float32)
