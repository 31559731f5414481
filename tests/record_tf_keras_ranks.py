"""Record TensorFlow 2.21's Keras (3.15) for tests/test_keras_ranks_tf.py (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_keras_ranks.py      # writes tests/data/tf_keras_ranks.json

Labels and predictions whose ranks differ by one: Keras 3 squeezes or expands the label to the
prediction's rank (``squeeze_or_expand_to_same_rank``) before every built-in loss and metric, so
``y`` of shape ``(n,)`` against a model's ``(n, 1)`` output is not broadcast to ``(n, n)``.
Each case is a function of the Keras module and of a tensor module (``tensorflow`` / ``minitape``)
returning plain data, as in tests/record_tf_keras_state.py:

* ``losses``: every loss class and function minitape has, on ``(n,)`` labels against ``(n, 1)``
  predictions and on ``(n, 1)`` against ``(n,)``: the value and its shape, or the error's type;
* ``metrics``: every metric class (its ``result()`` after one ``update_state``, with and without
  ``sample_weight``) and metric function, the same two ways;
* ``fit``: a ``Dense(1)`` model with set initial weights, trained by SGD for 3 epochs on ``y`` of shape
  ``(n,)`` with the loss given four ways: the per-epoch history (and validation) and ``evaluate``.
"""
from __future__ import annotations

import importlib
import json
import pathlib
from collections.abc import Callable
from typing import Any

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "tf_keras_ranks.json"

# The labels and predictions of each kind of case, as flat vectors of n = 4 entries.
DATA = {"regression": ([0.0, 1.0, 2.0, 3.0], [0.5, 1.5, 2.5, 3.5]),
        "binary": ([1.0, 0.0, 1.0, 1.0], [0.9, 0.2, 0.3, 0.6]),
        "logits": ([1.0, 0.0, 1.0, 1.0], [2.0, -1.0, -0.5, 0.3]),
        "class_zero": ([0, 0, 0, 0], [0.9, 0.2, 0.3, 0.6]),
        "exact": ([0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 2.5, 3.0])}
WEIGHTS = [1.0, 2.0, 0.5, 0.0]
SHAPES = {"vector_vs_column": ((4,), (4, 1)), "column_vs_vector": ((4, 1), (4,))}

# name: (kind of data, how to make the loss or metric from the Keras module)
LOSSES: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "MeanSquaredError": ("regression", lambda k: k.losses.MeanSquaredError()),
    "mean_squared_error": ("regression", lambda k: k.losses.mean_squared_error),
    "wrapped_function": ("regression", lambda k: public_or_src(k.losses, "LossFunctionWrapper", "keras.src.losses")(
        k.losses.mean_squared_error)),
    "CategoricalCrossentropy": ("binary", lambda k: k.losses.CategoricalCrossentropy()),
    "CategoricalCrossentropy_logits": ("logits", lambda k: k.losses.CategoricalCrossentropy(from_logits=True)),
    "categorical_crossentropy": ("binary", lambda k: k.losses.categorical_crossentropy),
    "SparseCategoricalCrossentropy": ("class_zero", lambda k: k.losses.SparseCategoricalCrossentropy()),
    "SparseCategoricalCrossentropy_logits": ("class_zero",
                                             lambda k: k.losses.SparseCategoricalCrossentropy(from_logits=True)),
    "sparse_categorical_crossentropy": ("class_zero", lambda k: k.losses.sparse_categorical_crossentropy),
}
METRICS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "MeanSquaredError": ("regression", lambda k: k.metrics.MeanSquaredError()),
    "Accuracy": ("exact", lambda k: k.metrics.Accuracy()),
    "BinaryAccuracy": ("binary", lambda k: k.metrics.BinaryAccuracy()),
    "CategoricalAccuracy": ("binary", lambda k: k.metrics.CategoricalAccuracy()),
    "SparseCategoricalAccuracy": ("class_zero", lambda k: k.metrics.SparseCategoricalAccuracy()),
    "Precision": ("binary", lambda k: k.metrics.Precision()),
    "Recall": ("binary", lambda k: k.metrics.Recall()),
    "MeanMetricWrapper": ("regression", lambda k: k.metrics.MeanMetricWrapper(k.metrics.mean_squared_error)),
    "mean_squared_error": ("regression", lambda k: k.metrics.mean_squared_error),
    "accuracy": ("exact", lambda k: public_or_src(k.metrics, "accuracy", "keras.src.metrics.accuracy_metrics")),
    "binary_accuracy": ("binary", lambda k: k.metrics.binary_accuracy),
    "categorical_accuracy": ("binary", lambda k: k.metrics.categorical_accuracy),
    "sparse_categorical_accuracy": ("class_zero", lambda k: k.metrics.sparse_categorical_accuracy),
}


