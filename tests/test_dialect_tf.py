"""Shapes, dtypes and narrow integers behave as TensorFlow 2.21's: what they print, compare, index and raise.

TF's answers were recorded once by tests/record_tf_dialect.py into tests/data/tf_dialect.json;
each case is evaluated again here with ``import minitape as tf`` and must give the same ``repr``
(or raise the same exception type, and for the cases in ``MESSAGES`` the same message).
"""
import json
import pathlib

import numpy as np
import pytest

import minitape as tf
from record_tf_dialect import CASES, MESSAGES, record

RECORDED = json.loads((pathlib.Path(__file__).parent / "data" / "tf_dialect.json").read_text())


def test_every_case_was_recorded():
    assert sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("case", CASES)
def test_minitape_answers_as_tensorflow(case):
    expected, got = RECORDED[case], record(tf, case)
    if "repr" in expected:
        assert got == expected
    else:
        assert got.get("raises") == expected["raises"], got
        if case in MESSAGES:
            assert got["message"] == expected["message"]


def test_bad_dtype_messages_name_every_supported_dtype():
    with pytest.raises(TypeError) as error:
        tf.as_dtype("complex64")
    assert all(d.name in str(error.value) for d in tf.dtypes.ALL)


def test_print_shows_shapes_and_dtypes_as_tensorflow(capsys):
    x = tf.zeros((2, 3))
    print(x.shape, x.dtype, tf.constant(1.0).shape, tf.TensorShape([None, 4]))
    assert capsys.readouterr().out == "(2, 3) <dtype: 'float32'> () (None, 4)\n"


def test_shapes_and_dtypes_pickle_and_hash_as_dict_keys():
    import pickle
    shape, dtype = tf.TensorShape([2, None]), tf.uint8
    assert pickle.loads(pickle.dumps(shape)) == shape and pickle.loads(pickle.dumps(dtype)) is dtype
    assert {shape: 1}[tf.TensorShape([2, None])] == 1 and {dtype: 1}[tf.uint8] == 1


def test_mnist_style_uint8_labels_train_a_model():
    """What ``keras.datasets.mnist.load_data()`` hands a student: uint8 images and uint8 labels."""
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (32, 4, 4), dtype=np.uint8)
    labels = (images.reshape(32, -1).mean(axis=1) > 127).astype(np.uint8)
    model = tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(2)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    history = model.fit(tf.cast(images, tf.float32) / 255.0, labels, epochs=2, verbose=0)
    assert np.isfinite(history.history["loss"]).all()
