"""Record TensorFlow 2.21's Keras 3 behaviour for tests/test_keras_behaviour_tf.py (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_keras_behaviour.py      # writes tests/data/tf_keras_behaviour.json

What teaching programs do that went wrong silently, each case a function of the Keras module and of a tensor
module (``tensorflow`` / ``minitape``) returning plain data:

* ``train_step``: keras.io's "customizing what happens in fit": a model with its own ``train_step`` written
  the Keras 3 way (``compute_loss``, ``optimizer.apply``, ``self.metrics``), the tf.keras way
  (``compiled_loss``, ``apply_gradients``, ``compiled_metrics``) and with its own metric trackers; its own
  ``test_step`` and ``predict_step``; History's value types;
* ``add_loss``: a model whose only loss comes from ``add_loss`` in ``call`` (compiled without a loss);
* ``metric_weights``: a ``Metric`` subclass keeping its ``add_weight`` variables as attributes, with its own
  ``reset_state``;
* ``fit_data``: ``fit`` on a rank-1 ``x``, ``validation_split``, ``validation_data``, ``class_weight``,
  ``sample_weight``, ``initial_epoch``, ``steps_per_epoch``, ``validation_freq`` (all with ``shuffle=False``);
* ``functional_io``: an ensemble of functional models called on one Input, a model called on another's
  ``output``, ``input``/``output``/``inputs``/``outputs``, a feature extractor from a Sequential's layers;
* ``summary``: ``model.summary()`` of a Sequential and a functional model where stdout is not a terminal;
* ``configs``: ``get_config`` of built-in layers, ``from_config`` round trips of Sequential and functional models;
* ``formatting``: ``f"{t}"`` and ``format(t, ".2f")`` of tensors, ``stop_recording`` outside the tape, a
  custom metric's ``result()`` dtype.
"""
from __future__ import annotations

import copy
import json
import pathlib
import warnings
from typing import Any

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "tf_keras_behaviour.json"
X = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0], [0.0, 1.0, -1.0], [2.0, -2.0, 0.5],
              [0.5, 0.5, 0.5], [-1.0, -1.0, 1.0]], dtype="float32")
Y = np.array([[1.0], [0.0], [2.0], [-1.0], [0.5], [1.5]], dtype="float32")


def values(x: Any) -> Any:
    return np.asarray(x).tolist()


def linear(keras: Any, cls: Any) -> Any:
    """``cls(inputs, outputs)`` over one Dense(1) with weights set from NumPy: the same start in both systems."""
    inputs = keras.Input(shape=(3,))
    model = cls(inputs, keras.layers.Dense(1)(inputs))
    model.set_weights([np.array([[0.5], [-0.25], [0.1]], "float32"), np.array([0.2], "float32")])
    return model


def history(h: Any) -> dict[str, Any]:
    return {key: [float(v) for v in vals] for key, vals in h.history.items()} | {
        "types": sorted({type(v).__name__ for vals in h.history.values() for v in vals})}


