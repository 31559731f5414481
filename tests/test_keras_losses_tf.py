"""Regularizers, layer losses, training with them, and metrics against TensorFlow 2.21's Keras (3.15).

The figures were recorded once by tests/record_tf_losses.py into tests/data/tf_losses.npz,
from the same cases and the same weights.
"""
import json
import pathlib

import numpy as np
import pytest

import minitape as tf
from record_tf_losses import BUILDERS, METRICS, REGULARIZED, REGULARIZERS, built, inputs

RECORDED = np.load(pathlib.Path(__file__).parent / "data" / "tf_losses.npz")


def close(actual, expected, tolerance=2e-5):
    np.testing.assert_allclose(np.asarray(actual, np.float64), np.asarray(expected, np.float64), rtol=tolerance,
                               atol=tolerance)


@pytest.mark.parametrize("name", sorted(REGULARIZERS))
def test_regularizer_values_match_keras(name):
    cls, kwargs = REGULARIZERS[name]
    value = getattr(tf.keras.regularizers, cls)(**kwargs)(tf.constant(REGULARIZED))
    assert value.dtype == tf.float32 and value.shape == ()
    close(value.numpy(), RECORDED[f"regularizer/{name}"], 1e-6)


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_model_losses_are_recomputed_per_call_in_keras_order(name):
    model = built(tf.keras, tf, name)
    recorded = json.loads(str(RECORDED[f"losses/{name}/weight_paths"]))
    # Layer numbering depends on how many layers were made before; the shape of each path does not.
    assert [(len(p.split("/")), p.split("/")[-1]) for p in recorded] == \
           [(len(v.path.split("/")), v.name) for v in model.weights]
    for call in (1, 2):
        model(inputs(name, 3, call)[0])
        close([float(loss) for loss in model.losses], RECORDED[f"losses/{name}/call{call}"])


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_fit_adds_the_regularization_losses_as_keras_does(name):
    model = built(tf.keras, tf, name)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    x, y = inputs(name, 8, 10)
    history = model.fit(x, y, batch_size=3, epochs=2, shuffle=False, verbose=0)
    expected = json.loads(str(RECORDED[f"fit/{name}/history"]))
    assert sorted(history.history) == sorted(expected)
    for key in expected:
        close(history.history[key], expected[key], 1e-4)
    close(model.evaluate(*inputs(name, 4, 11), verbose=0), RECORDED[f"fit/{name}/evaluate"], 1e-4)
    for k, v in enumerate(model.weights):
        close(v.numpy(), RECORDED[f"fit/{name}/final{k}"], 1e-4)


@pytest.mark.parametrize("name", sorted(METRICS))
def test_metric_results_state_and_text_match_keras(name):
    cls, updates, kwargs = METRICS[name]
    metric = getattr(tf.keras.metrics, cls)(**kwargs)
    results = []
    for args, update_kwargs in updates:
        assert metric.update_state(*args, **update_kwargs) is None
        results.append(metric.result())
    assert {r.dtype.name for r in results} == {json.loads(str(RECORDED[f"metric/{name}/text"]))[3]}
    close([r.numpy() for r in results], RECORDED[f"metric/{name}/results"], 1e-7)
    close([v.numpy() for v in metric.variables], RECORDED[f"metric/{name}/state"], 1e-7)
    assert [repr(metric), metric.name, metric.dtype, results[0].dtype.name] == \
           json.loads(str(RECORDED[f"metric/{name}/text"]))
    metric.reset_state()
    assert float(metric.result()) == 0.0 and [float(v.numpy()) for v in metric.variables] == [0.0, 0.0]
