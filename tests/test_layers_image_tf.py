"""Merging, reshaping and preprocessing layers and ``tf.image`` against TensorFlow 2.21 / Keras 3: values, shapes,
dtypes, errors (type, and Keras' text inside TF's), and the gradients of the differentiable image ops; then
float64 finite differences for those gradients.

The figures are in tests/data/tf_layers_image.json, written by tests/record_tf_layers_image.py from the same cases.
"""
import json
import re

import numpy as np
import pytest

import minitape as tf
import record_tf_layers_image as spec
from minitape.course.gradcheck import check_gradients
from minitape.dialect.image.resizing import interpolate

RECORDED = json.loads(spec.OUT.read_text())
CASES = {"layers": spec.LAYERS, "image": spec.IMAGE_OPS}


def check(ours, recorded):
    if "error" in recorded:
        assert ours.get("error") == recorded["error"], (ours, recorded)
        plain = re.sub(r"\x1b\[[0-9;]*m", "", recorded["message"])       # Keras wraps call errors in bold
        plain = re.sub(r" with name '[^']*'", "", plain)                 # and names unnamed inputs 'None'
        def unnumbered(text):          # auto-generated layer names count differently ('conv_4')
            return re.sub(r"layer '([a-z0-9_]*?)(_\d+)?'", r"layer '\1'", text)
        assert unnumbered(ours["message"]) in unnumbered(plain), (ours["message"], plain)
        return
    assert "error" not in ours, ours
    if "made" in recorded:
        assert ours == recorded
        return
    assert ours["shape"] == recorded["shape"] and ours.get("dtype") == recorded.get("dtype"), (ours, recorded)
    if "dtype" in recorded:
        np.testing.assert_allclose(ours["value"], recorded["value"], rtol=1e-5, atol=1e-5)
    else:
        assert ours["value"] == recorded["value"]


@pytest.mark.parametrize("group,name", [(group, name) for group in CASES for name in RECORDED[group]])
def test_matches_tensorflow(group, name):
    tf.keras.utils.set_random_seed(0)
    check(spec.outcome(lambda: CASES[group][name](tf.keras, tf)), RECORDED[group][name])


@pytest.mark.parametrize("name", list(RECORDED["gradients"]))
def test_gradient_matches_tensorflow(name):
    check(spec.gradient(tf, spec.GRADIENTS[name]), RECORDED["gradients"][name])


@pytest.mark.parametrize("op", [
    lambda x: interpolate(x, 5, 3), lambda x: interpolate(x, 2, 5, "bicubic"), lambda x: interpolate(x, 2, 3, "area"),
    lambda x: interpolate(x, 7, 2, "nearest"), lambda x: tf.image.adjust_contrast(x, 1.7),
    lambda x: tf.image.rot90(tf.image.flip_left_right(x), 1),
    lambda x: tf.image.central_crop(tf.image.resize_with_crop_or_pad(x, 5, 2), 0.6),
], ids=["bilinear", "bicubic", "area", "nearest", "adjust_contrast", "rot90_flip", "crops"])
def test_image_gradients_against_finite_differences(op):
    """In float64 (``resize`` itself computes in float32, as TF's does: its resampling is checked here)."""
    check_gradients(op, np.random.default_rng(0).uniform(size=(2, 4, 3, 2)))
