"""minitape's Keras callbacks and ``fit``'s calls to them against TensorFlow 2.21's, recorded by
record_tf_keras_callbacks.py: the same scenarios run with minitape must give the same histories, epochs,
weights, printed lines and files (names, CSV text, the ``.weights.h5`` layout)."""
from __future__ import annotations

import json
import pathlib
import re
from typing import Any

import numpy as np
import pytest

import minitape as tf
import record_tf_keras_callbacks as scenarios

RECORD = json.loads((pathlib.Path(__file__).parent / "data" / "tf_keras_callbacks.json").read_text())
keras = tf.keras


def assert_fit_matches(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    assert ours["epochs"] == theirs["epochs"]
    assert sorted(ours["history"]) == sorted(theirs["history"])
    for name, values in theirs["history"].items():
        np.testing.assert_allclose(ours["history"][name], values, rtol=1e-5, err_msg=name)
    for a, b in zip(ours["weights"], theirs["weights"]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert ours["printed"] == theirs["printed"]


@pytest.mark.parametrize("scenario", ["early_stopping", "reduce_lr", "scheduler"])
def test_monitoring_callbacks_match_tf(scenario):
    ours = getattr(scenarios, scenario)(keras, tf)
    for case, theirs in RECORD[scenario].items():
        assert_fit_matches(ours[case], theirs)
        if scenario == "early_stopping":
            assert ours[case]["stopped_epoch"] == theirs["stopped_epoch"], case
            assert ours[case]["best"] == pytest.approx(theirs["best"], rel=1e-5), case


def test_csv_logger_writes_tf_s_file():
    ours = scenarios.csv_logger(keras, tf)
    for case, text in RECORD["csv_logger"].items():
        our_rows = [line.split(";" if case == "no_validation" else ",") for line in ours[case].splitlines()]
        their_rows = [line.split(";" if case == "no_validation" else ",") for line in text.splitlines()]
        assert [row[0] for row in our_rows] == [row[0] for row in their_rows]        # the header and epochs
        assert our_rows[0] == their_rows[0]
        for mine, theirs in zip(our_rows[1:], their_rows[1:]):
            assert [cell == "NA" for cell in mine] == [cell == "NA" for cell in theirs]
            np.testing.assert_allclose([float(c) for c in mine if c != "NA"], [float(c) for c in theirs if c != "NA"],
                                       rtol=1e-5)


def test_model_checkpoint_writes_tf_s_files():
    pytest.importorskip("h5py")
    ours = scenarios.checkpoint(keras, tf)
    for case, theirs in RECORD["checkpoint"].items():
        assert ours[case]["files"] == theirs["files"], case
        assert ours[case]["printed"] == theirs["printed"], case
        for a, b in zip(ours[case]["loaded"], theirs["loaded"]):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_fit_calls_the_hooks_as_tf_and_terminate_on_nan_stops():
    ours = scenarios.terminate_and_lambda(keras, tf)
    theirs = RECORD["terminate_and_lambda"]
    def shape(call: list[Any]) -> list[Any]:      # the hook, its arguments, and of each logs dict its names
        return [sorted(a) if isinstance(a, dict) else a for a in call]
    assert [shape(call) for call in ours["calls"]] == [shape(call) for call in theirs["calls"]]
    assert ours["nan"] == theirs["nan"]


def test_fit_ends_with_the_moving_average_weights_as_tf():
    assert_fit_matches(scenarios.moving_average(keras, tf), RECORD["moving_average"])


def plain(name: str | None) -> str | None:
    """A name without the counter Keras' global naming adds (``sequential_25``: ``sequential``)."""
    return None if name is None else re.sub(r"_\d+$", "", name)


@pytest.mark.parametrize("model", ["functional", "sequential", "subclassed", "compiled"])
def test_weights_file_layout_is_keras_3_s(model):
    pytest.importorskip("h5py")
    ours = scenarios.weights_file(keras, tf)
    assert [[key, plain(name), shape] for key, name, shape in ours["layouts"][model]] == \
           [[key, plain(name), shape] for key, name, shape in RECORD["weights_file"]["layouts"][model]]


def test_a_weights_file_written_by_tf_loads():
    pytest.importorskip("h5py")
    m = scenarios.model(keras, 0.1, "Adam")
    m.fit(scenarios.X, scenarios.Y, epochs=1, verbose=0, shuffle=False)       # builds the optimiser's variables
    m.load_weights(pathlib.Path(__file__).parent / "data" / "tf_keras_dense.weights.h5")
    for a, b in zip(m.get_weights(), RECORD["weights_file"]["compiled_weights"]):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    for a, b in zip(m.optimizer.variables, RECORD["weights_file"]["compiled_optimizer"]):
        np.testing.assert_allclose(a.numpy(), b, rtol=1e-6)


def test_stop_training_set_by_a_callback_ends_fit_after_the_batch():
    class StopAtSecondBatch(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            if batch == 1:
                self.model.stop_training = True
    m = scenarios.model(keras)
    seen = []
    history = m.fit(scenarios.X, scenarios.Y, batch_size=2, epochs=5, verbose=0, shuffle=False,
                    callbacks=[StopAtSecondBatch(), keras.callbacks.LambdaCallback(
                        on_train_batch_end=lambda batch, logs: seen.append(batch))])
    assert history.epoch == [0] and seen == [0, 1]
    assert all(isinstance(v, float) for values in history.history.values() for v in values)
