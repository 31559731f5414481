"""Record TensorFlow 2.21's Keras callbacks for tests/test_keras_callbacks_tf.py (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_keras_callbacks.py   # writes tests/data/tf_keras_callbacks.json
                                                                # and tests/data/tf_keras_dense.weights.h5

Every scenario fits a ``Dense(1)`` model with fixed starting weights on fixed data (no shuffling) with some
callbacks, and returns plain data: the history, the epochs run, the final weights, what was printed, the
files written.  The validation data follow another line than the training data, so ``val_loss`` first
falls and then rises: early stopping and learning-rate reduction have something to see.  The test runs the
same functions with minitape.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import pathlib
import tempfile
from typing import Any

import numpy as np

DATA = pathlib.Path(__file__).parent / "data"
OUT = DATA / "tf_keras_callbacks.json"
X = np.array([[1.0, 0.5], [0.5, -1.0], [-1.0, 1.0], [2.0, 0.0], [0.0, 1.5], [1.5, 1.0], [-0.5, -0.5], [1.0, -2.0]],
             dtype="float32")
Y = X @ np.array([[2.0], [-1.0]], dtype="float32") + 0.5
XV = X[:6] + 0.25
YV = XV @ np.array([[1.0], [-1.0]], dtype="float32")
WEIGHTS = [np.zeros((2, 1), dtype="float32"), np.zeros(1, dtype="float32")]


def model(keras: Any, learning_rate: float = 0.05, optimizer: str = "SGD") -> Any:
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, name="dense")])
    m.set_weights(WEIGHTS)
    m.compile(optimizer=getattr(keras.optimizers, optimizer)(learning_rate), loss="mse")
    return m


def fit(m: Any, callbacks: list[Any], epochs: int = 12, validation: bool = True) -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        history = m.fit(X, Y, batch_size=4, epochs=epochs, shuffle=False, verbose=0, callbacks=callbacks,
                        validation_data=(XV, YV) if validation else None)
    return {"history": {k: [float(v) for v in vs] for k, vs in history.history.items()}, "epochs": history.epoch,
            "weights": [np.asarray(w).tolist() for w in m.get_weights()], "printed": out.getvalue()}


def early_stopping(keras: Any, tf: Any) -> dict[str, Any]:
    cases = {"restore": dict(monitor="val_loss", patience=2, restore_best_weights=True),
             "no_restore": dict(monitor="val_loss", patience=1, verbose=1),
             "min_delta": dict(monitor="loss", min_delta=0.5, patience=1),
             "baseline": dict(monitor="val_loss", baseline=0.2, patience=3, restore_best_weights=True),
             "start_from_epoch": dict(monitor="val_loss", patience=0, start_from_epoch=4),
             "mode_max": dict(monitor="loss", mode="max", patience=2, verbose=1)}
    out = {}
    for name, kwargs in cases.items():
        stop = keras.callbacks.EarlyStopping(**kwargs)
        out[name] = {**fit(model(keras), [stop]), "stopped_epoch": stop.stopped_epoch,
                     "best": None if stop.best is None else float(stop.best)}
    return out


def reduce_lr(keras: Any, tf: Any) -> dict[str, Any]:
    cases = {"plain": dict(monitor="val_loss", factor=0.5, patience=1),
             "cooldown_min_lr": dict(monitor="val_loss", factor=0.5, patience=1, cooldown=2, min_lr=0.02, verbose=1),
             "loss": dict(monitor="loss", factor=0.2, patience=2, min_delta=0.05)}
    return {name: fit(model(keras, 0.1), [keras.callbacks.ReduceLROnPlateau(**kwargs)]) for name, kwargs in
            cases.items()}


def scheduler(keras: Any, tf: Any) -> dict[str, Any]:
    def two_args(epoch: int, lr: float) -> float:
        return lr * 0.5 if epoch >= 2 else lr

    def one_arg(epoch: int) -> float:
        return 0.1 / (1 + epoch)
    return {"two_args": fit(model(keras), [keras.callbacks.LearningRateScheduler(two_args, verbose=1)], epochs=5),
            "one_arg": fit(model(keras), [keras.callbacks.LearningRateScheduler(one_arg)], epochs=4,
                           validation=False)}


def csv_logger(keras: Any, tf: Any) -> dict[str, Any]:
    folder = tempfile.mkdtemp()
    out = {}
    for name, kwargs, validation in (("validation", {}, True), ("no_validation", {"separator": ";"}, False)):
        path = os.path.join(folder, f"{name}.csv")
        fit(model(keras), [keras.callbacks.CSVLogger(path, **kwargs)], epochs=3, validation=validation)
        out[name] = pathlib.Path(path).read_text()
    path = os.path.join(folder, "append.csv")
    for _ in range(2):
        fit(model(keras), [keras.callbacks.CSVLogger(path, append=True)], epochs=2)
    out["append"] = pathlib.Path(path).read_text()
    return out


def checkpoint(keras: Any, tf: Any) -> dict[str, Any]:
    out = {}
    cases = {"best": dict(filepath="{epoch:02d}-{val_loss:.2f}.weights.h5", save_best_only=True,
                          save_weights_only=True),
             "every_epoch": dict(filepath="sub/w{epoch}.weights.h5", save_weights_only=True),
             "batches": dict(filepath="b{epoch}-{batch}.weights.h5", save_weights_only=True, save_freq=3),
             "max": dict(filepath="best.weights.h5", monitor="loss", mode="max", save_best_only=True,
                         save_weights_only=True, verbose=1)}
    for name, kwargs in cases.items():
        folder = tempfile.mkdtemp()
        kwargs = {**kwargs, "filepath": os.path.join(folder, kwargs["filepath"])}
        result = fit(model(keras), [keras.callbacks.ModelCheckpoint(**kwargs)], epochs=6)
        files = sorted(str(p.relative_to(folder)) for p in pathlib.Path(folder).rglob("*.h5"))
        last = model(keras)
        last.load_weights(os.path.join(folder, files[-1]) if name != "max" else kwargs["filepath"])
        out[name] = {"files": files, "printed": result["printed"].replace(folder, "<dir>"),
                     "loaded": [np.asarray(w).tolist() for w in last.get_weights()]}
    return out


def terminate_and_lambda(keras: Any, tf: Any) -> dict[str, Any]:
    calls: list[list[Any]] = []

    def note(hook: str) -> Any:
        return lambda *args, logs=None: calls.append([hook, *args, sorted(logs or {})])
    hooks = {name: note(name) for name in ("on_epoch_begin", "on_epoch_end", "on_train_begin", "on_train_end",
                                           "on_train_batch_begin", "on_train_batch_end")}
    fit(model(keras), [keras.callbacks.LambdaCallback(**hooks)], epochs=2)
    nan = fit(model(keras, 1e18), [keras.callbacks.TerminateOnNaN()], epochs=3, validation=False)
    return {"calls": calls, "nan": {"epochs": nan["epochs"], "printed": nan["printed"],
                                    "loss_is_finite": [bool(np.isfinite(v)) for v in nan["history"]["loss"]]}}


def moving_average(keras: Any, tf: Any) -> dict[str, Any]:
    """``fit`` with ``use_ema``: the weights after the last epoch are the optimiser's moving averages."""
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, name="dense")])
    m.set_weights(WEIGHTS)
    m.compile(optimizer=keras.optimizers.SGD(0.05, use_ema=True, ema_momentum=0.5), loss="mse")
    return fit(m, [], epochs=3)


