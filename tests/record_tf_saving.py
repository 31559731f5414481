"""Record TensorFlow 2.21's ``.keras`` files for tests/test_saving.py (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_saving.py          # writes tests/data/tf_saving/*.keras and tf_saving.json

Three small models, as Keras 3 saves them: a compiled Sequential model trained one epoch with Adam, a functional
model with a residual join, and a subclassed model registered as ``minitape_tests>Residual``.  Beside them the
json holds the inputs, each model's predictions, and what two more epochs of ``fit`` give for the compiled one
once loaded back (the test loads TF's files with minitape and checks predictions and continued training).

The other direction, by hand, as TF cannot run in CI: minitape writes its files and predictions,

    PYTHONPATH=. .venv/bin/python tests/test_saving.py /tmp/minitape_keras

and TF loads them and compares:

    /tmp/tfvenv/bin/python tests/record_tf_saving.py --load /tmp/minitape_keras
"""
from __future__ import annotations

import json
import os
import pathlib
import sys
from typing import Any

import numpy as np

DATA = pathlib.Path(__file__).parent / "data"
FILES = DATA / "tf_saving"
X = (np.arange(24, dtype="float32").reshape(8, 3) - 12.0) / 10.0
Y = (X @ np.array([[1.0], [-2.0], [0.5]], dtype="float32")) + 0.25


_RESIDUAL: dict[str, type] = {}


def residual_class(keras: Any) -> type:
    """The same subclassed model in TF and in minitape (``keras`` is either), made and registered once; its
    ``get_config`` names its one argument, as Keras 3 requires of a model with its own ``__init__``."""
    if keras.__name__ in _RESIDUAL:
        return _RESIDUAL[keras.__name__]

    @keras.saving.register_keras_serializable(package="minitape_tests")
    class Residual(keras.Model):
        def __init__(self, units: int = 3, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.units = units
            self.inner = keras.layers.Dense(units, activation="tanh", name="inner")
            self.head = keras.layers.Dense(1, name="head")

        def call(self, x: Any) -> Any:
            return self.head(x + self.inner(x))

        def get_config(self) -> dict[str, Any]:
            return {"name": self.name, "units": self.units}

    _RESIDUAL[keras.__name__] = Residual
    return Residual


def build_models(keras: Any) -> dict[str, Any]:
    """The three models, with weights from a fixed seed; the Sequential one compiled and trained one epoch."""
    keras.utils.set_random_seed(7)
    sequential = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(1)])
    sequential.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse", metrics=["mse"])
    sequential.fit(X, Y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    x = keras.Input((3,), name="x")
    h = keras.layers.Dense(3, name="h")(x)
    functional = keras.Model(x, keras.layers.Dense(2, name="y")(keras.layers.Add(name="join")([x, h])))
    subclassed = residual_class(keras)(units=3)
    subclassed(X[:1])
    return {"sequential": sequential, "functional": functional, "subclassed": subclassed}


def record() -> None:
    import keras
    FILES.mkdir(parents=True, exist_ok=True)
    answers: dict[str, Any] = {"x": X.tolist(), "y": Y.tolist(), "predictions": {}}
    for name, model in build_models(keras).items():
        model.save(FILES / f"{name}.keras")
        answers["predictions"][name] = model.predict(X, verbose=0).tolist()
    loaded = keras.models.load_model(FILES / "sequential.keras")
    history = loaded.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0).history
    answers["continued"] = {"history": {k: [float(v) for v in vs] for k, vs in history.items()},
                            "weights": [w.tolist() for w in loaded.get_weights()]}
    (DATA / "tf_saving.json").write_text(json.dumps(answers))


def check_minitape_files(directory: str) -> None:
    """TF loads the ``.keras`` files minitape wrote in ``directory`` and predicts what minitape predicted."""
    import keras
    residual_class(keras)
    expected = json.loads((pathlib.Path(directory) / "predictions.json").read_text())
    for name, predictions in expected.items():
        model = keras.models.load_model(os.path.join(directory, f"{name}.keras"))
        gap = float(np.abs(model.predict(X, verbose=0) - np.array(predictions)).max())
        print(f"{name}: TF loads minitape's file as {type(model).__name__}, compiled={model.compiled}, "
              f"largest difference from minitape's predictions {gap:.2e}")
        assert gap < 1e-5, name


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    if sys.argv[1:2] == ["--load"]:
        check_minitape_files(sys.argv[2])
    else:
        record()
