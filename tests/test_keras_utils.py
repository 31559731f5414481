"""``keras.backend``, ``keras.config``, ``keras.utils`` and ``keras.random`` against TensorFlow 2.21's Keras (3.15):
every case of tests/record_keras_utils.py (recorded in tests/data/keras_utils.json); and what cannot be
recorded as plain data: plot_model's files, Progbar's lines, time-series windows, ``tf.keras.utils`` names.
"""
import importlib.util
import json
import os

import numpy as np
import pytest

import minitape as tf
import record_keras_utils as spec

RECORDED = json.loads(spec.OUT.read_text())


def close(ours, theirs):
    """Recorded data equal, numbers within float32 rounding."""
    if isinstance(theirs, dict) and "value" in theirs:
        assert {k: v for k, v in ours.items() if k != "value"} == {k: v for k, v in theirs.items() if k != "value"}
        np.testing.assert_allclose(np.array(ours["value"], float), np.array(theirs["value"], float), rtol=1e-6)
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            close(a, b)
    else:
        assert ours == theirs


@pytest.mark.parametrize("name", list(spec.CASES))
def test_as_keras_3(name):
    close(spec.run(name, tf.keras, tf), RECORDED[name])


def test_clear_session_restarts_default_names():
    tf.keras.backend.clear_session()
    first = tf.keras.layers.Dense(1).name
    tf.keras.utils.clear_session()
    assert (first, tf.keras.layers.Dense(1).name) == ("dense", "dense")


def test_set_floatx_refuses_what_minitape_cannot_compute():
    with pytest.raises(NotImplementedError, match="float32"):
        tf.keras.backend.set_floatx("float64")
    with pytest.raises(ValueError, match="Unknown `floatx` value"):
        tf.keras.config.set_floatx("float8")


def _functional():
    inputs = tf.keras.Input((4,), name="features")
    left = tf.keras.layers.Dense(3, activation="relu", name="left")(inputs)
    right = tf.keras.layers.Dense(3, name="right")(inputs)
    joined = tf.keras.layers.Add(name="join")([left, right])
    return tf.keras.Model(inputs, tf.keras.layers.Dense(1, name="score")(joined))


def test_plot_model_draws_the_functional_graph(tmp_path):
    dot = tf.keras.utils.model_to_dot(_functional(), show_shapes=True, show_layer_activations=True)
    assert sorted(dot.edges()) == [("features", "left"), ("features", "right"), ("join", "score"),
                                   ("left", "join"), ("right", "join")]
    assert dot.get_node("join").attr["label"] == ("join (Add)\nInput shape: (None, 3), (None, 3)\n"
                                                   "Output shape: (None, 3)")
    assert "Activation: relu" in dot.get_node("left").attr["label"]
    for name in ("model.png", "model.svg"):
        picture = tf.keras.utils.plot_model(_functional(), to_file=str(tmp_path / name), show_shapes=True)
        assert os.path.getsize(tmp_path / name) > 0
        if importlib.util.find_spec("IPython"):
            assert type(picture).__name__ == ("SVG" if name.endswith("svg") else "Image")
    assert open(tmp_path / "model.png", "rb").read(4) == b"\x89PNG"


def test_progbar_shows_running_means(capsys):
    bar = tf.keras.utils.Progbar(4, verbose=2, stateful_metrics=["acc"])
    bar.update(1, [("loss", 4.0), ("acc", 0.1)])
    bar.update(3, [("loss", 1.0), ("acc", 0.7)])       # 2 steps at 1.0: mean (4 + 2) / 3
    bar.add(1, [("loss", 2.0), ("acc", 0.9)])
    line = capsys.readouterr().out.strip()
    assert line.startswith("4/4 - ") and line.endswith("- loss: 2.0000 - acc: 0.9000")


@pytest.mark.skipif(importlib.util.find_spec("minitape.dialect.data") is None, reason="tf.data not in this checkout")
def test_timeseries_windows_as_keras():
    data = np.arange(10)
    series = tf.keras.utils.timeseries_dataset_from_array(data, data * 10, sequence_length=3, sampling_rate=2,
                                                          batch_size=2, start_index=1)
    batches = [(x.numpy().tolist(), y.numpy().tolist()) for x, y in series]
    assert batches == [([[1, 3, 5], [2, 4, 6]], [10, 20]), ([[3, 5, 7], [4, 6, 8]], [30, 40]), ([[5, 7, 9]], [50])]
    unbatched = tf.keras.utils.timeseries_dataset_from_array(data.astype("float32"), None, sequence_length=4,
                                                             sequence_stride=3, batch_size=None)
    assert [x.numpy().tolist() for x in unbatched] == [[0, 1, 2, 3], [3, 4, 5, 6], [6, 7, 8, 9]]
    shuffled = tf.keras.utils.timeseries_dataset_from_array(data, data, sequence_length=2, batch_size=3,
                                                            shuffle=True, seed=0)
    rows = [(x.numpy().tolist(), y.numpy().tolist()) for x, y in shuffled]
    assert sorted(w[0] for x, _ in rows for w in x) == list(range(9))
    assert all(w[0] == t for x, y in rows for w, t in zip(x, y))
