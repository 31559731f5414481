"""``model.save`` / ``keras.models.load_model``: the ``.keras`` archive, round trips, TF 2.21's files.

The TF-written files and TF's answers come from tests/record_tf_saving.py.  Run as a script, this module
writes minitape's files for that recorder's ``--load`` check (TF loading minitape's files, by hand).
"""
from __future__ import annotations

import json
import pathlib
import sys
import zipfile

import numpy as np
import pytest

import minitape as tf
from minitape.keras import serialization

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from record_tf_saving import DATA, FILES, X, Y, build_models, residual_class  # noqa: E402

Residual = residual_class(tf.keras)
TF = json.loads((DATA / "tf_saving.json").read_text())


def _same_model(a, b):
    assert type(a) is type(b)
    for u, v in zip(a.get_weights(), b.get_weights(), strict=True):
        np.testing.assert_array_equal(u, v)
    np.testing.assert_array_equal(a.predict(X, verbose=0), b.predict(X, verbose=0))
    assert serialization.serialize_keras_object(a) == serialization.serialize_keras_object(b)


@pytest.mark.parametrize("name", ["sequential", "functional", "subclassed"])
def test_round_trip_keeps_weights_predictions_and_config(tmp_path, name):
    model = build_models(tf.keras)[name]
    model.save(tmp_path / "m.keras")
    _same_model(model, tf.keras.models.load_model(tmp_path / "m.keras"))


def test_archive_holds_keras_three_files_and_config_keys(tmp_path):
    model = build_models(tf.keras)["sequential"]
    tf.keras.saving.save_model(model, tmp_path / "m.keras")
    archive = zipfile.ZipFile(tmp_path / "m.keras")
    assert sorted(archive.namelist()) == ["config.json", "metadata.json", "model.weights.h5"]
    config = json.loads(archive.read("config.json"))
    assert {"module", "class_name", "config", "registered_name", "build_config", "compile_config"} <= set(config)
    assert (config["module"], config["class_name"], config["build_config"]) == ("keras", "Sequential",
                                                                               {"input_shape": [None, 3]})
    assert config["compile_config"]["loss"] == "mse"
    assert config["compile_config"]["optimizer"]["class_name"] == "Adam"


def test_functional_with_two_inputs_and_a_shared_layer(tmp_path):
    a, b = tf.keras.Input((2,), name="a"), tf.keras.Input((2,), name="b")
    shared = tf.keras.layers.Dense(2, name="shared")
    joined = tf.keras.layers.Add(name="join")([shared(a), shared(b)])
    model = tf.keras.Model([a, b], [joined, tf.keras.layers.Dense(1, name="out")(joined)])
    model.save(tmp_path / "m.keras")
    loaded = tf.keras.models.load_model(tmp_path / "m.keras")
    inputs = [X[:, :2], X[:, 1:]]
    for u, v in zip(model(inputs), loaded(inputs)):
        np.testing.assert_array_equal(u.numpy(), v.numpy())
    nodes = json.loads(zipfile.ZipFile(tmp_path / "m.keras").read("config.json"))["config"]["layers"][2]
    assert [n["args"][0]["config"]["keras_history"] for n in nodes["inbound_nodes"]] == [["a", 0, 0], ["b", 0, 0]]


def test_training_goes_on_after_loading_as_if_never_interrupted(tmp_path):
    def fresh():
        tf.keras.utils.set_random_seed(3)
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="tanh"),
                                     tf.keras.layers.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse", metrics=["mse"])
        return model

    whole = fresh()
    history = whole.fit(X, Y, batch_size=4, epochs=3, shuffle=False, verbose=0).history
    first = fresh()
    first.fit(X, Y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    first.save(tmp_path / "m.keras")
    resumed = tf.keras.models.load_model(tmp_path / "m.keras")
    assert int(resumed.optimizer.iterations.numpy()) == 2
    rest = resumed.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0).history
    np.testing.assert_allclose(rest["loss"], history["loss"][1:], rtol=1e-6)
    for u, v in zip(resumed.get_weights(), whole.get_weights()):
        np.testing.assert_allclose(u, v, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", ["sequential", "functional", "subclassed"])
def test_files_written_by_tf_load_and_predict_as_tf(name):
    model = tf.keras.models.load_model(FILES / f"{name}.keras")
    np.testing.assert_allclose(model.predict(X, verbose=0), TF["predictions"][name], rtol=1e-5, atol=1e-6)


def test_tf_written_model_trains_on_as_tf_did():
    model = tf.keras.models.load_model(FILES / "sequential.keras")
    assert (type(model.optimizer).__name__, model.compiled) == ("Adam", True)
    assert float(model.optimizer.learning_rate.numpy()) == pytest.approx(0.05)
    history = model.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0).history
    for key in ("loss", "mse"):                 # the compiled metric comes back too
        np.testing.assert_allclose(history[key], TF["continued"]["history"][key], rtol=1e-5)
    for u, v in zip(model.get_weights(), TF["continued"]["weights"]):
        np.testing.assert_allclose(u, v, rtol=1e-5, atol=1e-6)


