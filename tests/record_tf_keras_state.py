"""Record TensorFlow 2.21's Keras for tests/test_keras_state_tf.py (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_keras_state.py      # writes tests/data/tf_keras_state.json

Each case is a function of the Keras module and of a tensor module (``tensorflow`` / ``minitape``) returning
plain data; the test runs the same functions with minitape and compares:

* ``freezing``: ``trainable = False`` on a layer, a BatchNormalization, a layer inside a model and a whole
  model (the variable lists, each variable's ``trainable``), setting it back, and ``fit`` after freezing;
* ``building``: ``build(input_shape)`` of a Sequential model and of a subclassed model;
* ``seeds``: which initialisers give the same values on every call, and for two objects with one seed;
* ``names``: TF's module names and Keras' layer names for class names with capitals in a row;
* ``losses``: ``fit`` with a float64 loss term besides the float32 compiled loss;
* ``regularizers``: the configs of L1, L2 and L1L2.
"""
from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np

from record_tf_keras_api import values

OUT = pathlib.Path(__file__).parent / "data" / "tf_keras_state.json"
X = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0], [0.0, 1.0, -1.0], [2.0, -2.0, 0.5]], dtype="float32")
Y = np.array([[1.0], [0.0], [2.0], [-1.0]], dtype="float32")


def lists(layer: Any) -> dict[str, Any]:
    """Which variables a layer lists as trainable and as not, by name, and each variable's own ``trainable``."""
    return {"trainable": [v.name for v in layer.trainable_variables],
            "non_trainable": [v.name for v in layer.non_trainable_variables],
            "trainable_weights": [v.name for v in layer.trainable_weights],
            "non_trainable_weights": [v.name for v in layer.non_trainable_weights],
            "flags": [v.trainable for v in layer.weights]}


def two_dense(keras: Any) -> Any:
    class TwoDense(keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.a = keras.layers.Dense(2, kernel_initializer="ones", name="a")
            self.b = keras.layers.Dense(1, kernel_initializer="ones", name="b")

        def call(self, x: Any) -> Any:
            return self.b(self.a(x))
    return TwoDense()


def freezing(keras: Any, tf: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    dense = keras.layers.Dense(2, name="d")
    dense.build((None, 3))
    dense.trainable = False
    out["dense_frozen"] = lists(dense)
    dense.trainable = True
    out["dense_thawed"] = lists(dense)
    born_frozen = keras.layers.Dense(2, trainable=False)
    born_frozen.build((None, 3))
    out["born_frozen"] = lists(born_frozen)
    born_frozen.trainable = True
    out["born_frozen_thawed"] = lists(born_frozen)
    bn = keras.layers.BatchNormalization(name="bn")
    bn.build((None, 2))
    bn.trainable = False
    out["bn_frozen"] = lists(bn)
    batch = tf.constant([[1.0, 2.0], [3.0, 6.0]])
    out["bn_frozen_training_call"] = values(bn(batch, training=True))      # inference mode: the moving statistics
    out["bn_frozen_moving_mean"] = values(bn.moving_mean)
    bn.trainable = True
    out["bn_thawed"] = lists(bn)
    model = two_dense(keras)
    model(tf.constant(X))
    model.a.trainable = False
    out["model_part_frozen"] = lists(model)
    model.trainable = False
    out["model_frozen"] = lists(model) | {"parts": [model.a.trainable, model.b.trainable]}
    model.trainable = True
    out["model_thawed"] = lists(model) | {"parts": [model.a.trainable, model.b.trainable]}
    model.a.trainable = False
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(X, Y, batch_size=2, epochs=2, shuffle=False, verbose=0)
    out["fit_after_freezing"] = [values(w) for w in model.get_weights()]
    out["fit_after_freezing_loss"] = history.history["loss"]
    return out


def building(keras: Any, tf: Any) -> dict[str, Any]:
    sequential = keras.Sequential([keras.layers.Dense(2), keras.layers.Dense(1)])
    sequential.build((None, 3))
    model = two_dense(keras)
    model.build((None, 3))
    return {"sequential": [list(v.shape) for v in sequential.weights], "sequential_built": sequential.built,
            "subclassed": [list(v.shape) for v in model.weights], "subclassed_built": model.built,
            "subclassed_output": values(model(tf.constant(X[:1])))}


def seeds(keras: Any, tf: Any) -> dict[str, Any]:
    """For each initialiser: [same on two calls (seeded), same for two objects (seeded), differs for another seed,
    same on two calls (unseeded), same for two objects (unseeded)]."""
    makers = {"tf.random_normal_initializer": tf.random_normal_initializer,
              "tf.random_uniform_initializer": tf.random_uniform_initializer,
              "RandomNormal": keras.initializers.RandomNormal, "RandomUniform": keras.initializers.RandomUniform,
              "GlorotUniform": keras.initializers.GlorotUniform, "GlorotNormal": keras.initializers.GlorotNormal,
              "HeNormal": keras.initializers.HeNormal, "HeUniform": keras.initializers.HeUniform,
              "VarianceScaling": keras.initializers.VarianceScaling}
    out = {}
    for name, make in makers.items():
        def same(a: Any, b: Any) -> bool:
            return bool(np.array_equal(np.asarray(a((3, 3))), np.asarray(b((3, 3)))))
        seeded, unseeded = make(seed=3), make()
        out[name] = [same(seeded, seeded), same(seeded, make(seed=3)), not same(seeded, make(seed=4)),
                     same(unseeded, unseeded), same(unseeded, make())]
    out["configs"] = [make(seed=3).get_config() for make in list(makers.values())[:4]]
    return out


def names(keras: Any, tf: Any) -> dict[str, Any]:
    modules = [type(name, (tf.Module,), {})().name for name in ("AUC", "MyHTTPModule2D", "Conv2D", "ABCNet")]
    layers = [type(name, (keras.layers.Layer,), {})().name
              for name in ("StateAUC", "StateHTTPLayer2D", "StateConv2D", "StateABCNet")]
    return {"modules": modules, "layers": layers}


def losses(keras: Any, tf: Any) -> dict[str, Any]:
    class Float64Loss(keras.layers.Layer):
        def call(self, x: Any) -> Any:
            self.add_loss(tf.constant(0.5, tf.float64))
            return x
    model = keras.Sequential([keras.layers.Dense(1, kernel_initializer="ones"), Float64Loss()])
    model.compile(optimizer="sgd", loss="mse")
    try:
        model.fit(X, Y, verbose=0)
    except Exception as error:   # noqa: BLE001 - the type is what is recorded
        return {"float64_term": type(error).__name__}
    return {"float64_term": None}


def regularizers(keras: Any, tf: Any) -> dict[str, Any]:
    r = keras.regularizers
    made = [r.L1(), r.L1(0.5), r.L2(), r.L2(0.3), r.L1L2(), r.L1L2(l1=0.1), r.l1_l2(0.2, 0.3)]
    x = tf.constant([[1.0, -2.0], [3.0, 0.25]])
    return {"configs": [m.get_config() for m in made], "penalties": [float(m(x)) for m in made],
            "subclass": [isinstance(r.L1(), r.L1L2), isinstance(r.L2(), r.L1L2)]}


CASES = {"freezing": freezing, "building": building, "seeds": seeds, "names": names, "losses": losses,
         "regularizers": regularizers}

if __name__ == "__main__":
    import os
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    import tensorflow
    keras.utils.set_random_seed(0)
    OUT.write_text(json.dumps({name: case(keras, tensorflow) for name, case in CASES.items()}, indent=1) + "\n")
