"""Record TensorFlow 2.21's Keras 3 losses (values, gradients, configs, training by name) once (never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_keras_losses_metrics.py    # writes tests/data/tf_keras_losses_metrics.json

The cases are plain data shared with tests/test_keras_losses_metrics_tf.py:

* ``LOSSES``: a class with its options, called on fixed labels and predictions with a reduction and
  sample weights: the value and its gradient with respect to ``y_pred``;
* ``FUNCTIONS``: a function form, the per-example losses;
* ``COMPILED``: a one-layer model with fixed weights compiled with a loss name, fit 2 epochs, its history.
"""
from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "tf_keras_losses_metrics.json"

rng = np.random.default_rng(24)
LOGITS = rng.normal(size=(4, 3)).round(3)
PROBS = (np.exp(LOGITS) / np.exp(LOGITS).sum(-1, keepdims=True)).round(4)
SIGMOIDS = (1 / (1 + np.exp(-LOGITS))).round(4)
BINARY = np.array([[0, 1, 1], [1, 0, 0], [1, 1, 0], [0, 0, 1]], float)
ONE_HOT = np.eye(3)[[2, 0, 1, 1]]
SPARSE = np.array([2, 0, 1, 1])
REAL = rng.normal(size=(4, 3)).round(3)
POSITIVE = np.abs(REAL) + 0.5
WEIGHTS = [1.0, 0.5, 0.0, 2.0]
DATA = {"binary_probs": (BINARY, SIGMOIDS), "binary_logits": (BINARY, LOGITS), "onehot_probs": (ONE_HOT, PROBS),
        "onehot_logits": (ONE_HOT, LOGITS), "sparse_probs": (SPARSE, PROBS), "sparse_logits": (SPARSE, LOGITS),
        "sparse_column": (SPARSE[:, None], PROBS), "real": (REAL[:, ::-1] + 0.3, REAL), "positive": (POSITIVE[::-1], POSITIVE),
        "dist": (PROBS[::-1], PROBS), "signed": (2 * BINARY - 1, LOGITS), "vector": (REAL[:, 0], REAL[:, :1]),
        "segment": (BINARY, SIGMOIDS), "values": (None, REAL)}

# name: (class, kwargs, data, call kwargs)
LOSSES: dict[str, tuple[str, dict, str, dict]] = {}
for cls, data, options in [
        ("BinaryCrossentropy", "binary_probs", [{"label_smoothing": 0.2}, {"axis": 0}]),
        ("BinaryCrossentropy", "binary_logits", [{"from_logits": True}, {"from_logits": True, "label_smoothing": 0.1}]),
        ("BinaryFocalCrossentropy", "binary_probs", [{"gamma": 1.0}, {"apply_class_balancing": True, "alpha": 0.4}]),
        ("BinaryFocalCrossentropy", "binary_logits", [{"from_logits": True, "label_smoothing": 0.1}]),
        ("CategoricalCrossentropy", "onehot_probs", [{"label_smoothing": 0.1}]),
        ("CategoricalCrossentropy", "onehot_logits", [{"from_logits": True}, {"from_logits": True, "axis": 0}]),
        ("CategoricalFocalCrossentropy", "onehot_probs", [{"alpha": 0.5, "gamma": 1.0, "label_smoothing": 0.1}]),
        ("CategoricalFocalCrossentropy", "onehot_logits", [{"from_logits": True}]),
        ("SparseCategoricalCrossentropy", "sparse_probs", [{"ignore_class": 1}]),
        ("SparseCategoricalCrossentropy", "sparse_logits", [{"from_logits": True}]),
        ("SparseCategoricalCrossentropy", "sparse_column", []),
        ("MeanSquaredError", "real", []), ("MeanSquaredError", "vector", []), ("MeanAbsoluteError", "real", []),
        ("MeanAbsolutePercentageError", "real", []), ("MeanSquaredLogarithmicError", "positive", []),
        ("Huber", "real", [{"delta": 0.5}]), ("LogCosh", "real", []), ("KLDivergence", "dist", []),
        ("Poisson", "positive", []), ("CosineSimilarity", "real", [{"axis": 0}]),
        ("Hinge", "binary_logits", []), ("Hinge", "signed", []), ("SquaredHinge", "binary_logits", []),
        ("CategoricalHinge", "onehot_logits", []), ("Dice", "segment", [{"axis": 1}]),
        ("Tversky", "segment", [{"alpha": 0.7, "beta": 0.3}, {"axis": 1}])]:
    for k, kwargs in enumerate([{}, *options]):
        LOSSES[f"{cls}/{data}/{k}"] = (cls, kwargs, data, {})
