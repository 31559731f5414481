"""minitape's Keras optimisers and schedules against TensorFlow 2.21's, recorded by record_tf_keras_optimizers.py.

Each recorded case drives two variables with the same 5 gradients through an optimiser made with the same
arguments; the variables after every step, the optimiser's own variables at the end and ``get_config`` must
agree.  Schedules are compared at many steps, and bad arguments by exception type and message.
"""
from __future__ import annotations

import json
import pathlib
import re
from typing import Any

import numpy as np
import pytest

import minitape as tf
from record_tf_keras_optimizers import error, make, schedule_values

RECORD = json.loads((pathlib.Path(__file__).parent / "data" / "tf_keras_optimizers.json").read_text())
keras = tf.keras


def case_id(case: list[Any]) -> str:
    name, kwargs = case[0], case[1]
    return name + "(" + ",".join(f"{k}={v if not isinstance(v, dict) else next(iter(v.values()))}"
                                 for k, v in kwargs.items()) + ")"


def run(name: str, kwargs: dict[str, Any]) -> tuple[Any, list[Any], list[list[np.ndarray]]]:
    variables = [keras.Variable(np.array(v, dtype="float32"), name=f"w{i}") for i, v in enumerate(RECORD["initial"])]
    optimizer = make(keras, name, kwargs)
    steps = []
    for grads in RECORD["gradients"]:
        optimizer.apply_gradients(zip([tf.constant(np.array(g, dtype="float32")) for g in grads], variables))
        steps.append([v.numpy() for v in variables])
    return optimizer, variables, steps


@pytest.mark.parametrize("case", RECORD["trajectories"], ids=[case_id(c) for c in RECORD["trajectories"]])
def test_trajectory_matches_tf(case):
    name, kwargs, expected = case
    optimizer, _, steps = run(name, kwargs)
    for step, (ours, theirs) in enumerate(zip(steps, expected["steps"])):
        for i, (a, b) in enumerate(zip(ours, theirs)):
            np.testing.assert_allclose(a, np.array(b, dtype=np.float32), rtol=2e-5, atol=2e-6,
                                       err_msg=f"variable w{i} after step {step + 1}")
    assert int(optimizer.iterations.numpy()) == expected["iterations"]


def own_name(path: str) -> str:
    """A state variable's path without the optimiser's name (``adam_6/w0_momentum``: ``w0_momentum``), and
    without the counter Keras' global naming adds to Nadam's unnamed ``variable``."""
    name = path.partition("/")[2]
    return "variable" if re.fullmatch(r"variable(_\d+)?", name) else name


@pytest.mark.parametrize("case", RECORD["trajectories"], ids=[case_id(c) for c in RECORD["trajectories"]])
def test_state_and_config_match_tf(case):
    name, kwargs, expected = case
    optimizer, _, _ = run(name, kwargs)
    state = {own_name(v.path): v.numpy() for v in optimizer.variables
             if own_name(v.path) not in ("iteration", "learning_rate")}
    theirs = {own_name(path): value for path, value in expected["variables"].items()}
    if name != "Adafactor":           # Keras names Adafactor's factors after the variable's name, unsanitised
        assert list(state) == list(theirs)       # in Keras' order, as a weights file stores them
        for path, value in theirs.items():
            np.testing.assert_allclose(state[path], np.array(value, dtype=np.float32), rtol=2e-5, atol=2e-6,
                                       err_msg=path)
    config = optimizer.get_config()
    config.pop("name")
    if callable(optimizer._learning_rate) and not isinstance(config["learning_rate"], float):
        config["learning_rate"] = "callable"
    assert config == expected["config"]


@pytest.mark.parametrize("case", RECORD["schedules"], ids=[f"{c[0]}{i}" for i, c in enumerate(RECORD["schedules"])])
def test_schedule_values_match_tf(case):
    name, config, expected = case
    np.testing.assert_allclose(schedule_values(keras, name, config), expected, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("case", RECORD["errors"], ids=[c[0] for c in RECORD["errors"]])
def test_bad_arguments_raise_as_tf(case):
    code, kind, message = case
    assert error(keras, tf, code) == [kind, message]


def test_the_optimizer_namespace_is_tf_s():
    assert tf.optimizers is tf.keras.optimizers
    names = {"SGD", "Adam", "AdamW", "Adamax", "Adagrad", "Adadelta", "Nadam", "RMSprop", "Ftrl", "Lion", "Adafactor"}
    assert names <= set(tf.keras.optimizers.__all__)
    for name in names:
        assert type(tf.keras.optimizers.get(name.lower())).__name__ == name


def test_a_schedule_is_read_at_each_step_and_the_learning_rate_is_a_variable():
    schedule = keras.optimizers.schedules.PiecewiseConstantDecay([0, 1], [1.0, 0.5, 0.25])
    w = tf.Variable(0.0)
    optimizer = keras.optimizers.SGD(schedule)
    moves = []
    for _ in range(3):
        before = float(w.numpy())
        optimizer.apply([tf.constant(1.0)], [w])
        moves.append(before - float(w.numpy()))
    assert moves == [1.0, 0.5, 0.25]          # the schedule is called with the steps taken so far: 0, 1, 2
    sgd = keras.optimizers.SGD(0.1)
    sgd.learning_rate = 0.25
    assert isinstance(sgd.learning_rate, tf.Variable) and float(sgd.learning_rate.numpy()) == 0.25


def test_from_config_round_trips_a_schedule():
    optimizer = keras.optimizers.Adam(keras.optimizers.schedules.CosineDecay(0.1, 10, warmup_target=0.2,
                                                                              warmup_steps=3))
    again = keras.optimizers.Adam.from_config(optimizer.get_config())
    assert again.get_config() == optimizer.get_config()
    assert float(again.learning_rate) == pytest.approx(0.1)


def test_an_unknown_gradient_is_skipped_with_keras_warning():
    w, v = tf.Variable(1.0), tf.Variable(1.0)
    with pytest.warns(UserWarning, match="Gradients do not exist for variables"):
        keras.optimizers.SGD(0.5).apply([tf.constant(1.0), None], [w, v])
    assert float(w.numpy()) == 0.5 and float(v.numpy()) == 1.0


def test_an_optimizer_refuses_variables_it_was_not_built_for():
    # TF 2.21: ValueError "Unknown variable: <Variable path=variable_1, ...>. This optimizer can only be called ..."
    optimizer, w = keras.optimizers.SGD(0.1), tf.Variable(1.0)
    optimizer.apply([tf.constant(1.0)], [w])
    with pytest.raises(ValueError, match=r"Unknown variable: .*This optimizer can only be called for the variables it "
                                         r"was originally built with\. When working with a new set of variables, you "
                                         r"should recreate a new optimizer instance\."):
        optimizer.apply([tf.constant(1.0)], [tf.Variable(2.0)])
    built = keras.optimizers.SGD(0.1)
    built.build([w, tf.Variable(0.0)])
    built.apply([tf.constant(1.0)], [w])                  # a subset of the built variables is fine
