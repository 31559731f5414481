"""Keras layers and Keras' own training loop against TensorFlow 2.21's Keras (3.15) figures.

The figures were recorded once by tests/record_tf_keras.py into tests/data/tf_keras.npz, from
the same specs and the same weights: each layer's output and gradients (BatchNormalization's
moving statistics too), and for whole models ``fit`` with ``shuffle=False``: the per-epoch
losses and metrics, ``evaluate``, ``predict`` and the final weights.
"""
import json
import pathlib

import numpy as np
import pytest

import minitape as tf
from record_tf_keras import BUILDERS, FITS, LAYERS, compile_args, fit_args, fit_data, run_layer, weights_for

pytestmark = pytest.mark.usefixtures("backend")     # every test here runs on each backend
RECORDED = np.load(pathlib.Path(__file__).parent / "data" / "tf_keras.npz")


def close(actual, expected, tolerance=2e-5):
    scale = max(1.0, float(np.max(np.abs(expected)))) if np.size(expected) else 1.0
    np.testing.assert_allclose(np.asarray(actual, np.float64), np.asarray(expected, np.float64), rtol=tolerance,
                               atol=tolerance * scale)


def set_weights(variables, arrays):
    assert [tuple(v.shape) for v in variables] == [a.shape for a in arrays]
    for v, a in zip(variables, arrays):
        v.assign(a)


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer_values_gradients_and_moving_statistics_match_keras(name):
    cls, kwargs, shape, _ = LAYERS[name]
    layer = getattr(tf.keras.layers, cls)(**kwargs)
    layer.build(shape)
    if layer.variables:
        names = [v.name.split("/")[-1].split(":")[0] for v in layer.variables]
        set_weights(layer.variables, weights_for([tuple(v.shape) for v in layer.variables], names,
                                                 seed=sorted(LAYERS).index(name)))
    out, grads = run_layer(tf, layer, name)
    close(out.numpy(), RECORDED[f"layer/{name}/output"])
    assert len(grads) == len([key for key in RECORDED.files if key.startswith(f"layer/{name}/grad")])
    for k, grad in enumerate(grads):
        close(grad.numpy(), RECORDED[f"layer/{name}/grad{k}"])
    for k, v in enumerate(layer.variables):
        close(v.numpy(), RECORDED[f"layer/{name}/weight{k}"])


def test_batch_norm_under_recompute_grad_updates_its_moving_mean_once():
    x = tf.constant(RECORDED["recompute_bn/x"])
    bn = tf.keras.layers.BatchNormalization()
    bn.build(tuple(x.shape))
    block = tf.recompute_grad(lambda x: bn(x, training=True))
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(block(x) ** 2 * x)
    close(bn.moving_mean.numpy(), RECORDED["recompute_bn/after_forward"])
    grads = tape.gradient(loss, [x, *bn.trainable_variables])
    for k, grad in enumerate(grads):                         # the same gradients as TF's
        close(grad.numpy(), RECORDED[f"recompute_bn/grad{k}"])
    # minitape differs on purpose: the recomputation leaves the moving mean where the step put it.
    # TF 2.21 moves it a second time (0.99 · m + 0.01 · mean, again):
    close(bn.moving_mean.numpy(), RECORDED["recompute_bn/after_forward"])
    twice = RECORDED["recompute_bn/after_forward"] * 0.99 + RECORDED["recompute_bn/after_forward"]
    close(RECORDED["recompute_bn/after_backward"], twice, tolerance=1e-5)


@pytest.mark.parametrize("name", sorted(FITS))
def test_fit_matches_keras_epoch_by_epoch(name):
    tf.keras.utils.set_random_seed(0)
    data = fit_data(name)
    model = BUILDERS[FITS[name][0]](tf.keras)
    model(tf.constant(data["x"][:1]))
    names = json.loads(str(RECORDED[f"fit/{name}/weight_names"]))
    assert [v.name.split("/")[-1].split(":")[0] for v in model.variables] == names
    initial = [RECORDED[f"fit/{name}/initial{k}"] for k in range(len(names))]
    set_weights(model.variables, initial)
    model.compile(**compile_args(tf.keras, name))
    history = model.fit(data["x"], data["y"], verbose=0, **fit_args(name, data))
    expected = json.loads(str(RECORDED[f"fit/{name}/history"]))
    assert list(history.history) == list(expected)                 # the same names, in TF's order
    for key, values in expected.items():
        close(history.history[key], values, tolerance=1e-4)
    close(model.evaluate(data["x_val"], data["y_val"], verbose=0), RECORDED[f"fit/{name}/evaluate"], tolerance=1e-4)
    close(model.predict(data["x_val"], verbose=0), RECORDED[f"fit/{name}/predict"], tolerance=1e-4)
    for k, v in enumerate(model.variables):
        close(v.numpy(), RECORDED[f"fit/{name}/final{k}"], tolerance=1e-4)