for reduction in ("sum", "mean", "none", None, "mean_with_sample_weight", "sum_over_batch_size"):
    for cls, data in (("MeanSquaredError", "real"), ("SparseCategoricalCrossentropy", "sparse_probs"),
                      ("BinaryCrossentropy", "binary_probs")):
        LOSSES[f"{cls}/{data}/reduction={reduction}"] = (cls, {"reduction": reduction}, data, {})
        LOSSES[f"{cls}/{data}/weighted/reduction={reduction}"] = (cls, {"reduction": reduction}, data,
                                                                   {"sample_weight": WEIGHTS})
LOSSES["SparseCategoricalCrossentropy/ignore/weighted"] = ("SparseCategoricalCrossentropy", {"ignore_class": 0},
                                                           "sparse_probs", {"sample_weight": WEIGHTS})

# name: (function, data, kwargs)
FUNCTIONS = {
    "binary_crossentropy": ("binary_crossentropy", "binary_probs", {}),
    "binary_focal_crossentropy": ("binary_focal_crossentropy", "binary_logits", {"from_logits": True}),
    "categorical_crossentropy": ("categorical_crossentropy", "onehot_probs", {"label_smoothing": 0.2}),
    "categorical_focal_crossentropy": ("categorical_focal_crossentropy", "onehot_probs", {}),
    "sparse_categorical_crossentropy": ("sparse_categorical_crossentropy", "sparse_logits", {"from_logits": True}),
    "kld": ("kld", "dist", {}), "kullback_leibler_divergence": ("kullback_leibler_divergence", "dist", {}),
    "poisson": ("poisson", "positive", {}), "mse": ("mse", "real", {}), "mae": ("mae", "real", {}),
    "mape": ("mape", "real", {}), "msle": ("msle", "positive", {}), "MSE": ("MSE", "vector", {}),
    "huber": ("huber", "real", {"delta": 2.0}), "logcosh": ("logcosh", "real", {}),
    "cosine_similarity": ("cosine_similarity", "real", {}), "hinge": ("hinge", "binary_logits", {}),
    "squared_hinge": ("squared_hinge", "signed", {}), "categorical_hinge": ("categorical_hinge", "onehot_logits", {}),
    "dice": ("dice", "segment", {}), "tversky": ("tversky", "segment", {"alpha": 0.2, "beta": 0.8}),
}

# name: (loss identifier, activation, targets)
COMPILED = {"binary_crossentropy": ("binary_crossentropy", "sigmoid", "binary"), "bce": ("bce", "sigmoid", "binary"),
            "BinaryCrossentropy": ("BinaryCrossentropy", "sigmoid", "binary"),
            "categorical_crossentropy": ("categorical_crossentropy", "softmax", "onehot"),
            "sparse_categorical_crossentropy": ("sparse_categorical_crossentropy", "softmax", "sparse"),
            "mse": ("mse", None, "real"), "mae": ("mae", None, "real"), "MAPE": ("MAPE", None, "real"),
            "msle": ("msle", "sigmoid", "positive"), "huber": ("huber", None, "real"),
            "log_cosh": ("log_cosh", None, "real"), "kld": ("kld", "softmax", "dist"),
            "poisson": ("poisson", "sigmoid", "positive"), "cosine_similarity": ("cosine_similarity", None, "real"),
            "hinge": ("hinge", None, "binary"), "squared_hinge": ("squared_hinge", None, "binary"),
            "categorical_hinge": ("categorical_hinge", None, "onehot"), "Huber": ("Huber", None, "real"),
            "CategoricalFocalCrossentropy": ("CategoricalFocalCrossentropy", "softmax", "onehot")}
# name: (metric identifiers, activation, targets, loss)
COMPILED_METRICS = {
    "binary": (["mae", "mse", "AUC", "auc", "Precision", "recall", "binary_crossentropy", "bce", "TruePositives",
                "binary_accuracy"], "sigmoid", "binary", "binary_crossentropy"),
    "categorical": (["top_k_categorical_accuracy", "TopKCategoricalAccuracy", "categorical_crossentropy",
                     "kl_divergence", "categorical_hinge", "accuracy"], "softmax", "onehot",
                    "categorical_crossentropy"),
    "sparse": (["sparse_top_k_categorical_accuracy", "sparse_categorical_crossentropy", "acc"], "softmax", "sparse",
               "sparse_categorical_crossentropy"),
    "regression": (["mae", "MAE", "mape", "RootMeanSquaredError", "root_mean_squared_error", "cosine_similarity",
                    "log_cosh_error", "LogCoshError", "msle", "hinge", "squared_hinge"], None, "real", "mse")}
