"""Record TensorFlow 2.21's Keras for tests/test_keras_api_tf.py (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_keras_api.py      # writes tests/data/tf_keras_api.json

Each case below is a function of the Keras module (``keras`` here, ``minitape.keras`` in the test) and
of a tensor module (``tensorflow`` / ``minitape``) that returns plain data (lists, numbers, strings); the
test runs the same functions with minitape and compares:

* ``constraints``: each constraint on one matrix; a Dense and a Conv2D with constraints after an SGD step;
* ``metrics``: Precision and Recall (thresholds, top_k, class_id, sample weights), the function forms,
  a custom metric made with ``add_weight``;
* ``weights``: ``get_weights`` / ``set_weights`` of a Sequential model with BatchNormalization;
* ``functional``: a two-input, two-output functional model (its layers, weight paths, output shapes and
  values for weights set from NumPy), and a Sequential model that starts with an ``Input``.
"""
from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "tf_keras_api.json"
W = [[3.0, -4.0, 0.5], [0.0, 1.0, -2.0]]


def values(x: Any) -> Any:
    return np.asarray(x).tolist()


def constraints(keras: Any, tf: Any) -> dict[str, Any]:
    c = keras.constraints
    cases = {"max_norm": c.MaxNorm(2.0), "max_norm_axis1": c.MaxNorm(1.0, axis=1), "non_neg": c.NonNeg(),
             "unit_norm": c.UnitNorm(), "min_max_norm": c.MinMaxNorm(0.5, 1.5, rate=0.5),
             "by_name": c.get("max_norm"), "configs": None}
    out = {name: values(con(tf.constant(W))) for name, con in cases.items() if con is not None}
    out["configs"] = [con.get_config() for con in (c.MaxNorm(), c.UnitNorm(), c.MinMaxNorm())]
    dense = keras.layers.Dense(2, kernel_constraint="non_neg", bias_constraint=c.MaxNorm(0.1),
                               kernel_initializer="ones", bias_initializer="ones")
    conv = keras.layers.Conv2D(2, 2, kernel_constraint=c.UnitNorm(axis=[0, 1, 2]), bias_constraint=lambda b: b * 0.5)
    x2, x4 = tf.constant(np.arange(4.0, dtype="float32").reshape(2, 2)), tf.ones((1, 3, 3, 2))
    for layer, x in ((dense, x2), (conv, x4)):
        layer(x)
        layer.set_weights([np.linspace(-1, 1, w.size).reshape(w.shape).astype("float32") for w in layer.get_weights()])
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(layer(x) * layer(x))
        grads = tape.gradient(loss, layer.trainable_variables)
        keras.optimizers.SGD(0.5).apply_gradients(zip(grads, layer.trainable_variables))
        out[f"after_step/{layer.__class__.__name__}"] = [values(w) for w in layer.get_weights()]
    return out


CONFUSION = {
    "precision_default": ("Precision", {}, [([0, 1, 1, 1, 0, 1, 0, 1], [1, 1, 0, 1, 0, 1, 0, 1], None),
                                            ([0, 1, 0, 0, 1, 0, 1, 1], [1, 0, 1, 1, 0, 0, 0, 0], None)]),
    "precision_thresholds": ("Precision", {"thresholds": [0.3, 0.7]},
                             [([0, 1, 1, 0], [0.2, 0.5, 0.8, 0.9], None), ([[1], [0]], [[0.75], [0.1]], None)]),
    "precision_top_k": ("Precision", {"top_k": 2}, [([[0, 1, 1, 0], [1, 0, 0, 0]],
                                                     [[0.2, 0.5, 0.8, 0.9], [0.6, 0.1, 0.7, 0.05]], None)]),
    "precision_class_id": ("Precision", {"class_id": 2}, [([[0, 1, 1, 0], [1, 0, 0, 0]],
                                                           [[0.2, 0.5, 0.8, 0.9], [0.6, 0.1, 0.7, 0.05]], None)]),
    "recall_weighted": ("Recall", {"thresholds": 0.6}, [([0, 1, 1, 0], [0.2, 0.5, 0.8, 0.9], [1, 2, 3, 4])]),
    "recall_matrix_weights": ("Recall", {}, [([[0, 1], [1, 1], [1, 0]], [[0.9, 0.4], [0.6, 0.7], [0.2, 0.1]],
                                              [0.5, 2.0, 1.0])]),
    "recall_nothing": ("Recall", {}, [([0, 0], [0.9, 0.2], None)]),
}

FUNCTIONS = {
    "sparse_categorical_accuracy": ([1, 0, 2], [[0.2, 0.8, 0.0], [0.3, 0.7, 0.0], [0.1, 0.2, 0.7]]),
    "sparse_categorical_accuracy_column": ([[1], [0]], [[0.2, 0.8], [0.3, 0.7]]),
    "categorical_accuracy": ([[0, 1], [0, 1]], [[0.2, 0.8], [0.3, 0.1]]),
    "binary_accuracy": ([[1], [0], [1]], [[0.7], [0.6], [0.2]]),
    "binary_accuracy_vector": ([1, 0, 1], [[0.7], [0.6], [0.2]]),
    "mse": ([[0.0, 0.0], [1.0, 1.0]], [[1.0, 3.0], [1.0, 0.0]]),
}


