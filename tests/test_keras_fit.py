"""Keras' loop around the model: what ``fit`` shows and returns, and how it refuses what it cannot do.

The figures it must reach (per-epoch losses and metrics equal to Keras') are in test_keras_tf.py.
"""
import re

import numpy as np
import pytest

import minitape as tf
from minitape.keras import progbar

pytestmark = pytest.mark.usefixtures("backend")     # every test here runs on each backend


def small_model():
    model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="softmax", kernel_initializer="zeros")])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


X, Y = np.eye(3, dtype="float32")[[0, 1, 2, 0, 1]], np.array([0, 1, 2, 0, 1])


def test_history_params_and_validation_split():
    history = small_model().fit(X, Y, batch_size=2, epochs=2, validation_split=0.4, verbose=0)
    assert history.params == {"verbose": 0, "epochs": 2, "steps": 2}      # 3 examples left to train on
    assert list(history.history) == ["accuracy", "loss", "val_accuracy", "val_loss"] and history.epoch == [0, 1]


def test_shuffling_follows_the_seed():
    def run():
        tf.keras.utils.set_random_seed(5)
        model = tf.keras.Sequential([tf.keras.layers.Dense(3, kernel_initializer="he_normal")])
        model.compile(optimizer="sgd", loss="mse")
        return model.fit(X, np.eye(3)[Y], batch_size=2, epochs=3, verbose=0).history["loss"]
    assert run() == run()


def test_verbose_text_without_tqdm(monkeypatch, capsys):
    monkeypatch.setattr(progbar, "_tqdm", lambda: None)          # as where tqdm is not installed
    small_model().fit(X, Y, batch_size=2, epochs=2, validation_data=(X, Y), verbose=1)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Epoch 1/2" and lines[2] == "Epoch 2/2"
    assert lines[1].startswith("3/3 ━━━━━━━━━━━━━━━━━━━━ ") and "ms/step - accuracy: " in lines[1]
    assert re.search(r" - loss: \d\.\d{4} - val_accuracy: \d\.\d{4} - val_loss: \d\.\d{4}$", lines[1])


def test_verbose_bar_with_tqdm(capsys):
    pytest.importorskip("tqdm")
    small_model().fit(X, Y, batch_size=2, epochs=1, verbose=1)
    err = capsys.readouterr().err
    assert "Epoch 1/1" in err and "3/3" in err and "loss=" not in err and "loss:" in err


def test_verbose_two_prints_a_line_per_epoch(capsys):
    small_model().fit(X, Y, batch_size=5, epochs=2, verbose=2)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Epoch 1/2" and lines[1].startswith("1/1 - ") and "/step - accuracy: " in lines[1]


def test_evaluate_and_predict_shapes():
    model = small_model()
    loss, accuracy = model.evaluate(X, Y, verbose=0)
    assert np.isclose(loss, np.log(3)) and accuracy == pytest.approx(0.4)       # uniform predictions: argmax is 0
    assert model.evaluate(X, Y, verbose=0, return_dict=True) == {"accuracy": accuracy, "loss": loss}
    assert model.predict(X, batch_size=2, verbose=0).shape == (5, 3)


def test_refusals():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    with pytest.raises(ValueError, match=r"You must call `compile\(\)` before using the model."):
        model.fit(X, Y)
    model.compile(optimizer="adam")
    with pytest.raises(ValueError, match="No loss to compute"):
        model.fit(X, Y, verbose=0)
    with pytest.raises(ValueError, match="Could not interpret optimizer identifier: adamx"):     # Keras 3's text
        model.compile(optimizer="adamx", loss="mse")
    with pytest.raises(ValueError, match="Could not interpret loss identifier: hinges"):
        model.compile(loss="hinges")
    with pytest.raises(ValueError, match="x has 5 examples but y has 4"):
        small_model().fit(X, Y[:4])
