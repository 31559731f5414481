"""Record TensorFlow 2.21's Keras optimisers for tests/test_keras_optimizers_tf.py (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_keras_optimizers.py   # writes tests/data/tf_keras_optimizers.json

* ``trajectories``: two variables (a vector and a matrix) driven by a fixed sequence of 5 gradients, for each
  optimiser with its defaults and with its main options, and for Adam and SGD with ``weight_decay``,
  ``clipnorm``, ``clipvalue``, ``global_clipnorm``, ``use_ema``, ``loss_scale_factor``, a schedule and a
  callable as the learning rate: the variables after each step, the optimiser's variables' paths and values
  at the end, and ``get_config``.
* ``schedules``: each schedule's value at several steps, for several configurations.
* ``errors``: the exception type and message of bad arguments.

A case is ``[class name, kwargs]``; a kwarg ``learning_rate`` given as ``{"schedule": name, "config": {...}}``
is a schedule, and ``{"callable": value}`` a function returning ``value``.  The test builds the same
optimiser from the case with minitape and compares.
"""
from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "tf_keras_optimizers.json"
STEPS = 5
INITIAL = [[0.5, -1.0, 2.0], [[1.0, -0.5], [0.25, 3.0]]]
_rng = np.random.default_rng(24)
GRADIENTS = [[np.round(_rng.normal(size=np.shape(v)) * 2, 3).tolist() for v in INITIAL] for _ in range(STEPS)]
GRADIENTS[2][0][1] = 0.0          # a zero gradient: sign() and the accumulators meet it

SCHEDULE = {"schedule": "ExponentialDecay", "config": {"initial_learning_rate": 0.1, "decay_steps": 2,
                                                       "decay_rate": 0.5}}
COSINE = {"schedule": "CosineDecay", "config": {"initial_learning_rate": 0.0, "decay_steps": 3,
                                                "warmup_target": 0.2, "warmup_steps": 2}}
CASES: list[list[Any]] = [
    ["SGD", {}], ["SGD", {"learning_rate": 0.1}], ["SGD", {"learning_rate": 0.1, "momentum": 0.9}],
    ["SGD", {"learning_rate": 0.1, "momentum": 0.9, "nesterov": True}],
    ["Adam", {}], ["Adam", {"learning_rate": 0.1}], ["Adam", {"learning_rate": 0.1, "amsgrad": True}],
    ["Adam", {"learning_rate": 0.1, "beta_1": 0.5, "beta_2": 0.9, "epsilon": 0.01}],
    ["AdamW", {}], ["AdamW", {"learning_rate": 0.1, "weight_decay": 0.1, "amsgrad": True}],
    ["Adamax", {}], ["Adamax", {"learning_rate": 0.1, "beta_1": 0.8}],
    ["Adagrad", {}], ["Adagrad", {"learning_rate": 0.1, "initial_accumulator_value": 0.5}],
    ["Adadelta", {}], ["Adadelta", {"learning_rate": 1.0, "rho": 0.9, "epsilon": 1e-3}],
    ["Nadam", {}], ["Nadam", {"learning_rate": 0.1, "beta_1": 0.8}],
    ["RMSprop", {}], ["RMSprop", {"learning_rate": 0.1}], ["RMSprop", {"learning_rate": 0.1, "centered": True}],
    ["RMSprop", {"learning_rate": 0.1, "momentum": 0.5}],
    ["RMSprop", {"learning_rate": 0.1, "momentum": 0.5, "centered": True, "rho": 0.8}],
    ["Ftrl", {}], ["Ftrl", {"learning_rate": 0.1, "l1_regularization_strength": 0.01,
                            "l2_regularization_strength": 0.01, "l2_shrinkage_regularization_strength": 0.01,
                            "beta": 0.1}],
    ["Ftrl", {"learning_rate": 0.5, "learning_rate_power": -1.0, "initial_accumulator_value": 1.0}],
    ["Lion", {}], ["Lion", {"learning_rate": 0.1, "beta_1": 0.5, "beta_2": 0.9}],
    ["Adafactor", {}], ["Adafactor", {"learning_rate": 0.1, "relative_step": False, "clip_threshold": 0.5}],
    ["SGD", {"learning_rate": 0.1, "weight_decay": 0.1}], ["Adam", {"learning_rate": 0.1, "weight_decay": 0.1}],
    ["SGD", {"learning_rate": 0.1, "clipnorm": 0.5}], ["SGD", {"learning_rate": 0.1, "clipvalue": 0.3}],
    ["SGD", {"learning_rate": 0.1, "global_clipnorm": 0.5}], ["Adam", {"learning_rate": 0.1, "clipnorm": 0.5}],
    ["Adam", {"learning_rate": 0.1, "global_clipnorm": 1.0}],
    ["SGD", {"learning_rate": 0.1, "use_ema": True, "ema_momentum": 0.5}],
    ["SGD", {"learning_rate": 0.1, "use_ema": True, "ema_momentum": 0.5, "ema_overwrite_frequency": 2}],
    ["SGD", {"learning_rate": 0.1, "loss_scale_factor": 4.0}],
    ["SGD", {"learning_rate": SCHEDULE, "momentum": 0.5}], ["Adam", {"learning_rate": SCHEDULE}],
    ["SGD", {"learning_rate": COSINE}], ["SGD", {"learning_rate": {"callable": 0.05}}],
    ["Adam", {"learning_rate": SCHEDULE, "weight_decay": 0.1}],
]

