"""Record TensorFlow 2.21's Keras recurrent layers for tests/test_keras_recurrent_tf.py (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_recurrent.py      # writes tests/data/tf_recurrent.json

Each case is a function of the Keras module and of a tensor module (``tensorflow`` / ``minitape``) returning
plain data; the test runs the same functions with minitape and compares.  A layer is built by a first call,
given fixed weights from NumPy (``set_weights``), then run under a tape; the record holds its outputs, the
gradients of a fixed weighted sum of them with respect to the input and every trainable weight, and the
weights' names, paths and shapes in ``get_weights`` order:

* ``simple_rnn``, ``gru``, ``lstm``: the layer with its main options (``return_sequences``, ``return_state``,
  ``go_backwards``, ``initial_state``, GRU's ``reset_after=False``...), and the default initial biases;
* ``cells``: ``RNN`` around each built-in cell and around a user's cell;
* ``masks``: ``Embedding(mask_zero=True)`` before each layer (padding at the end and in the middle);
* ``bidirectional``: each ``merge_mode``, ``return_state``, a mask; ``time_distributed``: a Dense per step;
* ``functional``: masks through functional models (known and unknown sequence length) and a Sequential with
  an ``Input``;
* ``built_by_hand``: the weights' paths of layers and a model built with ``build(shape)`` rather than a call;
* ``summary``: the parameter counts of ``model.summary()``;
* ``fit``: ``Sequential([Embedding, LSTM, Dense])`` trained 2 epochs with SGD from fixed weights (losses, final
  weights); a GRU's sequence of predictions, whose masked loss and metric average over the
  real steps only.  Not Adam: on TF, Keras 3's Adam squares an Embedding's IndexedSlices gradient slice by slice, before
  duplicate ids are summed, so its second moment differs from the dense gradient's that minitape (and Keras on
  other backends) uses.
"""
from __future__ import annotations

import json
import math
import pathlib
import re
from typing import Any

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "tf_recurrent.json"
X = np.sin(np.arange(2 * 4 * 3, dtype="float32") * 0.7).reshape(2, 4, 3)
IDS = np.array([[3, 1, 4, 0, 0], [2, 0, 5, 1, 0]], dtype="int32")        # 0 is padding


def values(x: Any) -> Any:
    return np.asarray(x).tolist()


def fixed(layer: Any, seed: int = 0) -> None:
    """Give every weight of ``layer`` values drawn from NumPy (the same on both sides)."""
    rng = np.random.RandomState(seed)
    layer.set_weights([rng.uniform(-0.6, 0.6, w.shape).astype("float32") for w in layer.get_weights()])


def weighting(shape: tuple[int, ...]) -> np.ndarray:
    return np.cos(np.arange(math.prod(shape), dtype="float32")).reshape(shape)


def describe(layer: Any) -> dict[str, Any]:
    return {"names": [v.name for v in layer.weights], "paths": [v.path for v in layer.weights],
            "shapes": [list(w.shape) for w in layer.get_weights()]}


def run(tf: Any, layers: list[Any], x: Any, **kwargs: Any) -> dict[str, Any]:
    """``layers`` applied in turn to ``x`` (the last with ``kwargs``): outputs, gradients and weights."""
    def forward() -> list[Any]:
        h = x
        for layer in layers[:-1]:
            h = layer(h)
        out = layers[-1](h, **kwargs)
        return list(out) if isinstance(out, list | tuple) else [out]

    forward()                                            # builds the layers
    for k, layer in enumerate(layers):
        fixed(layer, k)
    states = list(kwargs.get("initial_state") or [])
    with tf.GradientTape() as tape:
        floats = [x] if x.dtype == tf.float32 else []
        for s in floats + states:
            tape.watch(s)
        outputs = forward()
        loss = sum(tf.reduce_sum(y * tf.constant(weighting(tuple(y.shape)))) for y in outputs)
    weights = [v for layer in layers for v in layer.trainable_weights]
    grads = tape.gradient(loss, floats + states + weights)
    return {"outputs": [values(y) for y in outputs], "grads": [values(tf.convert_to_tensor(g)) for g in grads],
            **describe(layers[-1])}


def options(keras: Any, tf: Any, cls: Any, extra: dict[str, dict[str, Any]]) -> dict[str, Any]:
    x = tf.constant(X)
    cases = {"default": {}, "sequences": {"return_sequences": True},
             "state": {"return_state": True}, "sequences_state": {"return_sequences": True, "return_state": True},
             "backwards": {"go_backwards": True, "return_sequences": True}, **extra}
    out = {name: run(tf, [cls(3, name="rnn", **arguments)], x) for name, arguments in cases.items()}
    states = [tf.constant(np.full((2, 3), 0.3, "float32")) for _ in range(2 if cls is keras.layers.LSTM else 1)]
    out["initial_state"] = run(tf, [cls(3, name="rnn", return_sequences=True)], x, initial_state=states)
    fresh = cls(3, name="fresh")
    fresh(x)
    out["initial_bias"] = values(fresh.get_weights()[2])
    return out


