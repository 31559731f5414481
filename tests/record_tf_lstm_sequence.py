"""Record TensorFlow 2.21's Keras LSTM where minitape runs it as one ``lstm_sequence`` op, for
tests/test_lstm_sequence_tf.py (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_lstm_sequence.py      # writes tests/data/tf_lstm_sequence.json

As tests/record_tf_recurrent.py (whose ``run``, ``fixed`` and ``X`` this reuses): each case is a function of the
Keras module and of a tensor module returning plain data, run by the test with minitape.  The cases are what
that recording leaves out: float64 and mixed dtypes, ``use_bias=False``, one step and a batch of one,
dropout outside training, stacked layers, a functional model on an unknown length, ``fit`` without a mask,
a gradient of a gradient, ``jacobian``, and the exceptions bad inputs and initial states raise.
"""
from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np

from record_tf_recurrent import X, fixed, run, values, weighting

OUT = pathlib.Path(__file__).parent / "data" / "tf_lstm_sequence.json"


def refusal(call: Any) -> dict[str, Any]:
    """What ``call()`` raises (its type's name and message), or the shapes of what it returns."""
    try:
        out = call()
    except Exception as error:       # noqa: BLE001 - the recording is of which exception
        return {"raises": type(error).__name__, "message": str(error)}
    return {"shapes": [list(o.shape) for o in (out if isinstance(out, list | tuple) else [out])]}


def options(keras: Any, tf: Any) -> dict[str, Any]:
    layers, x = keras.layers, tf.constant(X)
    one = tf.constant(X[:1, :1])
    return {"no_bias": run(tf, [layers.LSTM(3, use_bias=False, return_sequences=True, name="rnn")], x),
            "one_step_batch_one": run(tf, [layers.LSTM(3, return_sequences=True, return_state=True, name="rnn")], one),
            "one_step_backwards": run(tf, [layers.LSTM(2, go_backwards=True, return_state=True, name="rnn")], one),
            "dropout_not_training": run(tf, [layers.LSTM(3, dropout=0.5, recurrent_dropout=0.5, name="rnn")], x,
                                        training=False),
            "stacked": run(tf, [layers.LSTM(3, return_sequences=True, name="a"), layers.LSTM(2, name="b")], x),
            "bidirectional_states": run(tf, [layers.Bidirectional(layers.LSTM(2, return_state=True, name="lstm"),
                                                                        name="bi")], x),
            "backwards_state": run(tf, [layers.LSTM(3, go_backwards=True, return_state=True, name="rnn")], x,
                                   initial_state=[tf.constant(np.full((2, 3), 0.3, "float32")),
                                                  tf.constant(np.full((2, 3), -0.2, "float32"))])}


def float64(keras: Any, tf: Any) -> dict[str, Any]:
    """A float64 layer (outputs, and the gradient of every weight and of the input and initial states);
    float64 inputs and states given to a float32 layer (the output's dtype)."""
    layer = keras.layers.LSTM(3, dtype="float64", return_sequences=True, return_state=True)
    x, states = tf.constant(X.astype("float64")), [tf.constant(np.full((2, 3), v)) for v in (0.3, -0.2)]
    layer(x)
    fixed(layer)
    with tf.GradientTape() as tape:
        tape.watch([x, *states])
        outputs = layer(x, initial_state=states)
        loss = sum(tf.reduce_sum(y * tf.constant(weighting(tuple(y.shape)), tf.float64)) for y in outputs)
    grads = tape.gradient(loss, [x, *states, *layer.trainable_weights])
    mixed = keras.layers.LSTM(3)
    return {"outputs": [values(y) for y in outputs], "grads": [values(g) for g in grads],
            "dtype": outputs[0].dtype.name, "mixed_input": mixed(x).dtype.name,
            "mixed_states": mixed(tf.constant(X), initial_state=states).dtype.name}


def functional(keras: Any, tf: Any) -> dict[str, Any]:
    """``Input(shape=(None, 3))``, an LSTM and a Dense, called on four steps."""
    inputs = keras.Input(shape=(None, 3))
    model = keras.Model(inputs, keras.layers.Dense(1)(keras.layers.LSTM(2, return_sequences=True)(inputs)))
    fixed(model)
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = model(x)
        loss = tf.reduce_sum(y * tf.constant(weighting(tuple(y.shape))))
    grads = tape.gradient(loss, [x, *model.trainable_weights])
    return {"outputs": values(y), "grads": [values(g) for g in grads]}


def fit(keras: Any, tf: Any) -> dict[str, Any]:
    """``Sequential([Input, LSTM, Dense])``, no mask, 2 epochs of SGD from fixed weights."""
    layers = keras.layers
    model = keras.Sequential([keras.Input((4, 3)), layers.LSTM(3), layers.Dense(1)])
    fixed(model)
    x = np.sin(np.arange(6 * 4 * 3, dtype="float32") * 0.37).reshape(6, 4, 3)
    y = np.cos(np.arange(6, dtype="float32")).reshape(6, 1)
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    return {"losses": [float(v) for v in history.history["loss"]], "weights": [values(w) for w in model.get_weights()]}


def derivatives(keras: Any, tf: Any) -> dict[str, Any]:
    """Float64: the gradient with respect to the input of the squared norm of the weights' gradient
    (a tape inside a tape), and the Jacobian of the last output with respect to the input."""
    layer = keras.layers.LSTM(2, dtype="float64")
    x = tf.constant(X.astype("float64"))
    layer(x)
    fixed(layer)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            loss = tf.reduce_sum(layer(x) ** 2)
        grads = inner.gradient(loss, [x, *layer.trainable_weights])
        norm = tf.add_n([tf.reduce_sum(g * g) for g in grads])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
    return {"norm": float(norm), "second": values(outer.gradient(norm, x)), "jacobian": values(tape.jacobian(y, x))}


def refusals(keras: Any, tf: Any) -> dict[str, Any]:
    """Inputs and initial states of the wrong rank or shape (TF's IndexError for one state short is not recorded:
    minitape's ValueError says how many it wants, see tests/test_keras_recurrent_tf.py)."""
    layers, x = keras.layers, tf.constant(X)
    built = layers.LSTM(3)
    built(x)
    state = tf.constant(np.zeros((2, 3), "float32"))
    return {"rank_two": refusal(lambda: layers.LSTM(3)(tf.constant(X[0]))),
            "rank_four": refusal(lambda: layers.LSTM(3)(tf.constant(X[..., None]))),
            "features_changed": refusal(lambda: built(tf.constant(np.ones((2, 4, 5), "float32")))),
            "state_batch_one": refusal(lambda: layers.LSTM(3)(x, initial_state=[state[:1], state[:1]])),
            "state_units": refusal(lambda: layers.LSTM(3)(x, initial_state=[tf.zeros((2, 4)), tf.zeros((2, 4))])),
            "state_rank_one": refusal(lambda: layers.LSTM(3)(x, initial_state=[state[0], state[0]])),
            "no_steps": refusal(lambda: layers.LSTM(3)(tf.zeros((2, 0, 3))))}


CASES = {"options": options, "float64": float64, "functional": functional, "fit": fit, "derivatives": derivatives,
         "refusals": refusals}

if __name__ == "__main__":
    import keras
    import tensorflow

    keras.utils.set_random_seed(0)
    OUT.write_text(json.dumps({name: case(keras, tensorflow) for name, case in CASES.items()}) + "\n")