def metrics(keras: Any, tf: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, (cls, kwargs, updates) in CONFUSION.items():
        metric = getattr(keras.metrics, cls)(name=name, **kwargs)
        results = []
        for y_true, y_pred, weight in updates:
            result = metric(y_true, y_pred, sample_weight=weight)
            results.append([values(result), str(result.dtype.name)])
        out[name] = {"results": results, "variables": [[v.path, values(v)] for v in metric.variables],
                     "thresholds": [float(t) for t in metric.thresholds], "config": metric.get_config()}
    for name, (y_true, y_pred) in FUNCTIONS.items():
        fn = getattr(keras.metrics, name.replace("_column", "").replace("_vector", ""))
        result = fn(y_true, y_pred)
        out[f"fn/{name}"] = [type(result).__name__.endswith("Tensor"), list(result.shape), values(result)]

    class Counter(keras.metrics.Metric):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.total = self.add_weight(name="total", initializer="zeros")
            self.seen = self.add_weight(name="seen", shape=(2,), initializer="ones", dtype="int32")

        def update_state(self, values: Any) -> None:
            self.total.assign_add(tf.reduce_sum(values))

        def result(self) -> Any:
            return self.total + 1.0

    counter = Counter(name="counter")
    out["custom"] = [values(counter([1.0, 2.0])), [[v.path, v.dtype if isinstance(v.dtype, str) else v.dtype.name,
                                                   values(v), bool(v.trainable)] for v in counter.variables]]
    counter.reset_state()
    out["custom_reset"] = [values(v) for v in counter.variables]
    return out


def weights(keras: Any, tf: Any) -> dict[str, Any]:
    model = keras.Sequential([keras.layers.Dense(3), keras.layers.BatchNormalization(), keras.layers.Dense(1)])
    before = [values(w) for w in model.layers[0].get_weights()]
    model(np.ones((2, 4), "float32"))
    got = model.get_weights()
    new = [np.linspace(0.1, 1.0, w.size).reshape(w.shape) for w in got]      # float64, cast by set_weights
    model.set_weights(new)
    return {"unbuilt": before, "shapes": [list(w.shape) for w in got], "dtypes": [str(w.dtype) for w in got],
            "types": sorted({type(w).__name__ for w in got}),
            "output": values(model(np.arange(8.0, dtype="float32").reshape(2, 4), training=False)),
            "after_set": [values(w) for w in model.get_weights()]}


def functional(keras: Any, tf: Any) -> dict[str, Any]:
    a = keras.Input(shape=(3,), name="a")
    b = keras.Input(shape=(3,), name="b")
    hidden = keras.layers.Dense(4, activation="relu", name="hidden")(keras.layers.Add(name="sum")([a, b]))
    first = keras.layers.Dense(1, name="first")(hidden)
    second = keras.layers.Dense(2, activation="softmax", name="second")(keras.layers.Dropout(0.5, name="drop")(hidden))
    model = keras.Model(inputs=[a, b], outputs=[first, second], name="two_heads")
    model.set_weights([np.linspace(-1, 1, w.size).reshape(w.shape) for w in model.get_weights()])
    x1, x2 = np.arange(6.0).reshape(2, 3), np.ones((2, 3))
    single = keras.Model(a, keras.layers.Dense(2, name="single_out", kernel_initializer="ones")(a))
    stacked = keras.Sequential([keras.Input(shape=(2,)), keras.layers.Dense(2, kernel_initializer="ones")])
    return {"layers": [[layer.name, type(layer).__name__] for layer in model.layers],
            "paths": [w.path for w in model.weights], "symbolic": [[list(t.shape), t.dtype] for t in (hidden, second)],
            "outputs": [values(y) for y in model([x1, x2])],
            "predict": values(single.predict(x1, verbose=0)),
            "stacked": [[type(layer).__name__ for layer in stacked.layers], len(stacked.weights),
                        values(stacked(np.ones((1, 2))))],
            "int_input": list(keras.layers.Embedding(5, 2)(keras.Input(shape=(4,), dtype="int32")).shape)}


CASES = {"constraints": constraints, "metrics": metrics, "weights": weights, "functional": functional}


def main() -> None:
    import tensorflow as tf

    keras = tf.keras           # what students reach: its metrics namespace has `mse`, where `keras.metrics` has not
    keras.utils.set_random_seed(0)
    record = {name: case(keras, tf) for name, case in CASES.items()}
    OUT.write_text(json.dumps({"tf_version": tf.__version__, "keras_version": keras.__version__, **record}, indent=1))
    print(f"wrote {OUT}, TF {tf.__version__}, Keras {keras.__version__}")


if __name__ == "__main__":
    main()
