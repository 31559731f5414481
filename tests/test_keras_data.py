"""Keras' fit, evaluate and predict on a tf.data.Dataset or a generator, as Keras 3 takes them."""
import warnings

import numpy as np
import pytest

import minitape as tf
from minitape.keras.data_adapter import RAN_OUT
from minitape.keras.progbar import ProgressBar

Dataset = tf.data.Dataset
X = np.linspace(-1, 1, 24, dtype=np.float32).reshape(12, 2)
Y = (X @ np.array([[2.0], [-1.0]], np.float32) + 0.5).astype(np.float32)


def model():
    tf.random.set_seed(0)
    made = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"), tf.keras.layers.Dense(1)])
    made.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mse"])
    made(X[:1])                 # built now: the weights do not depend on what fit draws from the seed first
    return made


def test_fit_on_a_dataset_gives_the_history_of_fit_on_the_arrays():
    on_arrays = model().fit(X, Y, batch_size=5, epochs=3, shuffle=False, validation_data=(X[:4], Y[:4]), verbose=0)
    dataset, validation = Dataset.from_tensor_slices((X, Y)).batch(5), Dataset.from_tensors((X[:4], Y[:4]))
    on_dataset = model().fit(dataset, epochs=3, shuffle=False, validation_data=validation, verbose=0)
    assert sorted(on_dataset.history) == ["loss", "mse", "val_loss", "val_mse"]
    for name, values in on_arrays.history.items():
        np.testing.assert_allclose(on_dataset.history[name], values, rtol=1e-6)


def test_steps_per_epoch_streams_on_through_a_repeated_dataset():
    one_pass = model()
    one_pass.fit(X, Y, batch_size=3, epochs=1, shuffle=False, verbose=0)          # 4 batches
    streamed = model()
    history = streamed.fit(Dataset.from_tensor_slices((X, Y)).batch(3).repeat(), steps_per_epoch=2, epochs=2,
                           shuffle=False, verbose=0)
    assert len(history.history["loss"]) == 2
    for a, b in zip(one_pass.get_weights(), streamed.get_weights()):                # the same 4 batches, in order
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_a_dataset_that_runs_out_warns_as_keras_does():
    with pytest.warns(UserWarning, match="Your input ran out of data"):
        history = model().fit(Dataset.from_tensors((X, Y)), steps_per_epoch=2, epochs=2, shuffle=False, verbose=0)
    assert len(history.history["loss"]) == 2
    assert "`.repeat()`" in RAN_OUT


def test_a_generator_of_batches_trains_and_the_bar_counts_up():
    def batches():
        for start in range(0, 12, 4):
            yield X[start:start + 4], Y[start:start + 4]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        history = model().fit(batches(), epochs=1, verbose=0)
    expected = model().fit(X, Y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], expected.history["loss"], rtol=1e-6)
    with pytest.warns(UserWarning, match="Your input ran out of data"):
        used_up = model().fit(batches(), epochs=3, shuffle=False, verbose=0)
    assert len(used_up.history["loss"]) == 1             # a generator runs once: no epoch repeats its numbers
    bar = ProgressBar(None, 1, plain=True, clock=lambda: 0.0)
    assert bar._line(5, {"loss": 1.0}) == "      5/Unknown 0s 0s/step - loss: 1.0000"      # none measured: 0s, as Keras


def test_sample_weights_in_the_batches_weight_the_loss_as_keras_does():
    weights = np.array([1.0, 0.0, 2.0, 0.0], np.float32)
    trained = model()
    per_example = np.mean((trained.predict(X[:4], verbose=0) - Y[:4]) ** 2, axis=-1)
    loss = trained.evaluate(Dataset.from_tensors((X[:4], Y[:4], weights)), verbose=0)[0]
    np.testing.assert_allclose(loss, np.sum(per_example * weights) / 4, rtol=1e-5)


def test_evaluate_and_predict_on_datasets():
    trained = model()
    dataset = Dataset.from_tensor_slices((X, Y)).batch(5)
    np.testing.assert_allclose(trained.evaluate(dataset, verbose=0), trained.evaluate(X, Y, verbose=0), rtol=1e-6)
    inputs_only = trained.predict(Dataset.from_tensor_slices(X).batch(5), verbose=0)
    np.testing.assert_allclose(inputs_only, trained.predict(X, verbose=0), rtol=1e-6)
    assert trained.predict(dataset, verbose=0).shape == (12, 1)          # (x, y) batches: x is predicted


def test_a_dataset_with_y_or_a_split_is_refused_with_keras_errors():
    dataset = Dataset.from_tensor_slices((X, Y)).batch(4)
    with pytest.raises(ValueError, match="When providing `x` as a tf.data.Dataset, `y` should not be passed"):
        model().fit(dataset, Y, verbose=0)
    with pytest.raises(ValueError, match="`validation_split` is only supported for Tensors or NumPy arrays"):
        model().fit(dataset, validation_split=0.2, verbose=0)
    with pytest.warns(UserWarning, match="`shuffle=True` was passed, but will be ignored"):
        model().fit(dataset, batch_size=4, verbose=0)            # batch_size is ignored, as Keras 3 ignores it
