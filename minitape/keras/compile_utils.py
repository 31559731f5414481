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

from minitape.core import nest
from minitape.keras import metrics as metrics_module
from minitape.core.tensor import Tensor
from minitape.keras.metric import Metric


class CompileMetrics(Metric):
    """compile's ``metrics``, made on the first batch (``"accuracy"`` is chosen from its shapes), as one metric.

    For a model of several outputs, ``metrics`` is a list with one entry per output (a metric or a
    list of them, or ``None``) or a dict by output name, and each result is named
    ``<output>_<metric>`` (a subclassed model's outputs have no names: then ``<metric>``, a repeated
    name getting ``_1``, ``_2``...), as Keras 3's.  Compile's metrics are not weighted by
    ``sample_weight``, as Keras' (its ``weighted_metrics`` would be).

    >>> import minitape as tf
    >>> from minitape.keras.compile_utils import CompileMetrics
    >>> metrics = CompileMetrics(["accuracy"])
    >>> metrics.update_state(np.array([0, 1]), tf.constant([[0.9, 0.1], [0.8, 0.2]]))
    >>> metrics.name, metrics.result()
    ('compile_metrics', {'accuracy': <minitape.Tensor: shape=(), dtype=float32, numpy=0.5>})
    >>> metrics = CompileMetrics({"b": "mae"}, output_names=["a", "b"])
    >>> metrics.update_state([tf.zeros((2, 1)), tf.zeros((2, 1))], [tf.ones((2, 1)), 2 * tf.ones((2, 1))])
    >>> {name: float(value) for name, value in metrics.result().items()}
    {'b_mae': 2.0}
    """

    def __init__(self, identifiers: Any, output_names: list[str] | None = None) -> None:
        super().__init__(name="compile_metrics")
        self._user_metrics, self.output_names = identifiers, output_names
        self._groups: list[tuple[str | None, list[Metric]] | None] = []      # per output: its name and metrics
        self._order: list[str] | None = None           # a dict of targets or outputs, read in this order
        self.metrics: list[Metric] = []
        self.built = False

    def build(self, y_true: Any, y_pred: Any) -> None:
        """Make each output's metrics for the first batch, as Keras 3's ``CompileMetrics.build``.

        >>> import minitape as tf
        >>> from minitape.keras.compile_utils import CompileMetrics
        >>> metrics = CompileMetrics([["mae"], None], output_names=["a", "b"])
        >>> metrics.build([tf.zeros((1, 1))] * 2, [tf.zeros((1, 1))] * 2)
        >>> [m.name for m in metrics.metrics]
        ['mae']
        """
        flat = isinstance(y_pred, list | tuple | dict)
        names = self.output_names
        if isinstance(y_pred, dict) and not (names and set(y_pred) == set(names)):
            names = sorted(y_pred)
        count = len(y_pred) if flat else 1
        self._order = names if flat and count > 1 else None
        if count == 1:          # one output: every metric is its own, named as given
            first = nest.flatten(self._user_metrics)
            self._groups = [(None, [metrics_module.get(m, nest.flatten(y_true)[0], nest.flatten(y_pred)[0])
                                    for m in first])]
        else:
            self._groups = [None if given is None else (name, [metrics_module.get(m, true, pred) for m in
                                                               (given if isinstance(given, list | tuple) else [given])])
                            for given, true, pred, name in zip(self._per_output(count, names, y_pred),
                                                               self._by_output(y_true), self._by_output(y_pred),
                                                               names or [None] * count)]
        self.metrics = [metric for group in self._groups if group for metric in group[1]]
        self.built = True

    def _per_output(self, count: int, names: list[str] | None, y_pred: Any) -> list[Any]:
        """compile's ``metrics`` as one entry per output, or Keras 3's error naming what it expected."""
        given = self._user_metrics
        if isinstance(given, list | tuple) and len(given) == count:
            return list(given)
        if names and isinstance(given, dict) and set(given) <= set(names):
            return [given.get(name) for name in names]
        problem = (f"tuple arity mismatch; expected: {count}, got: {len(given)}; tuple: {_as_tuples(given)}."
                   if isinstance(given, list | tuple) else f"Expected an instance of tuple, got {given}.")
        outputs = ("either be a dict or a list matching the output names of the functional model "
                   f"{self.output_names} or " if self.output_names else "")
        shape = {key: "X" for key in y_pred} if isinstance(y_pred, dict) else type(y_pred)("X" for _ in y_pred)
        raise ValueError(f"{problem}\nInvalid `metrics`. `metrics` should contain metrics objects and {outputs}match "
                         f"the output structure of the model: {shape}.\nReceived: metrics={given}")

    def _by_output(self, y: Any) -> list[Any]:
        return [y[name] for name in self._order] if isinstance(y, dict) and self._order else nest.flatten(y)

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        """Update each output's metrics with a batch (making them on the first one); ``sample_weight`` is not used.

        >>> import minitape as tf
        >>> from minitape.keras.compile_utils import CompileMetrics
        >>> metrics = CompileMetrics("mse")
        >>> metrics.update_state(tf.zeros((2, 1)), tf.ones((2, 1)))
        >>> [m.name for m in metrics.metrics]
        ['mse']
        """
        if not self.built:
            self.build(y_true, y_pred)
        for group, true, pred in zip(self._groups, self._by_output(y_true), self._by_output(y_pred)):
            for metric in group[1] if group else []:
                metric.update_state(true, pred)

    def result(self) -> dict[str, Any]:
        """Each metric's result, by name.

        >>> import minitape as tf
        >>> from minitape.keras.compile_utils import CompileMetrics
        >>> metrics = CompileMetrics(["mse"])
        >>> metrics.update_state(tf.zeros((2, 1)), 2 * tf.ones((2, 1)))
        >>> float(metrics.result()["mse"])
        4.0
        """
        results: dict[str, Any] = {}
        for output, metrics in filter(None, self._groups):
            for metric in metrics:
                name = f"{output}_{metric.name}" if output else metric.name
                repeat, unique = 0, name
                while unique in results:        # as Keras: a repeated name gets _1, _2...
                    repeat += 1
                    unique = f"{name}_{repeat}"
                results[unique] = metric.result()
        return results

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
    _compile_loss: Any = None
    _loss_tracker: Metric

    @property
    def metrics(self) -> list:
        """What ``fit`` resets each epoch and reports: the loss's running mean, compile's metrics as one
        (``compile_metrics``), each output's loss (several outputs), then the metrics held in the model's
        attributes, as Keras 3 lists them.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> model.compile(loss="mse", metrics=["mse"])
        >>> [m.name for m in model.metrics]
        ['loss', 'compile_metrics']
        """
        own = [self._loss_tracker, *([self._compile_metrics] if self._compile_metrics else []),
               *(self._compile_loss.metrics if self._compile_loss else [])] if self.compiled else []
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


def _as_tuples(value: Any) -> Any:
    """Lists as tuples, all the way down, as Keras' ``tree.lists_to_tuples`` prints them."""
    return tuple(_as_tuples(item) for item in value) if isinstance(value, list | tuple) else value


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