def train_step(keras: Any, tf: Any) -> dict[str, Any]:
    class Keras3(keras.Model):
        def train_step(self, data: Any) -> Any:
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = self.compute_loss(y=y, y_pred=y_pred)
            gradients = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply(gradients, self.trainable_variables)
            for metric in self.metrics:
                if metric.name == "loss":
                    metric.update_state(loss)
                else:
                    metric.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}

        def test_step(self, data: Any) -> Any:
            x, y = data
            y_pred = self(x, training=False)
            loss = self.compute_loss(y=y, y_pred=y_pred)
            for metric in self.metrics:
                if metric.name == "loss":
                    metric.update_state(loss)
                else:
                    metric.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}

        def predict_step(self, data: Any) -> Any:
            return 2.0 * self(data, training=False)

    class TfKeras(keras.Model):
        def train_step(self, data: Any) -> Any:
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = self.compiled_loss(y, y_pred, regularization_losses=self.losses)
            gradients = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
            self.compiled_metrics.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}

    class OwnTrackers(keras.Model):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.loss_tracker = keras.metrics.Mean(name="loss")
            self.error = keras.metrics.Mean(name="abs_error")

        def train_step(self, data: Any) -> Any:
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = tf.reduce_mean(tf.square(y - y_pred))
            gradients = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
            self.loss_tracker.update_state(loss)
            self.error.update_state(tf.abs(y - y_pred))
            return {"loss": self.loss_tracker.result(), "abs_error": self.error.result()}

        @property
        def metrics(self) -> list:
            return [self.loss_tracker, self.error]

    out: dict[str, Any] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for cls, compiled in ((Keras3, {"loss": "mse", "metrics": ["mse"]}), (TfKeras, {"loss": "mse", "metrics": ["mse"]}),
                              (OwnTrackers, {})):
            model = linear(keras, cls)
            model.compile(optimizer=keras.optimizers.SGD(0.05), **compiled)
            name = cls.__name__
            out[f"{name}/metrics_before_fit"] = [m.name for m in model.metrics]
            validation = (X[:2], Y[:2]) if compiled else None      # the default test_step needs a compiled loss
            out[f"{name}/fit"] = history(model.fit(X, Y, batch_size=2, epochs=3, shuffle=False, verbose=0,
                                                   validation_data=validation))
            out[f"{name}/weights"] = [values(w) for w in model.get_weights()]
            if not compiled:
                continue
            out[f"{name}/evaluate"] = model.evaluate(X, Y, batch_size=4, verbose=0, return_dict=True)
            out[f"{name}/evaluate"] = {k: float(v) for k, v in out[f"{name}/evaluate"].items()}
            out[f"{name}/predict"] = values(model.predict(X[:2], verbose=0))
    return out