def weights_file(keras: Any, tf: Any) -> dict[str, Any]:
    """The layout (group paths, their ``name`` attributes, dataset shapes) of files written for several models."""
    import h5py

    class Blocks(keras.Model):
        def __init__(self) -> None:
            super().__init__(name="blocks_model")
            self.z_last = keras.layers.Dense(1, name="z")
            self.blocks = [keras.layers.Dense(3, name="b0"), keras.layers.Dense(2, name="b1")]
            self.a_first = keras.layers.Dense(3, name="a")

        def call(self, x: Any) -> Any:
            return self.z_last(self.blocks[1](self.blocks[0](self.a_first(x))))

    inputs = keras.Input((2,))
    functional = keras.Model(inputs, keras.layers.Dense(1, name="head")(keras.layers.Dense(3, name="hidden")(inputs)),
                             name="func")
    inner = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="inner_dense")], name="inner")
    sequential = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3, name="d0"), keras.layers.Dropout(0.5),
                                   keras.layers.BatchNormalization(name="bn"), inner, keras.layers.Dense(1, name="d1")],
                                  name="seq")
    subclassed = Blocks()
    subclassed(np.ones((1, 2), dtype="float32"))
    compiled = model(keras, 0.1, "Adam")
    compiled.fit(X, Y, epochs=1, verbose=0, shuffle=False)
    layouts = {}
    for name, m in (("functional", functional), ("sequential", sequential), ("subclassed", subclassed),
                    ("compiled", compiled)):
        path = os.path.join(tempfile.mkdtemp(), "m.weights.h5")
        m.save_weights(path)
        rows: list[list[Any]] = []
        with h5py.File(path, "r") as f:
            f.visititems(lambda key, obj, rows=rows: rows.append(
                [key, dict(obj.attrs).get("name"), list(obj.shape) if hasattr(obj, "shape") else None]))
        layouts[name] = rows
    compiled.save_weights(DATA / "tf_keras_dense.weights.h5") if keras.__name__ == "keras" else None
    return {"layouts": layouts, "compiled_weights": [np.asarray(w).tolist() for w in compiled.get_weights()],
            "compiled_optimizer": [np.asarray(v.numpy()).tolist() for v in compiled.optimizer.variables]}


SCENARIOS = [early_stopping, reduce_lr, scheduler, csv_logger, checkpoint, terminate_and_lambda, moving_average,
             weights_file]


if __name__ == "__main__":
    import keras
    import tensorflow as tf
    record = {scenario.__name__: scenario(keras, tf) for scenario in SCENARIOS}
    OUT.write_text(json.dumps({"tensorflow": tf.__version__, "keras": keras.__version__, **record}) + "\n")
    print(f"wrote {OUT}")