SCHEDULE_CASES: list[list[Any]] = [
    ["ExponentialDecay", {"initial_learning_rate": 0.1, "decay_steps": 3, "decay_rate": 0.5}],
    ["ExponentialDecay", {"initial_learning_rate": 0.1, "decay_steps": 3, "decay_rate": 0.5, "staircase": True}],
    ["PiecewiseConstantDecay", {"boundaries": [2, 5, 10], "values": [1.0, 0.5, 0.1, 0.01]}],
    ["PolynomialDecay", {"initial_learning_rate": 0.1, "decay_steps": 8}],
    ["PolynomialDecay", {"initial_learning_rate": 0.1, "decay_steps": 8, "end_learning_rate": 0.01, "power": 2.0,
                         "cycle": True}],
    ["InverseTimeDecay", {"initial_learning_rate": 0.1, "decay_steps": 3, "decay_rate": 0.5}],
    ["InverseTimeDecay", {"initial_learning_rate": 0.1, "decay_steps": 3, "decay_rate": 0.5, "staircase": True}],
    ["CosineDecay", {"initial_learning_rate": 0.1, "decay_steps": 10}],
    ["CosineDecay", {"initial_learning_rate": 0.1, "decay_steps": 10, "alpha": 0.1}],
    ["CosineDecay", {"initial_learning_rate": 0.0, "decay_steps": 10, "warmup_target": 0.1, "warmup_steps": 4}],
    ["CosineDecayRestarts", {"initial_learning_rate": 0.1, "first_decay_steps": 4}],
    ["CosineDecayRestarts", {"initial_learning_rate": 0.1, "first_decay_steps": 3, "t_mul": 1.0, "m_mul": 0.5,
                             "alpha": 0.1}],
    ["CosineDecayRestarts", {"initial_learning_rate": 0.1, "first_decay_steps": 2, "t_mul": 3.0, "m_mul": 0.8}],
]
SCHEDULE_STEPS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 13, 15, 16, 20, 30, 100]