def add_loss(keras: Any, tf: Any) -> dict[str, Any]:
    class Regression(keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.dense = keras.layers.Dense(1, kernel_initializer="ones")

        def call(self, inputs: Any) -> Any:
            x, y = inputs
            y_pred = self.dense(x)
            self.add_loss(tf.reduce_mean(tf.square(y - y_pred)))
            self.add_loss(0.01 * tf.reduce_sum(tf.square(self.dense.kernel)))
            return y_pred

    model = Regression()
    model.compile(optimizer=keras.optimizers.SGD(0.01))
    h = model.fit((X, Y), batch_size=2, epochs=3, shuffle=False, verbose=0)
    after_call = len(model.losses)
    model((X[:2], Y[:2]))
    model((X[:2], Y[:2]))
    out = {"fit": history(h), "weights": [values(w) for w in model.get_weights()],
           "losses_after_fit": after_call, "losses_after_two_calls": len(model.losses),
           "loss_values": [values(v) for v in model.losses]}

    class Endpoint(keras.layers.Layer):          # keras.io's functional API guide: the loss made by a layer
        def call(self, targets: Any, logits: Any) -> Any:
            self.add_loss(tf.reduce_mean(tf.square(targets - tf.sigmoid(logits))))
            return tf.sigmoid(logits)

    inputs, targets = keras.Input(shape=(3,), name="x_inputs"), keras.Input(shape=(2,), name="a_targets")
    logits = keras.layers.Dense(2, kernel_initializer="ones", name="logits")(inputs)
    model = keras.Model([inputs, targets], Endpoint(name="endpoint")(targets, logits))
    model.compile(optimizer=keras.optimizers.SGD(0.5))
    data = {"a_targets": np.array([[1.0, 0.0]] * 3 + [[0.0, 1.0]] * 3, "float32"), "x_inputs": X}   # by name
    h = model.fit(data, batch_size=2, epochs=3, shuffle=False, verbose=0)
    split = model.fit(data, batch_size=2, epochs=2, shuffle=False, verbose=0, validation_split=0.34)
    return out | {"endpoint_fit": history(h), "endpoint_weights": [values(w) for w in model.get_weights()],
                  "endpoint_validation_split": history(split)}


def metric_weights(keras: Any, tf: Any) -> dict[str, Any]:
    class TruePositives(keras.metrics.Metric):
        def __init__(self, name: str = "true_positives", **kwargs: Any) -> None:
            super().__init__(name=name, **kwargs)
            self.true_positives = self.add_weight(name="tp", initializer="zeros")
            self.seen = self.add_weight(name="seen", initializer="zeros")

        def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
            hits = tf.cast(y_true, self.dtype) * tf.cast(tf.greater(y_pred, 0.5), self.dtype)
            self.true_positives.assign_add(tf.reduce_sum(hits))
            self.seen.assign_add(tf.cast(tf.size(y_true), self.dtype))

        def result(self) -> Any:
            return self.true_positives / self.seen

        def reset_state(self) -> None:
            self.true_positives.assign(0.0)
            self.seen.assign(0.0)

    metric = TruePositives()
    metric.update_state([1, 0, 1, 1], [0.9, 0.8, 0.2, 0.7])
    first = metric.result()
    out = {"result": values(first), "dtype": first.dtype.name,
           "variables": [[v.name, values(v)] for v in metric.variables], "attribute": values(metric.true_positives)}
    metric.reset_state()
    out["after_reset"] = [values(v) for v in metric.variables]

    class Ratio(keras.metrics.Metric):          # a result made of Python floats: float32 in Keras
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.total = self.add_weight(name="total", initializer="zeros")

        def update_state(self, values: Any) -> None:
            self.total.assign_add(tf.reduce_sum(values))

        def result(self) -> Any:
            return self.total / 3.0 + tf.reduce_mean([0.5, 1.5]) - 1.0

    ratio = Ratio(name="ratio")
    ratio.update_state([1.0, 2.0])
    out["ratio"] = [values(ratio.result()), ratio.result().dtype.name]
    return out


def fit_data(keras: Any, tf: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}

    def run(key: str, x: Any = X, y: Any = Y, **kwargs: Any) -> None:
        inputs = keras.Input(shape=np.shape(x)[1:] or (1,))
        model = keras.Model(inputs, keras.layers.Dense(1, kernel_initializer="ones")(
            keras.layers.Flatten()(inputs) if np.ndim(x) > 2 else inputs))
        model.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse", metrics=["mse"])
        try:
            h = model.fit(x, y, batch_size=2, shuffle=False, verbose=0, **{"epochs": 2} | kwargs)
            out[key] = history(h) | {"epochs": h.epoch, "weights": [values(w) for w in model.get_weights()]}
        except Exception as error:    # noqa: BLE001 - what is recorded is the refusal
            out[key] = {"error": type(error).__name__}

    run("plain")
    run("rank1_x", X[:, 0], Y[:, 0])
    run("rank1_x_rank2_y", X[:, 0], Y)
    for key, layers in (("sequential_rank1_x", [keras.layers.Dense(1, input_shape=[1], kernel_initializer="ones")]),
                        ("sequential_rank1_x_input", [keras.Input(shape=(1,)),
                                                      keras.layers.Dense(1, kernel_initializer="ones")]),
                        ("sequential_unbuilt_rank1_x", [keras.layers.Dense(1, kernel_initializer="ones")])):
        model = keras.Sequential(layers)
        model.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse")
        try:
            h = model.fit(X[:, 0], Y[:, 0], batch_size=2, epochs=2, shuffle=False, verbose=0)
            out[key] = history(h) | {"weights": [values(w) for w in model.get_weights()],
                                     "predict": values(model.predict(X[:2, 0], verbose=0))}
        except Exception as error:    # noqa: BLE001 - what is recorded is the refusal
            out[key] = {"error": type(error).__name__}
    run("images_without_channels", np.arange(24, dtype="float32").reshape(6, 2, 2) / 24, Y)
    run("validation_split", validation_split=0.34)
    run("validation_data", validation_data=(X[:3], Y[:3]))
    run("validation_data_weighted", validation_data=(X[:3], Y[:3], np.array([1.0, 0.0, 2.0], "float32")))
    run("sample_weight", sample_weight=np.array([1.0, 0.5, 0.0, 2.0, 1.0, 3.0], "float32"))
    run("class_weight", y=np.array([0, 1, 1, 0, 1, 1]), class_weight={0: 2.0, 1: 0.5})
    run("initial_epoch", epochs=3, initial_epoch=1)
    run("steps_per_epoch", steps_per_epoch=2)
    run("validation_freq", epochs=4, validation_data=(X[:3], Y[:3]), validation_freq=2)
    return out


def formatting(keras: Any, tf: Any) -> dict[str, Any]:
    t, v = tf.constant(1.0), tf.constant([1.5, 2.0])
    out = {"fstring_scalar": f"{t}", "format_2f": format(t, ".2f"), "fstring_int": f"{tf.constant(3)}",
           "format_int_width": format(tf.constant(3), "4d"), "fstring_vector": f"{v}",
           "str_vector": str(v).split("(", 1)[1]}
    try:
        format(v, ".2f")
        out["format_vector_2f"] = None
    except Exception as error:    # noqa: BLE001 - the type and text are recorded
        out["format_vector_2f"] = [type(error).__name__, str(error)]
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x * x
    try:
        with tape.stop_recording():
            pass
        out["stop_recording_outside"] = None
    except Exception as error:    # noqa: BLE001
        out["stop_recording_outside"] = [type(error).__name__, str(error)]
    return out


def functional_io(keras: Any, tf: Any) -> dict[str, Any]:
    def member(k: int) -> Any:
        inputs = keras.Input(shape=(3,))
        dense = keras.layers.Dense(1, kernel_initializer=keras.initializers.Constant(k), name=f"dense_{k}")
        return keras.Model(inputs, dense(inputs), name=f"member_{k}")

    def errors(get: Any) -> Any:
        try:
            return list(get().shape)
        except AttributeError as error:
            return ["AttributeError", str(error).replace(" ", "")[:40]]

    a, b = member(1), member(2)
    inputs = keras.Input(shape=(3,))
    ensemble = keras.Model(inputs, keras.layers.Add(name="join")([a(inputs), b(inputs)]))
    head = keras.Sequential([keras.layers.Dense(2, kernel_initializer="ones", name="head_dense")], name="head")
    chained = keras.Model(a.input, head(a.output))
    stack = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(2, kernel_initializer="ones", name="h"),
                              keras.layers.Dense(1, kernel_initializer="ones", name="o")], name="stack")
    features = keras.Model(stack.inputs, [layer.output for layer in stack.layers])
    ones = np.ones((2, 3), "float32")
    return {"ensemble": [type(layer).__name__ for layer in ensemble.layers] + [values(ensemble(ones))],
            "chained": [type(layer).__name__ for layer in chained.layers] + [values(chained(ones))],
            "member_io": [list(a.input.shape), list(a.output.shape), len(a.inputs), len(a.outputs)],
            "sequential_io": [list(stack.inputs[0].shape), list(stack.outputs[0].shape),
                              errors(lambda: stack.output), errors(lambda: keras.layers.Dense(1, name="lonely").output)],
            "features": [values(x) for x in features(ones)],
            "features_layers": [layer.name for layer in features.layers][1:]}


