"""Record TensorFlow 2.21's Keras 3 training of models with several inputs and outputs, for
tests/test_keras_multi_io.py (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_keras_multi_io.py    # writes tests/data/tf_keras_multi_io.json

Each scenario builds a model of two inputs and two outputs (functional, with named output layers, or
subclassed, whose outputs have no names) with fixed starting weights, compiles it with lists or dicts of
losses, ``loss_weights`` and per-output metrics, fits it on fixed data (8 examples in batches of 3, so the
last batch is short) and returns plain data: the history, what ``evaluate`` returns as a list and as a
dict, ``model.metrics_names`` and ``predict``'s structure.  ``refusals`` records the error type and text
of bad input.  The test runs the same functions with minitape.
"""
from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "tf_keras_multi_io.json"
RNG = np.random.default_rng(7)
XA = RNG.normal(size=(8, 3)).astype("float32")
XB = RNG.normal(size=(8, 2)).astype("float32")
Y1 = RNG.normal(size=(8, 1)).astype("float32")
Y2 = np.eye(2, dtype="float32")[RNG.integers(0, 2, 8)]


def seeded(model: Any) -> Any:
    rng = np.random.default_rng(0)
    model.set_weights([rng.uniform(-0.5, 0.5, w.shape).astype("float32") for w in model.get_weights()])
    return model


def functional(keras: Any) -> Any:
    a, b = keras.Input((3,), name="a"), keras.Input((2,), name="b")
    hidden = keras.layers.Dense(4, activation="tanh", name="hidden")(keras.layers.Concatenate()([a, b]))
    out1 = keras.layers.Dense(1, name="out1")(hidden)
    out2 = keras.layers.Dense(2, activation="softmax", name="out2")(hidden)
    return seeded(keras.Model([a, b], [out1, out2]))


def dict_outputs(keras: Any) -> Any:
    """A functional model whose outputs are a dict, keyed otherwise than its output layers are named (its heads
    made in the keys' sorted order: Keras 3 orders the layers of a dict's outputs by key, minitape as made)."""
    a, b = keras.Input((3,), name="a"), keras.Input((2,), name="b")
    hidden = keras.layers.Dense(4, activation="tanh", name="hidden")(keras.layers.Concatenate()([a, b]))
    kind = keras.layers.Dense(2, activation="softmax", name="out2")(hidden)
    return seeded(keras.Model({"a": a, "b": b}, {"value": keras.layers.Dense(1, name="out1")(hidden), "kind": kind}))


