"""Record what Keras 3 (TensorFlow 2.21) prints for ``fit`` and ``evaluate`` (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_progbar.py       # writes tests/data/tf_keras_progbar.json

The model and data are test_keras_fit.py's (a zero-initialised softmax ``Dense(3)``, five one-hot rows).
Each scenario's stdout is kept raw, as Keras wrote it into a pipe: its ``\\b``/``\\r`` redraws and ANSI
colours included.  The test compares what a reader sees (the lines left after the redraws, colours
removed, times blanked) with what minitape prints.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "tf_keras_progbar.json"
X, Y = np.eye(3, dtype="float32")[[0, 1, 2, 0, 1]], np.array([0, 1, 2, 0, 1])

# name: (method, keyword arguments), run on a fresh model; test_keras_fit.py runs the same with minitape.
SCENARIOS = {
    "fit_verbose_1_validation": ("fit", {"batch_size": 2, "epochs": 2, "validation_data": (X, Y), "shuffle": False,
                                          "verbose": 1}),
    "fit_verbose_auto": ("fit", {"batch_size": 2, "epochs": 2, "shuffle": False, "verbose": "auto"}),
    "fit_verbose_2": ("fit", {"batch_size": 5, "epochs": 2, "verbose": 2}),
    "fit_verbose_0": ("fit", {"batch_size": 2, "epochs": 1, "verbose": 0}),
    "fit_one_epoch": ("fit", {"batch_size": 2, "epochs": 1, "shuffle": False, "verbose": 1}),
    "evaluate_verbose_auto": ("evaluate", {"batch_size": 2, "verbose": "auto"}),
    "evaluate_verbose_2": ("evaluate", {"batch_size": 2, "verbose": 2}),
}


def small_model(keras):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3, activation="softmax",
                                                                     kernel_initializer="zeros")])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


def main() -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    import tensorflow as tf

    printed = {}
    for name, (method, kwargs) in SCENARIOS.items():
        model = small_model(keras)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            getattr(model, method)(X, Y, **kwargs)
        printed[name] = out.getvalue()
    OUT.write_text(json.dumps({"tensorflow": tf.__version__, "keras": keras.__version__, "printed": printed},
                              indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