def simple_rnn(keras: Any, tf: Any) -> dict[str, Any]:
    return options(keras, tf, keras.layers.SimpleRNN, {"relu": {"activation": "relu"},
                                                        "no_bias": {"use_bias": False, "return_sequences": True}})


def gru(keras: Any, tf: Any) -> dict[str, Any]:
    return options(keras, tf, keras.layers.GRU, {"reset_before": {"reset_after": False, "return_sequences": True}})


def lstm(keras: Any, tf: Any) -> dict[str, Any]:
    out = options(keras, tf, keras.layers.LSTM, {"no_forget_bias": {"unit_forget_bias": False}})
    plain = keras.layers.LSTM(2, unit_forget_bias=False)
    plain(tf.constant(X))
    out["no_forget_bias_initial"] = values(plain.get_weights()[2])
    return out


def cells(keras: Any, tf: Any) -> dict[str, Any]:
    class MinimalCell(keras.layers.Layer):
        def __init__(self, units: int, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.units, self.state_size = units, units

        def build(self, input_shape: Any) -> None:
            self.kernel = self.add_weight(shape=(input_shape[-1], self.units), name="kernel")
            self.recurrent_kernel = self.add_weight(shape=(self.units, self.units), name="recurrent_kernel")

        def call(self, inputs: Any, states: Any) -> Any:
            output = tf.matmul(inputs, self.kernel) + tf.tanh(tf.matmul(states[0], self.recurrent_kernel))
            return output, [output]

    x, layers = tf.constant(X), keras.layers
    return {"simple": run(tf, [layers.RNN(layers.SimpleRNNCell(3, name="cell"), name="rnn")], x),
            "gru": run(tf, [layers.RNN(layers.GRUCell(3, name="cell"), return_sequences=True, name="rnn")], x),
            "lstm": run(tf, [layers.RNN(layers.LSTMCell(3, name="cell"), return_state=True, name="rnn")], x),
            "custom": run(tf, [layers.RNN(MinimalCell(2, name="cell"), go_backwards=True, return_sequences=True,
                                          name="rnn")], x)}


def masks(keras: Any, tf: Any) -> dict[str, Any]:
    ids, layers, out = tf.constant(IDS), keras.layers, {}
    for cls in (layers.SimpleRNN, layers.GRU, layers.LSTM):
        for name, arguments in {"last": {}, "sequences": {"return_sequences": True},
                                "backwards": {"go_backwards": True, "return_sequences": True},
                                "state": {"return_state": True}}.items():
            embed = layers.Embedding(6, 3, mask_zero=True, name="embed")
            out[f"{cls.__name__}_{name}"] = run(tf, [embed, cls(2, name="rnn", **arguments)], ids)
    return out


def bidirectional(keras: Any, tf: Any) -> dict[str, Any]:
    x, layers = tf.constant(X), keras.layers
    out = {f"lstm_{mode}": run(tf, [layers.Bidirectional(layers.LSTM(2, return_sequences=True, name="lstm"),
                                                         merge_mode=mode, name="bi")], x)
           for mode in ("concat", "sum", "mul", "ave", None)}
    out["gru_state"] = run(tf, [layers.Bidirectional(layers.GRU(2, return_state=True, name="gru"), name="bi")], x)
    out["simple_last_ave"] = run(tf, [layers.Bidirectional(layers.SimpleRNN(2, name="s"), merge_mode="ave",
                                                           name="bi")], x)
    states = [tf.constant(np.full((2, 2), 0.1 * (k + 1), "float32")) for k in range(4)]
    out["lstm_initial_state"] = run(tf, [layers.Bidirectional(layers.LSTM(2, return_sequences=True, name="lstm"),
                                                              name="bi")], x, initial_state=states)
    embed = layers.Embedding(6, 3, mask_zero=True, name="embed")
    out["masked"] = run(tf, [embed, layers.Bidirectional(layers.GRU(2, return_sequences=True, name="gru"),
                                                         name="bi")], tf.constant(IDS))
    return out


def time_distributed(keras: Any, tf: Any) -> dict[str, Any]:
    layers = keras.layers
    return {"dense": run(tf, [layers.TimeDistributed(layers.Dense(2, activation="tanh", name="dense"),
                                                     name="td")], tf.constant(X)),
            "after_lstm": run(tf, [layers.LSTM(3, return_sequences=True, name="lstm"),
                                   layers.TimeDistributed(layers.Dense(1, name="dense"), name="td")],
                              tf.constant(X))}


def functional(keras: Any, tf: Any) -> dict[str, Any]:
    layers, out = keras.layers, {}
    for name, length in (("known_length", 5), ("unknown_length", None)):
        ids = keras.Input(shape=(length,), dtype="int32")
        h = layers.Embedding(6, 3, mask_zero=True, name="embed")(ids)
        h = layers.Bidirectional(layers.GRU(2, return_sequences=True, name="gru"), name="bi")(h)
        model = keras.Model(ids, layers.LSTM(2, name="lstm")(h))
        fixed(model)
        out[name] = {"outputs": values(model(tf.constant(IDS))), "paths": [v.path for v in model.weights]}
    model = keras.Sequential([keras.Input(shape=(5,), dtype="int32"), layers.Embedding(6, 3, mask_zero=True),
                              layers.SimpleRNN(2, return_sequences=True), layers.TimeDistributed(layers.Dense(1))])
    fixed(model)
    out["sequential_with_input"] = values(model(tf.constant(IDS)))
    return out


def built_by_hand(keras: Any, tf: Any) -> dict[str, Any]:
    layers, out = keras.layers, {}
    made = {"lstm": layers.LSTM(2, name="l"), "bidirectional": layers.Bidirectional(layers.GRU(2, name="g"), name="bi"),
            "time_distributed": layers.TimeDistributed(layers.Dense(2, name="d"), name="td"),
            "rnn": layers.RNN(layers.LSTMCell(2, name="c"), name="r")}
    for name, layer in made.items():
        layer.build((None, 4, 3))
        out[name] = describe(layer)
    model = keras.Sequential([layers.Embedding(5, 2, name="e"), layers.LSTM(2, name="l"), layers.Dense(1, name="d")],
                             name="seq")
    model.build((None, 4))
    out["sequential"] = describe(model)
    return out


def summary(keras: Any, tf: Any) -> dict[str, Any]:
    layers, out = keras.layers, {}
    models = {"embed_lstm_dense": [layers.Embedding(6, 4, mask_zero=True), layers.LSTM(5), layers.Dense(1)],
              "gru_simple": [layers.GRU(4, return_sequences=True), layers.SimpleRNN(3)],
              "bidirectional": [layers.Bidirectional(layers.LSTM(3)), layers.Dense(2)],
              "time_distributed": [layers.TimeDistributed(layers.Dense(3))]}
    for name, stack in models.items():
        model = keras.Sequential(stack, name=name)
        model(tf.constant(IDS) if name.startswith("embed") else tf.constant(X))
        lines: list[str] = []
        model.summary(print_fn=lambda text, **_: lines.append(text))
        out[name] = {"counts": [layer.count_params() for layer in model.layers],
                     "totals": re.findall(r"params: ([\d,]+)", "\n".join(lines))}
    return out


def fit(keras: Any, tf: Any) -> dict[str, Any]:
    layers = keras.layers
    model = keras.Sequential([layers.Embedding(6, 4, mask_zero=True), layers.LSTM(5), layers.Dense(1)])
    ids = np.array([[3, 1, 4, 0, 0], [2, 5, 0, 0, 0], [1, 1, 2, 3, 4], [5, 0, 0, 0, 0], [4, 4, 1, 0, 0],
                    [2, 3, 0, 0, 0]], dtype="int32")
    y = np.array([[1.0], [0.0], [2.0], [-1.0], [0.5], [1.5]], dtype="float32")
    model(tf.constant(ids))
    fixed(model)
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(ids, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    out = {"losses": [float(v) for v in history.history["loss"]], "weights": [values(w) for w in model.get_weights()]}
    # A prediction per step: the mask reaches the Dense's output, and the loss averages over the real steps only.
    model = keras.Sequential([layers.Embedding(6, 4, mask_zero=True), layers.GRU(3, return_sequences=True),
                              layers.Dropout(0.0), layers.Dense(1)])
    targets = np.cos(np.arange(30, dtype="float32")).reshape(6, 5, 1)
    model(tf.constant(ids))
    fixed(model)
    out["sequence_loss"] = float(keras.losses.MeanSquaredError()(targets, model(tf.constant(ids))))
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=["mse"])
    history = model.fit(ids, targets, epochs=2, batch_size=4, shuffle=False, verbose=0)
    out["sequence_losses"] = [float(v) for v in history.history["loss"]]
    out["sequence_mse"] = [float(v) for v in history.history["mse"]]
    return out


CASES = {"simple_rnn": simple_rnn, "gru": gru, "lstm": lstm, "cells": cells, "masks": masks,
         "bidirectional": bidirectional, "time_distributed": time_distributed, "functional": functional, "built_by_hand": built_by_hand,
         "summary": summary, "fit": fit}

if __name__ == "__main__":
    import keras
    import tensorflow

    keras.utils.set_random_seed(0)
    OUT.write_text(json.dumps({name: case(keras, tensorflow) for name, case in CASES.items()}) + "\n")