def test_compile_false_leaves_the_model_uncompiled():
    assert not tf.keras.models.load_model(FILES / "sequential.keras", compile=False).compiled


def test_unregistered_subclass_needs_custom_objects(tmp_path):
    class Plain(tf.keras.Model):
        def __init__(self, units=2, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.dense = tf.keras.layers.Dense(units)

        def call(self, x):
            return self.dense(x)

    model = Plain(units=2)
    model(X)
    model.save(tmp_path / "m.keras")
    with pytest.raises(TypeError, match="Could not locate class 'Plain'. Make sure custom classes and functions are "
                                        "decorated with `@keras.saving.register_keras_serializable\\(\\)`"):
        tf.keras.models.load_model(tmp_path / "m.keras")
    loaded = tf.keras.models.load_model(tmp_path / "m.keras", custom_objects={"Plain": Plain})
    np.testing.assert_array_equal(loaded.predict(X, verbose=0), model.predict(X, verbose=0))


def test_subclass_made_of_objects_must_write_get_config(tmp_path):
    class Wrapper(tf.keras.Model):             # Keras 3 cannot make a config of a layer given to __init__ either
        def __init__(self, block):
            super().__init__()
            self.dense = block

        def call(self, x):
            return self.dense(x)

    model = Wrapper(tf.keras.layers.Dense(2))
    model(X)
    with pytest.raises(NotImplementedError, match="must override `get_config\\(\\)`"):
        model.save(tmp_path / "m.keras")


def test_errors_say_what_keras_says(tmp_path):
    with pytest.raises(ValueError, match="File not found: filepath=.*nope.keras"):
        tf.keras.models.load_model(tmp_path / "nope.keras")
    (tmp_path / "bad.keras").write_text("not a zip")
    with pytest.raises(ValueError, match="Please ensure the file is an accessible `.keras` zip file"):
        tf.keras.models.load_model(tmp_path / "bad.keras")
    with pytest.raises(ValueError, match="File format not supported"):
        tf.keras.models.load_model(tmp_path / "bad.txt")
    with pytest.raises(ValueError, match="Invalid filepath extension for saving"):
        build_models(tf.keras)["sequential"].save(tmp_path / "m.h5")


def test_wrong_structure_is_refused(tmp_path):
    build_models(tf.keras)["sequential"].save(tmp_path / "m.keras")
    with zipfile.ZipFile(tmp_path / "m.keras") as archive:
        config = json.loads(archive.read("config.json"))
        weights = archive.read("model.weights.h5")
    config["config"]["layers"][1]["config"]["units"] = 5
    with zipfile.ZipFile(tmp_path / "other.keras", "w") as archive:
        archive.writestr("config.json", json.dumps(config))
        archive.writestr("model.weights.h5", weights)
    with pytest.raises(ValueError, match="shape"):
        tf.keras.models.load_model(tmp_path / "other.keras")


def test_keras_utils_and_saving_share_the_registry():
    assert tf.keras.utils.register_keras_serializable is tf.keras.saving.register_keras_serializable
    assert tf.keras.saving.get_registered_object("minitape_tests>Residual") is Residual


def test_serialize_round_trips_registered_functions_and_objects():
    @tf.keras.saving.register_keras_serializable(package="t")
    def double(x):
        return 2 * x

    config = tf.keras.saving.serialize_keras_object(double)
    assert config["registered_name"] == "t>double"
    assert tf.keras.saving.deserialize_keras_object(config) is double
    adam = tf.keras.saving.deserialize_keras_object(tf.keras.saving.serialize_keras_object(
        tf.keras.optimizers.Adam(0.25, beta_1=0.8)))
    assert (float(adam.learning_rate.numpy()), adam.beta_1) == (0.25, 0.8)
    with pytest.raises(ValueError, match="Cannot register a class that does not have a get_config"):
        tf.keras.saving.register_keras_serializable()(type("NoConfig", (), {}))


def write_minitape_files(directory: str) -> None:
    """minitape's files of the three models and their predictions, for the recorder's ``--load`` check."""
    out = pathlib.Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    predictions = {}
    for name, model in build_models(tf.keras).items():
        model.save(out / f"{name}.keras")
        predictions[name] = model.predict(X, verbose=0).tolist()
    (out / "predictions.json").write_text(json.dumps(predictions))


if __name__ == "__main__":
    write_minitape_files(sys.argv[1])