FIT_X = rng.normal(size=(6, 2)).round(3)
FIT_Y = {"binary": (FIT_X[:, :1] > 0).astype(float) * np.ones((1, 3)), "onehot": np.eye(3)[[0, 1, 2, 2, 1, 0]],
         "sparse": np.array([0, 1, 2, 2, 1, 0]), "real": FIT_X @ np.array([[1.0, -1, 0.5], [0.3, 0.2, -2]]),
         "positive": np.abs(FIT_X @ np.ones((2, 3))), "dist": np.full((6, 3), 1 / 3)}
KERNEL = np.array([[0.5, -0.3, 0.2], [0.1, 0.4, -0.6]])
BIAS = np.array([0.05, -0.05, 0.1])


# name: (class, kwargs, data): results after an update, then after a weighted one, on DATA[data]
METRICS = {"MeanAbsoluteError": ("MeanAbsoluteError", {}, "real"), "RootMeanSquaredError": ("RootMeanSquaredError", {}, "real"),
           "MeanAbsolutePercentageError": ("MeanAbsolutePercentageError", {}, "real"),
           "MeanSquaredLogarithmicError": ("MeanSquaredLogarithmicError", {}, "positive"),
           "LogCoshError": ("LogCoshError", {}, "real"), "CosineSimilarity": ("CosineSimilarity", {}, "real"),
           "KLDivergence": ("KLDivergence", {}, "dist"), "Poisson": ("Poisson", {}, "positive"),
           "Hinge": ("Hinge", {}, "binary_logits"), "SquaredHinge": ("SquaredHinge", {}, "signed"),
           "CategoricalHinge": ("CategoricalHinge", {}, "onehot_logits"),
           "BinaryCrossentropy": ("BinaryCrossentropy", {"from_logits": True}, "binary_logits"),
           "CategoricalCrossentropy": ("CategoricalCrossentropy", {"label_smoothing": 0.1}, "onehot_probs"),
           "SparseCategoricalCrossentropy": ("SparseCategoricalCrossentropy", {}, "sparse_probs"),
           "Sum": ("Sum", {}, "values"), "Mean": ("Mean", {}, "values"),
           "TopK/1": ("TopKCategoricalAccuracy", {"k": 1}, "onehot_probs"),
           "TopK/2": ("TopKCategoricalAccuracy", {"k": 2}, "onehot_probs"),
           "SparseTopK/1": ("SparseTopKCategoricalAccuracy", {"k": 1}, "sparse_probs"),
           "SparseTopK/column": ("SparseTopKCategoricalAccuracy", {"k": 2}, "sparse_column"),
           "AUC": ("AUC", {}, "binary_probs"), "AUC/PR": ("AUC", {"curve": "PR"}, "binary_probs"),
           "AUC/10": ("AUC", {"num_thresholds": 10}, "binary_probs"),
           "AUC/PR/minoring": ("AUC", {"curve": "PR", "summation_method": "minoring", "num_thresholds": 7}, "binary_probs"),
           "AUC/majoring": ("AUC", {"summation_method": "majoring", "num_thresholds": 7}, "binary_probs"),
           "AUC/logits": ("AUC", {"from_logits": True}, "binary_logits"),
           "AUC/thresholds": ("AUC", {"thresholds": [0.3, 0.5, 0.6]}, "binary_probs"),
           "AUC/PR/thresholds": ("AUC", {"curve": "PR", "thresholds": [0.3, 0.5, 0.6]}, "binary_probs"),
           "TruePositives": ("TruePositives", {}, "binary_probs"), "FalsePositives": ("FalsePositives", {}, "binary_probs"),
           "TrueNegatives": ("TrueNegatives", {"thresholds": [0.3, 0.6]}, "binary_probs"),
           "FalseNegatives": ("FalseNegatives", {"thresholds": 0.4}, "binary_probs"),
           "Precision": ("Precision", {"thresholds": [0.3, 0.5, 0.7]}, "binary_probs"),
           "Precision/top_k": ("Precision", {"top_k": 1}, "binary_probs"),
           "Recall/class_id": ("Recall", {"class_id": 2}, "binary_probs"),
           "PrecisionAtRecall": ("PrecisionAtRecall", {"recall": 0.6}, "binary_probs"),
           "RecallAtPrecision": ("RecallAtPrecision", {"precision": 0.5}, "binary_probs"),
           "SensitivityAtSpecificity": ("SensitivityAtSpecificity", {"specificity": 0.5}, "binary_probs"),
           "SpecificityAtSensitivity": ("SpecificityAtSensitivity", {"sensitivity": 0.7, "num_thresholds": 9},
                                        "binary_probs"),
           "SensitivityAtSpecificity/class_id": ("SensitivityAtSpecificity", {"specificity": 0.5, "class_id": 1},
                                                 "binary_probs"),
           "F1Score": ("F1Score", {}, "onehot_probs"), "F1Score/macro": ("F1Score", {"average": "macro"}, "binary_probs"),
           "F1Score/micro": ("F1Score", {"average": "micro", "threshold": 0.4}, "binary_probs"),
           "F1Score/weighted": ("F1Score", {"average": "weighted"}, "onehot_probs"),
           "FBetaScore": ("FBetaScore", {"beta": 2.0, "threshold": 0.3}, "binary_probs")}


