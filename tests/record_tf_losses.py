"""Record TensorFlow 2.21's Keras figures for regularizers, layer losses and metrics (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_losses.py      # writes tests/data/tf_losses.npz

As tests/record_tf_keras.py: the cases are plain data and builders that take the Keras
module (``keras`` here, ``minitape.keras`` in tests/test_keras_losses_tf.py), weights drawn
by NumPy and set into both libraries.

* ``regularizer/<name>``: a regularizer applied to a fixed array;
* ``losses/<case>``: ``model.losses`` after a call (add_loss, kernel, bias and activity
  penalties, from layers held in lists and dicts), and after a second call on other data;
* ``fit/<case>``: ``fit`` with ``shuffle=False`` of a model whose layers are regularized:
  ``history.history``, ``evaluate`` and the final weights;
* ``metric/<case>``: a metric's ``result()`` after each of a sequence of ``update_state`` calls.
"""
from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "tf_losses.npz"

REGULARIZED = np.array([[1.5, -2.0, 0.25], [-0.5, 3.0, -1.0]], "float32")
# name: (class, kwargs)
REGULARIZERS = {"l1": ("L1", {"l1": 0.1}), "l2": ("L2", {"l2": 0.2}), "l1_l2": ("L1L2", {"l1": 0.1, "l2": 0.2}),
                "l1_default": ("L1", {}), "l2_default": ("L2", {}), "l1l2_default": ("L1L2", {}),
                "l1l2_l2_only": ("L1L2", {"l2": 0.3})}

# name: (class, [(update args, update kwargs), ...], constructor kwargs)
METRICS = {
    "mean_rows_weighted": ("Mean", [(([1.0, 2.0, 6.0],), {}),
                                    (([[1.0, 2.0], [3.0, 4.0]],), {"sample_weight": [1.0, 0.0]}),
                                    ((5.0,), {"sample_weight": 2.0}),
                                    (([[1.0, 2.0], [3.0, 4.0]],), {"sample_weight": [[1.0, 0.5], [2.0, 0.0]]})], {}),
    "mean_float64": ("Mean", [(([0.1, 0.2, 0.3],), {}), (([1.0],), {"sample_weight": [3.0]})], {"dtype": "float64"}),
    "sparse_accuracy": ("SparseCategoricalAccuracy",
                        [(([[1], [0], [2]], [[0.1, 0.9, 0.0], [0.8, 0.1, 0.1], [0.3, 0.3, 0.4]]),
                          {"sample_weight": [1.0, 2.0, 0.5]}),
                         (([1, 0], [[0.1, 0.9, 0.0], [0.2, 0.8, 0.0]]), {}),
                         (([2], [[0.5, 0.0, 0.5]]), {})], {}),
    "categorical_accuracy": ("CategoricalAccuracy",
                             [(([[0, 1], [1, 0]], [[0.2, 0.8], [0.3, 0.7]]), {"sample_weight": [[1.0], [3.0]]}),
                              (([[0, 1, 0]], [[0.5, 0.5, 0.0]]), {}),
                              (([[0, 0, 1], [1, 0, 0]], [[0.1, 0.2, 0.7], [0.9, 0.05, 0.05]]),
                               {"sample_weight": [0.5, 0.25]})], {"name": "acc"}),
}


