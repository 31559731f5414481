"""Keras 3's losses against TensorFlow 2.21: values, gradients, configs and training by name.

The figures were recorded once by tests/record_tf_keras_losses_metrics.py into
tests/data/tf_keras_losses_metrics.json, from the cases defined there.
"""
import json
import re
import pathlib

import numpy as np
import pytest

import minitape as tf
from minitape.course.gradcheck import check_gradients
from record_tf_keras_losses_metrics import (COMPILED, COMPILED_METRICS, DATA, FUNCTIONS, LOSSES, METRICS, fit_history,
                                            loss_case, metric_results)

RECORDED = json.loads((pathlib.Path(__file__).parent / "data" / "tf_keras_losses_metrics.json").read_text())
# Along axis 0 these one-hot labels do not sum to 1: TF's fused kernel then returns ``softmax - labels``, minitape
# the exact gradient ``sum(labels)·softmax - labels`` (on purpose, see tf.nn.softmax_cross_entropy_with_logits).
INEXACT_IN_TF = {"CategoricalCrossentropy/onehot_logits/2"}


def close(actual, expected, tolerance=1e-5):
    np.testing.assert_allclose(np.asarray(actual, np.float64), np.asarray(expected, np.float64), rtol=tolerance,
                               atol=tolerance)


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_loss_value_and_gradient_match_keras(name):
    value, gradient = loss_case(tf.keras, tf, name)
    expected = RECORDED["losses"][name]
    assert value.dtype.name == expected["dtype"]
    close(value.numpy(), expected["value"])
    if name not in INEXACT_IN_TF:
        close(gradient.numpy(), expected["gradient"])


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_function_forms_match_keras(name):
    fn, data, kwargs = FUNCTIONS[name]
    y_true, y_pred = DATA[data]
    close(getattr(tf.keras.losses, fn)(y_true, np.asarray(y_pred, np.float32), **kwargs).numpy(),
          RECORDED["functions"][name])


def test_configs_match_keras_and_make_the_loss_again():
    for name, (cls, kwargs, _, _) in LOSSES.items():
        loss = getattr(tf.keras.losses, cls)(**kwargs)
        config = loss.get_config()
        assert config == RECORDED["configs"][f"{cls}/{json.dumps(kwargs, sort_keys=True)}"], name
        assert type(loss).from_config(config).get_config() == config


@pytest.mark.parametrize("name", sorted(COMPILED))
def test_fit_with_a_loss_by_name_matches_keras(name):
    history = fit_history(tf.keras, name)
    expected = RECORDED["compiled"][name]
    assert sorted(history) == sorted(expected)
    close(history["loss"], expected["loss"], 1e-4)


@pytest.mark.parametrize("name", sorted({n for n in LOSSES if n.endswith("/0")}))
def test_loss_gradient_against_finite_differences(name):
    cls, _, data, _ = LOSSES[name]
    y_true, y_pred = DATA[data]
    loss = getattr(tf.keras.losses, cls)(dtype="float64")
    check_gradients(lambda p: loss(y_true, p, sample_weight=[1.0, 0.5, 0.0, 2.0]), np.asarray(y_pred, np.float64))


def test_names_resolve_as_keras_does():
    losses = tf.keras.losses
    assert losses.get("mse") is losses.mean_squared_error and losses.get("BCE") is losses.binary_crossentropy
    assert type(losses.get("CategoricalHinge")) is losses.CategoricalHinge
    assert losses.get({"class_name": "Huber", "config": {"name": "h"}}).name == "h"
    assert losses.deserialize(losses.serialize(losses.mae)) is losses.mean_absolute_error
    with pytest.raises(ValueError, match="Could not interpret loss identifier: logcosh"):
        losses.get("logcosh")
    with pytest.raises(ValueError, match="Invalid value for argument `reduction`"):
        losses.Hinge(reduction="average")


@pytest.mark.parametrize("name", sorted(METRICS))
def test_metric_results_match_keras(name):
    results, metric_name = metric_results(tf.keras, name)
    expected, expected_name = RECORDED["metrics"][name]
    assert re.sub(r"_\d+$", "", metric_name) == re.sub(r"_\d+$", "", expected_name)    # numbering: creation order
    close(results, expected)


@pytest.mark.parametrize("name", sorted(COMPILED_METRICS))
def test_fit_with_metrics_by_name_matches_keras(name):
    history = fit_history(tf.keras, name, with_metrics=True)
    expected = RECORDED["compiled_metrics"][name]
    assert sorted(history) == sorted(expected)
    for key in expected:
        close(history[key], expected[key], 1e-4)


def test_the_namespaces_hold_keras_3s_names():
    """Every name in TF 2.21's tf.keras.losses and tf.keras.metrics that this module covers (CTC, Circle,
    CategoricalGeneralizedCrossEntropy, the IoU and correlation metrics, R2Score are not built)."""
    absent_losses = {"CTC", "Circle", "CategoricalGeneralizedCrossEntropy", "Reduction", "circle", "ctc",
                     "categorical_generalized_cross_entropy"}
    absent_metrics = {"BinaryIoU", "ConcordanceCorrelation", "IoU", "MeanIoU", "OneHotIoU", "OneHotMeanIoU",
                      "PearsonCorrelation", "R2Score", "concordance_correlation", "pearson_correlation"}
    for namespace, names, absent in ((tf.keras.losses, RECORDED["names"]["losses"], absent_losses),
                                     (tf.keras.metrics, RECORDED["names"]["metrics"], absent_metrics)):
        assert [n for n in names if n not in absent and not hasattr(namespace, n)] == []


@pytest.mark.parametrize("name", sorted(METRICS))
def test_metric_configs_match_keras_and_round_trip(name):
    cls, kwargs, _ = METRICS[name]
    metric = getattr(tf.keras.metrics, cls)(**kwargs)
    config = metric.get_config()
    expected = dict(RECORDED["metric_configs"][name])
    assert re.sub(r"_\d+$", "", config.pop("name")) == re.sub(r"_\d+$", "", expected.pop("name"))
    assert config == expected
    restored = tf.keras.metrics.deserialize(tf.keras.metrics.serialize(metric))
    assert type(restored) is type(metric) and restored.get_config() == metric.get_config()