def metric_results(keras: Any, name: str) -> tuple[list[float], str]:
    """``METRICS[name]`` updated twice (the second time weighted): its results, and its name."""
    cls, kwargs, data = METRICS[name]
    metric = getattr(keras.metrics, cls)(**kwargs)
    y_true, y_pred = DATA[data]
    inputs = (np.asarray(y_pred, np.float32),) if data == "values" else (y_true, np.asarray(y_pred, np.float32))
    metric.update_state(*inputs)
    first = np.asarray(metric.result()).tolist()
    metric.update_state(*(x[:2] for x in inputs), sample_weight=[2.0, 0.5])
    return [first, np.asarray(metric.result()).tolist()], metric.name


def loss_case(keras: Any, tf: Any, name: str) -> tuple[Any, Any]:
    """The loss of a ``LOSSES`` case and its gradient with respect to ``y_pred``, with ``keras`` and ``tf``."""
    cls, kwargs, data, call = LOSSES[name]
    y_true, y_pred = DATA[data]
    y_pred = tf.Variable(np.asarray(y_pred, np.float32))
    with tf.GradientTape() as tape:
        value = getattr(keras.losses, cls)(**kwargs)(y_true, y_pred, **call)
    return value, tape.gradient(value, y_pred)


def fit_history(keras: Any, name: str, with_metrics: bool = False) -> dict[str, list[float]]:
    """``COMPILED[name]``'s model (or ``COMPILED_METRICS[name]``'s) fit 2 epochs with SGD(0.1), batch 3, no
    shuffling: its history."""
    if with_metrics:
        metrics, activation, targets, loss = COMPILED_METRICS[name]
    else:
        (loss, activation, targets), metrics = COMPILED[name], None
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3, activation=activation)])
    model.layers[-1].set_weights([KERNEL.astype(np.float32), BIAS.astype(np.float32)])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss=loss, metrics=metrics)
    history = model.fit(FIT_X.astype(np.float32), FIT_Y[targets], batch_size=3, epochs=2, shuffle=False, verbose=0)
    return history.history


def main() -> None:
    import os
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    keras = tf.keras
    record: dict[str, Any] = {"losses": {}, "functions": {}, "configs": {}, "compiled": {}}
    for name in LOSSES:
        value, gradient = loss_case(keras, tf, name)
        record["losses"][name] = {"value": value.numpy().tolist(), "dtype": value.dtype.name,
                                  "gradient": gradient.numpy().tolist()}
    for name, (fn, data, kwargs) in FUNCTIONS.items():
        y_true, y_pred = DATA[data]
        record["functions"][name] = getattr(keras.losses, fn)(y_true, np.asarray(y_pred, np.float32), **kwargs).numpy().tolist()
    for name, (cls, kwargs, _, _) in LOSSES.items():
        loss = getattr(keras.losses, cls)(**kwargs)
        record["configs"][f"{cls}/{json.dumps(kwargs, sort_keys=True)}"] = loss.get_config()
    record["names"] = {space: [n for n in dir(getattr(keras, space)) if not n.startswith("_")]
                       for space in ("losses", "metrics")}
    record["metrics"] = {name: metric_results(keras, name) for name in METRICS}
    record["metric_configs"] = {name: getattr(keras.metrics, cls)(**kwargs).get_config()
                                for name, (cls, kwargs, _) in METRICS.items()}
    for name in COMPILED:
        record["compiled"][name] = fit_history(keras, name)
    record["compiled_metrics"] = {name: fit_history(keras, name, True) for name in COMPILED_METRICS}
    OUT.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
