"""Keras 3's training of models with several inputs and outputs, against TensorFlow 2.21's, recorded by
record_tf_keras_multi_io.py: compile's lists and dicts of losses, ``loss_weights`` and per-output metrics;
``fit``, ``evaluate`` and ``predict`` on lists, tuples and dicts of inputs and targets; the per-output names
in the logs (``out1_loss``, ``out2_accuracy``, a subclassed model's ``mse_loss``); Keras' errors for bad
input."""
from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np
import pytest

import minitape as tf
import record_tf_keras_multi_io as scenarios

RECORD = json.loads((pathlib.Path(__file__).parent / "data" / "tf_keras_multi_io.json").read_text())
keras = tf.keras


def assert_same_training(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    assert sorted(ours["history"]) == sorted(theirs["history"])
    for name, values in theirs["history"].items():
        np.testing.assert_allclose(ours["history"][name], values, rtol=2e-5, err_msg=name)
    assert ours["metrics_names"] == theirs["metrics_names"]
    np.testing.assert_allclose(ours["evaluate"], theirs["evaluate"], rtol=2e-5)
    assert list(ours["evaluate_dict"]) == list(theirs["evaluate_dict"])
    np.testing.assert_allclose(list(ours["evaluate_dict"].values()), list(theirs["evaluate_dict"].values()), rtol=2e-5)
    assert ours["predict_type"] == theirs["predict_type"]
    for a, b in zip(ours["predict"], theirs["predict"], strict=True):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=1e-6)


@pytest.fixture(scope="module")
def ours() -> dict[str, Any]:
    return scenarios.scenarios(keras)


@pytest.mark.parametrize("case", list(RECORD["scenarios"]))
def test_training_matches_tf(ours, case):
    assert_same_training(ours[case], RECORD["scenarios"][case])


@pytest.mark.parametrize("case", list(RECORD["refusals"]))
def test_bad_input_gets_keras_error(case):
    assert scenarios.refusals(keras)[case] == RECORD["refusals"][case]


def test_functional_model_of_one_listed_output_returns_that_output():
    ours, theirs = scenarios.singleton(keras), RECORD["singleton"]
    assert (ours["called_is_list"], ours["output_names"]) == (theirs["called_is_list"], theirs["output_names"])
    assert_same_training(ours, theirs)


def test_dict_targets_train_each_output_by_its_name():
    """Targets given as a dict reach the output of that name whatever the dict's order: swapping them
    (a wrong pairing) gives another loss."""
    model = scenarios.functional(keras)
    model.compile(optimizer="sgd", loss={"out1": "mse", "out2": "categorical_crossentropy"})
    by_name = model.evaluate([scenarios.XA, scenarios.XB], {"out2": scenarios.Y2, "out1": scenarios.Y1},
                             verbose=0, return_dict=True)
    as_list = model.evaluate([scenarios.XA, scenarios.XB], [scenarios.Y1, scenarios.Y2], verbose=0, return_dict=True)
    assert by_name == pytest.approx(as_list)
    assert sorted(by_name) == ["loss", "out1_loss", "out2_loss"]


def test_loss_weights_scale_each_output_in_the_total():
    model = scenarios.functional(keras)
    model.compile(loss=["mse", "categorical_crossentropy"], loss_weights=[0.25, 4.0])
    logs = model.evaluate([scenarios.XA, scenarios.XB], [scenarios.Y1, scenarios.Y2], batch_size=8, verbose=0,
                          return_dict=True)
    assert logs["loss"] == pytest.approx(0.25 * logs["out1_loss"] + 4.0 * logs["out2_loss"], rel=1e-6)


def test_fit_moves_every_output_head():
    """Both heads get gradients through the summed loss (the bug before: a list of outputs reached the loss
    as a constant, and fit raised "No gradients provided for any variable")."""
    model = scenarios.functional(keras)
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss=["mse", "categorical_crossentropy"])
    before = {v.path: v.numpy().copy() for v in model.trainable_variables}
    model.fit((scenarios.XA, scenarios.XB), (scenarios.Y1, scenarios.Y2), epochs=1, verbose=0)
    assert all(not np.array_equal(before[v.path], v.numpy()) for v in model.trainable_variables)


def test_predict_keeps_a_dict_of_outputs():
    a = keras.Input((3,), name="a")
    model = keras.Model(a, {"p": keras.layers.Dense(1)(a), "q": keras.layers.Dense(2)(a)})
    predicted = model.predict(scenarios.XA, batch_size=3, verbose=0)
    assert sorted(predicted) == ["p", "q"] and predicted["q"].shape == (8, 2)


def test_layers_print_as_keras_3_does():
    assert repr(keras.layers.Dense(2, name="d")) == "<Dense name=d, built=False>"


def test_saved_model_keeps_its_loss_weights(tmp_path):
    model = scenarios.functional(keras)
    model.compile(optimizer="sgd", loss={"out1": "mse", "out2": "categorical_crossentropy"}, loss_weights=[1.0, 0.5])
    data = ([scenarios.XA, scenarios.XB], [scenarios.Y1, scenarios.Y2])
    model.save(tmp_path / "two_heads.keras")
    again = keras.models.load_model(tmp_path / "two_heads.keras")
    assert again.evaluate(*data, verbose=0) == pytest.approx(model.evaluate(*data, verbose=0))