def subclassed(keras: Any) -> Any:
    class TwoHeads(keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.hidden = keras.layers.Dense(4, activation="tanh")
            self.head1 = keras.layers.Dense(1)
            self.head2 = keras.layers.Dense(2, activation="softmax")

        def call(self, inputs: Any) -> Any:
            hidden = self.hidden(keras.layers.concatenate(list(inputs)))
            return self.head1(hidden), self.head2(hidden)

    model = TwoHeads()
    model((XA[:1], XB[:1]))
    return seeded(model)


def floats(values: Any) -> Any:
    if isinstance(values, dict):
        return {key: floats(value) for key, value in values.items()}
    if isinstance(values, list | tuple):
        return [floats(value) for value in values]
    return float(values)


def train(keras: Any, model: Any, x: Any = None, y: Any = None, sample_weight: Any = None,
          **compile_args: Any) -> dict[str, Any]:
    """Compile with SGD(0.1), fit 2 epochs with validation, then evaluate and predict."""
    x = [XA, XB] if x is None else x
    y = [Y1, Y2] if y is None else y
    model.compile(optimizer=keras.optimizers.SGD(0.1), **compile_args)
    history = model.fit(x, y, batch_size=3, epochs=2, shuffle=False, verbose=0, validation_data=(x, y),
                        sample_weight=sample_weight)
    predicted = model.predict(x, batch_size=3, verbose=0)
    return {"history": floats(history.history), "metrics_names": model.metrics_names,
            "evaluate": floats(model.evaluate(x, y, batch_size=3, verbose=0)),
            "evaluate_dict": floats(model.evaluate(x, y, batch_size=3, verbose=0, return_dict=True)),
            "predict_type": type(predicted).__name__,
            "predict": [np.asarray(p).tolist() for p in (predicted if isinstance(predicted, list | tuple) else
                                                           [predicted[k] for k in sorted(predicted)]
                                                           if isinstance(predicted, dict) else [predicted])]}


def scenarios(keras: Any) -> dict[str, dict[str, Any]]:
    return {
        "lists": train(keras, functional(keras), loss=["mse", "categorical_crossentropy"], loss_weights=[0.9, 0.1],
                       metrics=[["mae"], ["accuracy"]]),
        "tuples": train(keras, functional(keras), x=(XA, XB), y=(Y1, Y2), loss=("mse", "categorical_crossentropy"),
                        loss_weights=(0.3, 0.7), metrics=["RootMeanSquaredError", "accuracy"]),
        "dicts": train(keras, functional(keras), x={"b": XB, "a": XA}, y={"out2": Y2, "out1": Y1},
                       loss={"out2": "categorical_crossentropy", "out1": "mse"},
                       loss_weights={"out1": 2.0, "out2": 0.5}, metrics={"out2": ["accuracy", "mse"]}),
        "one_loss_for_all": train(keras, functional(keras), y=[Y1, Y2[:, :1]], loss="mse", loss_weights=0.5,
                                  metrics={"out1": "mae"}),
        "a_loss_left_out": train(keras, functional(keras), loss=["mse", None], metrics=[None, ["accuracy"]]),
        "list_weights_dict_loss": train(keras, functional(keras), loss={"out1": "mse", "out2": "mse"},
                                        loss_weights=[1.0, 3.0]),
        "sample_weight": train(keras, functional(keras), loss=["mse", "categorical_crossentropy"],
                               loss_weights=[0.9, 0.1], sample_weight=np.linspace(0.0, 2.0, 8, dtype="float32")),
        "dict_outputs": train(keras, dict_outputs(keras), x={"a": XA, "b": XB}, y={"value": Y1, "kind": Y2},
                              loss={"value": "mse", "kind": "categorical_crossentropy"},
                              loss_weights={"value": 1.0, "kind": 0.2}, metrics={"kind": ["accuracy"]}),
        "subclassed": train(keras, subclassed(keras), x=(XA, XB), y=(Y1, Y2), loss=["mse", "categorical_crossentropy"],
                            loss_weights=[0.9, 0.1], metrics=[["mae"], ["accuracy"]]),
        "subclassed_same_names": train(keras, subclassed(keras), x=(XA, XB), y=(Y1, Y2[:, :1]), loss="mse",
                                       metrics=["RootMeanSquaredError", "RootMeanSquaredError"]),
    }


def refusal(action: Any) -> list[str]:
    try:
        action()
    except Exception as error:          # the type and text are what is recorded
        return [type(error).__name__, str(error).strip("'\"") if isinstance(error, KeyError) else str(error)]
    return ["none", ""]


def refusals(keras: Any) -> dict[str, list[str]]:
    def fit(x: Any = None, y: Any = None, **compile_args: Any) -> Any:
        model = functional(keras)
        model.compile(optimizer="sgd", **compile_args)
        return lambda: model.fit([XA, XB] if x is None else x, [Y1, Y2] if y is None else y, epochs=1, verbose=0)

    return {"loss_list_too_long": refusal(fit(loss=["mse", "mse", "mse"])),
            "loss_dict_unknown_key": refusal(fit(loss={"nope": "mse", "out1": "mse"})),
            "loss_dict_missing_output": refusal(fit(loss={"out1": "mse"})),
            "loss_weights_count": refusal(fit(loss=["mse", "mse"], loss_weights=[1.0])),
            "loss_weights_of_one_loss": refusal(fit(loss="mse", loss_weights=[1.0, 2.0])),
            "loss_weights_type": refusal(lambda: functional(keras).compile(loss="mse", loss_weights="x")),
            "metrics_list_count": refusal(fit(loss="mse", metrics=["mae"])),
            "metrics_dict_unknown_key": refusal(fit(loss="mse", metrics={"zz": "mae"})),
            "targets_count": refusal(fit(loss="mse", y=(Y1, Y2, Y1))),
            "one_target_for_two": refusal(fit(loss="mse", y=Y1)),
            "input_dict_missing": refusal(fit(loss="mse", x={"a": XA, "zz": XB}))}


def singleton(keras: Any) -> dict[str, Any]:
    """A functional model of outputs=[one]: what calling it returns, and training it on a lone target."""
    a, b = keras.Input((3,)), keras.Input((2,))
    model = seeded(keras.Model([a, b], [keras.layers.Dense(1, name="only")(keras.layers.concatenate([a, b]))]))
    called = model((XA, XB))
    return {"called_is_list": isinstance(called, list), "output_names": model.output_names,
            **train(keras, model, x=(XA, XB), y=Y1, loss="mse", metrics=["mae"])}


def main() -> None:
    import keras
    OUT.write_text(json.dumps({"scenarios": scenarios(keras), "refusals": refusals(keras),
                               "singleton": singleton(keras)}, indent=1) + "\n")


if __name__ == "__main__":
    main()