def summary(keras: Any, tf: Any) -> dict[str, Any]:
    """The tables as printed where the output is not a terminal (80 columns: what COLUMNS=80 also says)."""
    import contextlib
    import io
    import os
    columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "80"
    try:
        model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(3, name="hidden"),
                                  keras.layers.Dense(1, name="a_rather_long_layer_name_that_wraps")], name="tiny")
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            model.summary()
        inputs = keras.Input(shape=(8, 8, 1), name="image")
        x = keras.layers.Flatten(name="flat")(keras.layers.Conv2D(2, 3, name="conv")(inputs))
        cnn = keras.Model(inputs, keras.layers.Dense(10, name="logits")(x), name="cnn")
        given: list = []
        cnn.summary(print_fn=given.append)
        wide: list = []
        cnn.summary(line_length=100, print_fn=wide.append)
    finally:
        os.environ.pop("COLUMNS")
        if columns is not None:
            os.environ["COLUMNS"] = columns
    return {"sequential_stdout": printed.getvalue(), "functional_print_fn": given, "line_length_100": wide}


def layer_zoo(keras: Any) -> list:
    L = keras.layers
    return [L.Dense(3, activation="relu", use_bias=False, name="dense_c"), L.Conv2D(4, 3, strides=2, padding="same",
            name="conv_c"), L.Dropout(0.25, name="drop_c"), L.Flatten(name="flat_c"), L.MaxPooling2D(2, name="pool_c"),
            L.BatchNormalization(momentum=0.9, name="bn_c"), L.Embedding(10, 4, name="emb_c"),
            L.LSTM(5, return_sequences=True, name="lstm_c"), L.ReLU(name="relu_c"), L.Add(name="add_c"),
            L.LayerNormalization(name="ln_c")]