def public_or_src(namespace: Any, name: str, src: str) -> Any:
    """``namespace.name``, or where Keras keeps it when its public API does not list it (minitape's does)."""
    return getattr(namespace, name, None) or getattr(importlib.import_module(src), name)


def outcome(compute: Callable[[], Any]) -> dict[str, Any]:
    """The value and shape ``compute`` gives, or the type of what it raises."""
    try:
        value = np.asarray(compute())
    except Exception as error:        # noqa: BLE001 -- the recorded outcome is the exception's type
        return {"error": type(error).__name__}
    return {"value": value.astype(np.float64).tolist(), "shape": list(value.shape)}


def shaped(kind: str, shapes: str) -> tuple[np.ndarray, np.ndarray]:
    """The labels and predictions of ``kind``, reshaped as ``shapes`` says (float32, or int64 labels)."""
    (y_shape, p_shape), (y, p) = SHAPES[shapes], DATA[kind]
    labels = np.asarray(y, np.float32 if isinstance(y[0], float) else np.int64)
    return labels.reshape(y_shape), np.asarray(p, np.float32).reshape(p_shape)


def own_loss(keras: Any, tf: Any) -> Any:
    """A ``Loss`` subclass: its ``call`` gets the labels as they are (Keras aligns ranks only for its own losses)."""
    class Squares(keras.losses.Loss):
        def call(self, y_true: Any, y_pred: Any) -> Any:
            return tf.reduce_mean(tf.square(y_true - y_pred), axis=-1)
    return Squares()


def losses(keras: Any, tf: Any) -> dict[str, Any]:
    made = {name: (kind, make(keras)) for name, (kind, make) in LOSSES.items()}
    made["own_subclass"] = ("regression", own_loss(keras, tf))
    return {f"{name}/{shapes}": outcome(lambda: loss(*shaped(kind, shapes)))
            for name, (kind, loss) in made.items() for shapes in SHAPES}


def metrics(keras: Any, tf: Any) -> dict[str, Any]:
    def result(make: Callable[[Any], Any], y: np.ndarray, p: np.ndarray, weighted: bool) -> Any:
        metric = make(keras)
        if not hasattr(metric, "update_state"):
            return metric(y, p)
        metric.update_state(y, p, sample_weight=np.asarray(WEIGHTS) if weighted else None)
        return metric.result()

    return {f"{name}/{shapes}{'/weighted' * weighted}": outcome(lambda: result(make, *shaped(kind, shapes), weighted))
            for name, (kind, make) in METRICS.items() for shapes in SHAPES for weighted in (False, True)
            if not weighted or name[0].isupper()}


X = np.array([[1.0, 2.0], [-1.0, 0.5], [0.0, 1.0], [2.0, -2.0], [0.5, 0.5], [1.5, -1.0]], "float32")
Y = np.array([1.0, 0.0, 2.0, -1.0, 0.5, 1.0], "float32")
FIT_LOSSES: dict[str, Callable[[Any, Any], Any]] = {
    "mse": lambda k, tf: "mse",
    "object": lambda k, tf: k.losses.MeanSquaredError(),
    "function": lambda k, tf: k.losses.mean_squared_error,
    "own_function": lambda k, tf: lambda y_true, y_pred: tf.reduce_mean(tf.square(y_true - y_pred), axis=-1),
}


def fit(keras: Any, tf: Any) -> dict[str, Any]:
    out = {}
    for name, loss in FIT_LOSSES.items():
        model = keras.Sequential([keras.layers.Dense(1)])
        model.build((None, 2))
        model.set_weights([np.array([[0.3], [-0.2]], "float32"), np.array([0.1], "float32")])
        model.compile(optimizer=keras.optimizers.SGD(0.05), loss=loss(keras, tf), metrics=["mse"])
        history = model.fit(X, Y, batch_size=4, epochs=3, shuffle=False, validation_data=(X[:3], Y[:3]), verbose=0)
        out[name] = {"history": {key: [float(v) for v in values] for key, values in sorted(history.history.items())},
                     "evaluate": [float(v) for v in model.evaluate(X, Y, verbose=0)]}
    return out


CASES = {"losses": losses, "metrics": metrics, "fit": fit}


if __name__ == "__main__":
    import os
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    import tensorflow
    keras.utils.set_random_seed(0)
    OUT.write_text(json.dumps({name: case(keras, tensorflow) for name, case in CASES.items()}, indent=1) + "\n")