def regularized_model(keras: Any, tf: Any) -> Any:
    """A subclassed model whose layers sit in a list, a dict and a sub-layer, regularized three ways, with an
    add_loss (Keras lists the sub-layers' own losses in its own order: a nested layer's children last first)."""
    layers, regularizers = keras.layers, keras.regularizers

    class Pair(layers.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.first = layers.Dense(3, activity_regularizer=regularizers.L1(0.01))
            self.second = layers.Dense(3, activity_regularizer=regularizers.L2(0.02),
                                       kernel_regularizer=regularizers.L2(0.03))

        def call(self, x: Any) -> Any:
            return self.second(self.first(x))

    class Regularized(keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.blocks = []
            self.blocks.append(layers.Dense(4, activation="tanh", kernel_regularizer=regularizers.L2(0.01),
                                            bias_regularizer=regularizers.L1(0.02)))
            self.blocks.append(layers.Dense(3, activation="relu", kernel_regularizer="l1",
                                            activity_regularizer=regularizers.L2(0.05)))
            self.heads = {"out": layers.Dense(2, kernel_regularizer=regularizers.L1L2(l1=0.01, l2=0.02))}
            self.pair = Pair()

        def call(self, x: Any) -> Any:
            for block in self.blocks:
                x = block(x)
            x = self.pair(x)
            self.add_loss(0.1 * tf.reduce_mean(x))
            return self.heads["out"](x)

    return Regularized()


def conv_model(keras: Any, tf: Any) -> Any:
    layers, regularizers = keras.layers, keras.regularizers
    return keras.Sequential([
        layers.Conv2D(3, 3, padding="same", activation="relu", kernel_regularizer=regularizers.L2(0.02),
                      bias_regularizer=regularizers.L2(0.1), activity_regularizer=regularizers.L1(0.001)),
        layers.Flatten(),
        layers.Dense(2, kernel_regularizer=regularizers.l1_l2(l1=0.005, l2=0.01)),
    ])


BUILDERS = {"regularized": (regularized_model, (5,)), "conv": (conv_model, (4, 4, 2))}


def weights_for(shapes: list[tuple[int, ...]], seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.normal(0, 0.5, shape).astype("float32") for shape in shapes]


def inputs(name: str, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, *BUILDERS[name][1])).astype("float32")
    return x, rng.integers(0, 2, n).astype("int32")


def built(keras: Any, tf: Any, name: str) -> Any:
    """The model, built on one example and given its seeded weights."""
    model = BUILDERS[name][0](keras, tf)
    model(inputs(name, 1, 0)[0])
    for v, w in zip(model.weights, weights_for([tuple(v.shape) for v in model.weights], sorted(BUILDERS).index(name))):
        v.assign(w)
    return model


def record_regularizers(keras: Any, record: dict[str, Any]) -> None:
    for name, (cls, kwargs) in REGULARIZERS.items():
        record[f"regularizer/{name}"] = np.asarray(getattr(keras.regularizers, cls)(**kwargs)(REGULARIZED))


def record_losses(keras: Any, tf: Any, record: dict[str, Any]) -> None:
    for name in BUILDERS:
        model = built(keras, tf, name)
        record[f"losses/{name}/weight_paths"] = np.array(json.dumps([v.path for v in model.weights]))
        for call in (1, 2):
            model(inputs(name, 3, call)[0])
            record[f"losses/{name}/call{call}"] = np.array([float(loss) for loss in model.losses])


def record_fits(keras: Any, tf: Any, record: dict[str, Any]) -> None:
    for name in BUILDERS:
        model = built(keras, tf, name)
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss=keras.losses.SparseCategoricalCrossentropy(
            from_logits=True), metrics=["accuracy"])
        x, y = inputs(name, 8, 10)
        history = model.fit(x, y, batch_size=3, epochs=2, shuffle=False, verbose=0)
        record[f"fit/{name}/history"] = np.array(json.dumps(history.history))
        record[f"fit/{name}/evaluate"] = np.array(model.evaluate(*inputs(name, 4, 11), verbose=0))
        for k, w in enumerate(model.get_weights()):
            record[f"fit/{name}/final{k}"] = w


def record_metrics(keras: Any, record: dict[str, Any]) -> None:
    for name, (cls, updates, kwargs) in METRICS.items():
        metric = getattr(keras.metrics, cls)(**kwargs)
        results = []
        for args, update_kwargs in updates:
            metric.update_state(*args, **update_kwargs)
            results.append(np.asarray(metric.result()))
        record[f"metric/{name}/results"] = np.array(results)
        record[f"metric/{name}/state"] = np.array([np.asarray(v.numpy()) for v in metric.variables])
        record[f"metric/{name}/text"] = np.array(json.dumps([repr(metric), metric.name, str(metric.dtype),
                                                             str(metric.result().dtype.name)]))


def main() -> None:
    import keras
    import tensorflow as tf

    keras.utils.set_random_seed(0)
    record: dict[str, Any] = {}
    record_regularizers(keras, record)
    record_losses(keras, tf, record)
    record_fits(keras, tf, record)
    record_metrics(keras, record)
    OUT.parent.mkdir(exist_ok=True)
    np.savez_compressed(OUT, tf_version=np.array(tf.__version__), keras_version=np.array(keras.__version__), **record)
    print(f"wrote {len(record)} records, {OUT.stat().st_size} bytes, TF {tf.__version__}, Keras {keras.__version__}")


if __name__ == "__main__":
    main()