def configs(keras: Any, tf: Any) -> dict[str, Any]:
    """Keras 3's configs: the keys of each built-in layer's, the values that are plain data, and the round trip
    of a Sequential and a functional model (the rebuilt architecture and its outputs for the same weights)."""
    out: dict[str, Any] = {}
    for layer in layer_zoo(keras):
        config = layer.get_config()
        again = type(layer).from_config(copy.deepcopy(config))
        out[layer.name] = {"keys": sorted(config), "plain": {k: v for k, v in config.items()
                                                             if isinstance(v, int | float | str | bool)},
                           "round_trip": again.get_config() == config}
    stack = keras.Sequential([keras.Input(shape=(4,), name="in_s"), keras.layers.Dense(3, activation="relu", name="h_s"),
                              keras.layers.Dropout(0.2, name="d_s"), keras.layers.Dense(1, name="o_s")], name="stack")
    x = keras.Input(shape=(3,), name="in_f")
    h = keras.layers.Dense(4, activation="tanh", name="h_f")(x)
    branch = keras.layers.Dense(4, name="b_f")(x)
    graph = keras.Model(x, keras.layers.Dense(1, name="o_f")(keras.layers.Add(name="add_f")([h, branch])), name="graph")
    ones = np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4)
    for model, data in ((stack, ones), (graph, ones[:, :3])):
        config = model.get_config()
        again = type(model).from_config(copy.deepcopy(config))          # Keras' from_config takes the dict apart
        again.set_weights(model.get_weights())
        out[model.name] = {"layers": [[entry["class_name"], entry["config"]["name"]] for entry in config["layers"]],
                           "rebuilt": [[type(layer).__name__, layer.name] for layer in again.layers],
                           "same_output": bool(np.allclose(again(data), model(data))), "name": again.name}
        if "input_layers" in config:
            out[model.name] |= {"input_layers": config["input_layers"], "output_layers": config["output_layers"]}
    return out


CASES = {"train_step": train_step, "add_loss": add_loss, "metric_weights": metric_weights, "fit_data": fit_data,
         "formatting": formatting, "functional_io": functional_io,
         "summary": summary, "configs": configs}


def main() -> None:
    import os
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    import tensorflow as tf

    keras.utils.set_random_seed(0)
    record = {name: case(keras, tf) for name, case in CASES.items()}
    OUT.write_text(json.dumps({"tf_version": tf.__version__, "keras_version": keras.__version__, **record}, indent=1)
                   + "\n")
    print(f"wrote {OUT}, TF {tf.__version__}, Keras {keras.__version__}")


if __name__ == "__main__":
    main()
