"""Keras' loop around the model: what ``fit`` shows and returns, and how it refuses what it cannot do.

The figures it must reach (per-epoch losses and metrics equal to Keras') are in test_keras_tf.py.
"""
import io
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest
import record_tf_progbar

import minitape as tf
from minitape.keras import progbar

pytestmark = pytest.mark.usefixtures("backend")     # every test here runs on each backend


def small_model():
    model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="softmax", kernel_initializer="zeros")])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


X, Y = np.eye(3, dtype="float32")[[0, 1, 2, 0, 1]], np.array([0, 1, 2, 0, 1])


def test_history_params_and_validation_split():
    history = small_model().fit(X, Y, batch_size=2, epochs=2, validation_split=0.4, verbose=0)
    assert history.params == {"verbose": 0, "epochs": 2, "steps": 2}      # 3 examples left to train on
    assert list(history.history) == ["accuracy", "loss", "val_accuracy", "val_loss"] and history.epoch == [0, 1]


def test_shuffling_follows_the_seed():
    def run():
        tf.keras.utils.set_random_seed(5)
        model = tf.keras.Sequential([tf.keras.layers.Dense(3, kernel_initializer="he_normal")])
        model.compile(optimizer="sgd", loss="mse")
        return model.fit(X, np.eye(3)[Y], batch_size=2, epochs=3, verbose=0).history["loss"]
    assert run() == run()


# What Keras 3 printed for the same model and data (tests/record_tf_progbar.py), raw: redraws and colours kept.
KERAS = json.loads((Path(__file__).parent / "data" / "tf_keras_progbar.json").read_text())["printed"]
SCENARIOS = {name: (method, {k: (X, Y) if k == "validation_data" else v for k, v in kwargs.items()})
             for name, (method, kwargs) in record_tf_progbar.SCENARIOS.items()}
ANSI = re.compile(r"\x1b\[\d+m")


def seen(printed: str) -> list[str]:
    """The lines a reader is left with, as a terminal, JupyterLab or nbconvert shows them: what a ``\\r``
    redrew over is gone, colours are not text, the times (which vary) are blanked."""
    return [untimed(ANSI.sub("", line).replace("\b", "").rsplit("\r", 1)[-1].rstrip()) for line in printed.split("\n")]


def untimed(text: str) -> str:
    """``text`` with its times blanked: per step, and elapsed or left (plain, or in bold)."""
    return re.sub(r"(?<=[ m])\d+s(?=[ \x1b])", "Ts", re.sub(r"\b\d+(s|ms|us)/step", "T/step", text))


def run(name: str, capsys, stdout=None) -> str:
    method, kwargs = SCENARIOS[name]
    model = small_model()
    if stdout is not None:
        sys.stdout = stdout                             # inside capsys, which puts its own back afterwards
    getattr(model, method)(X, Y, **kwargs)
    return capsys.readouterr().out if stdout is None else stdout.getvalue()


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_fit_and_evaluate_print_what_keras_prints(name, capsys):
    """Into a pipe or a log file: the finished lines Keras' leave, plain (no colours, no redraws)."""
    printed = run(name, capsys)
    assert "\x1b" not in printed and "\r" not in printed
    assert seen(printed) == seen(KERAS[name])


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_sees_the_line_redrawn_in_keras_colours(capsys):
    """Where the text is drawn as it comes (a terminal, a Jupyter kernel's output), the line grows in place."""
    printed = run("fit_verbose_1_validation", capsys, Terminal())
    assert seen(printed) == seen(KERAS["fit_verbose_1_validation"])
    first = printed.split("\n")[1].split("\r")[1]         # the first redraw, after step 1, as Keras paints it
    keras_first = KERAS["fit_verbose_1_validation"].split("\n")[1].split("\r")[1].rstrip("\b")
    assert untimed(first) == untimed(keras_first)
    assert printed.count("\r") >= 4 and "\x1b[32m━━━━━━━━━━━━━━━━━━━━\x1b[0m\x1b[37m\x1b[0m" in printed


def test_a_jupyter_kernels_output_is_live():
    class OutStream(io.StringIO):       # ipykernel's stream class is found by its module
        pass
    OutStream.__module__ = "ipykernel.iostream"
    assert progbar.is_live(OutStream()) and not progbar.is_live(io.StringIO()) and progbar.is_live(Terminal())


def test_evaluate_and_predict_shapes():
    model = small_model()
    loss, accuracy = model.evaluate(X, Y, verbose=0)
    assert np.isclose(loss, np.log(3)) and accuracy == pytest.approx(0.4)       # uniform predictions: argmax is 0
    assert model.evaluate(X, Y, verbose=0, return_dict=True) == {"accuracy": accuracy, "loss": loss}
    assert model.predict(X, batch_size=2, verbose=0).shape == (5, 3)


def test_refusals():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    with pytest.raises(ValueError, match=r"You must call `compile\(\)` before using the model."):
        model.fit(X, Y)
    model.compile(optimizer="adam")
    with pytest.raises(ValueError, match="No loss to compute"):
        model.fit(X, Y, verbose=0)
    with pytest.raises(ValueError, match="Could not interpret optimizer identifier: adamx"):     # Keras 3's text
        model.compile(optimizer="adamx", loss="mse")
    with pytest.raises(ValueError, match="Could not interpret loss identifier: hinges"):
        model.compile(loss="hinges")
    with pytest.raises(ValueError, match="x has 5 examples but y has 4"):
        small_model().fit(X, Y[:4])


def test_a_notebook_run_headless_keeps_the_finished_lines(backend):
    """In a Jupyter kernel the line is one output updated in place: a notebook executed by nbclient (as
    nbconvert --execute and the docs site run them) keeps the finished lines, not each redraw."""
    if backend.name != "numpy":
        pytest.skip("one kernel run is enough")
    nbformat, nbclient = pytest.importorskip("nbformat"), pytest.importorskip("nbclient")
    _, kwargs = SCENARIOS["fit_verbose_1_validation"]
    code = f"""import time, numpy as np, minitape as tf
X, Y = np.eye(3, dtype="float32")[[0, 1, 2, 0, 1]], np.array([0, 1, 2, 0, 1])
model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="softmax", kernel_initializer="zeros")])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
slow = tf.keras.callbacks.LambdaCallback(on_train_batch_end=lambda batch, logs: time.sleep(0.1))   # each step drawn
history = model.fit(X, Y, callbacks=[slow], **{ {k: v for k, v in kwargs.items() if k != "validation_data"} !r},
                    validation_data=(X, Y))"""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(Path(__file__).parent.parent)}}).execute()
    outputs = notebook.cells[0].outputs
    assert [output.output_type for output in outputs] == ["stream", "display_data"] * 2, outputs
    printed = "".join(output.text if output.output_type == "stream" else output.data["text/plain"] + "\n"
                      for output in outputs)
    assert seen(printed) == seen(KERAS["fit_verbose_1_validation"])
    assert "\r" not in printed and "\x1b[32m━━━━━━━━━━━━━━━━━━━━\x1b[0m" in printed      # Keras' colours kept