ERRORS = [
    "keras.optimizers.SGD(learning_rate=1)",
    "keras.optimizers.Adam(learning_rate='fast')",
    "keras.optimizers.SGD(momentum=1)",
    "keras.optimizers.SGD(0.1, momentum=1.5)",
    "keras.optimizers.SGD(0.1, clipnorm=1.0, clipvalue=1.0)",
    "keras.optimizers.AdamW(weight_decay=None)",
    "keras.optimizers.Ftrl(initial_accumulator_value=-1.0)",
    "keras.optimizers.Ftrl(learning_rate_power=0.5)",
    "keras.optimizers.Lion(beta_1=0.0)",
    "keras.optimizers.Adam(0.1, foo=1)",
    "keras.optimizers.schedules.ExponentialDecay(0.1, 0, 0.5)",
    "keras.optimizers.schedules.PiecewiseConstantDecay([1, 2], [1.0, 0.5])",
    "keras.optimizers.get('adamx')",
    "set_lr(keras.optimizers.SGD(keras.optimizers.schedules.ExponentialDecay(0.1, 2, 0.5)), 0.5)",
    "keras.optimizers.SGD(0.1).apply_gradients([(None, tf.Variable(1.0))])",
]


def make(keras: Any, name: str, kwargs: dict[str, Any]) -> Any:
    """The optimiser a case describes."""
    kwargs = dict(kwargs)
    rate = kwargs.get("learning_rate")
    if isinstance(rate, dict) and "schedule" in rate:
        kwargs["learning_rate"] = getattr(keras.optimizers.schedules, rate["schedule"])(**rate["config"])
    elif isinstance(rate, dict):
        kwargs["learning_rate"] = lambda value=rate["callable"]: value
    return getattr(keras.optimizers, name)(**kwargs)


def trajectory(keras: Any, tf: Any, name: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    variables = [keras.Variable(np.array(v, dtype="float32"), name=f"w{i}") for i, v in enumerate(INITIAL)]
    optimizer = make(keras, name, kwargs)
    steps = []
    for grads in GRADIENTS:
        optimizer.apply_gradients(zip([tf.constant(np.array(g, dtype="float32")) for g in grads], variables))
        steps.append([np.asarray(v.numpy()).tolist() for v in variables])
    config = optimizer.get_config()
    if callable(optimizer._learning_rate) and not isinstance(config["learning_rate"], float):
        config["learning_rate"] = "callable"      # Keras serialises a lambda as its source code
    config.pop("name")
    return {"steps": steps, "iterations": int(optimizer.iterations.numpy()),
            "variables": {v.path: np.asarray(v.numpy()).tolist() for v in optimizer.variables
                          if "iteration" not in v.path and "learning_rate" not in v.path},
            "config": config}


def schedule_values(keras: Any, name: str, config: dict[str, Any]) -> list[float]:
    schedule = getattr(keras.optimizers.schedules, name)(**config)
    return [float(schedule(step)) for step in SCHEDULE_STEPS]


def set_lr(optimizer: Any, value: float) -> None:
    optimizer.learning_rate = value


def error(keras: Any, tf: Any, code: str) -> list[str]:
    try:
        eval(code, {"keras": keras, "tf": tf, "set_lr": set_lr})
    except Exception as exc:           # noqa: BLE001 - the record is the exception
        return [type(exc).__name__, str(exc)]
    return ["no error", ""]


def record(keras: Any, tf: Any) -> dict[str, Any]:
    return {"initial": INITIAL, "gradients": GRADIENTS,
            "trajectories": [[name, kwargs, trajectory(keras, tf, name, kwargs)] for name, kwargs in CASES],
            "schedule_steps": SCHEDULE_STEPS,
            "schedules": [[name, config, schedule_values(keras, name, config)] for name, config in SCHEDULE_CASES],
            "errors": [[code, *error(keras, tf, code)] for code in ERRORS]}


if __name__ == "__main__":
    import keras
    import tensorflow as tf
    OUT.write_text(json.dumps({"tensorflow": tf.__version__, "keras": keras.__version__, **record(keras, tf)},
                              indent=None) + "\n")
    print(f"wrote {OUT}")
