"""Issue #25's sequence and image layers against TensorFlow 2.21's Keras (3.15) on fixed weights: outputs,
gradients of a weighted sum with respect to every input and weight, weight paths and shapes, parameter counts;
a transformer block's loss and gradients, plain and under ``tf.recompute_grad``.

The figures are in tests/data/tf_attention.json, written by tests/record_tf_attention.py from the same cases.
"""
import json

import numpy as np
import pytest

import minitape as tf
import record_tf_attention as spec
from recorded_keras import minitape_runs, same
from minitape.course.gradcheck import check_gradients
from test_conv import first_derivatives

RECORDED = json.loads(spec.OUT.read_text())
ours = minitape_runs(spec)
REFUSALS = [name for name in spec.CASES if name.startswith("refuses_")]
LAYER_CASES = [name for name in spec.CASES
               if name not in ("dropout_on_sequences", "transformer", "summary", *REFUSALS)]


def close(a, b, tol=2e-5):
    """Nested lists of numbers equal within ``tol`` (relative to the largest entry); None matches None."""
    if a is None or b is None:
        return a is b
    a, b = np.asarray(a, float), np.asarray(b, float)
    return a.shape == b.shape and np.allclose(a, b, rtol=tol, atol=tol * (1 + np.abs(b).max(initial=0)))


@pytest.mark.parametrize("case", LAYER_CASES)
def test_layer_matches_keras(case):
    mine, theirs = ours(case), RECORDED[case]
    assert mine["weights"] == theirs["weights"] and mine["params"] == theirs["params"]
    assert len(mine["outputs"]) == len(theirs["outputs"])
    for a, b in zip(mine["outputs"], theirs["outputs"]):
        assert close(a, b), case
    for i, (a, b) in enumerate(zip(mine["grads"], theirs["grads"], strict=True)):
        assert close(a, b), (case, i)


@pytest.mark.parametrize("case", REFUSALS)
def test_refuses_what_keras_refuses(case):
    assert RECORDED[case] != "accepted" and ours(case) == RECORDED[case]


def test_dropout_on_sequences_shares_its_mask_along_the_steps():
    assert ours("dropout_on_sequences") == RECORDED["dropout_on_sequences"]


def test_transformer_block_recomputed_equals_plain_and_keras():
    mine, theirs = ours("transformer"), RECORDED["transformer"]
    assert mine["paths"] == theirs["paths"]
    assert mine["recompute"]["loss"] == mine["plain"]["loss"]
    for a, b in zip(mine["recompute"]["grads"], mine["plain"]["grads"], strict=True):
        assert np.array_equal(a, b)
    assert same(mine["plain"]["loss"], theirs["plain"]["loss"], tol=1e-5)
    assert same(theirs["recompute"]["loss"], theirs["plain"]["loss"], tol=1e-6)
    for a, b in zip(mine["plain"]["grads"], theirs["recompute"]["grads"], strict=True):
        assert close(a, b, tol=1e-4)


def test_summary_counts_parameters_as_keras():
    assert ours("summary") == RECORDED["summary"]


def test_conv2d_transpose_is_the_transpose_of_conv2d():
    # <conv2d(u), g> = <u, conv2d_transpose(g)> for the same filters, strides and padding.
    u, w = tf.constant(spec.seq(2, 7, 6, 3)), tf.constant(spec.seq(3, 2, 3, 4, seed=2))
    g = tf.constant(spec.seq(2, 4, 3, 4, seed=3))
    left = tf.reduce_sum(tf.nn.conv2d(u, w, 2, "SAME") * g)
    right = tf.reduce_sum(u * tf.nn.conv2d_transpose(g, w, (2, 7, 6, 3), 2, "SAME"))
    assert abs(float(left) - float(right)) < 1e-4


@pytest.mark.parametrize("output_shape,padding", [((1, 4, 6, 2), "SAME"), ((1, 5, 7, 2), "VALID")])
def test_conv2d_transpose_gradients_first_and_second_order(output_shape, padding):
    x, w = spec.seq(1, 2, 3, 2), spec.seq(3, 3, 2, 2, seed=2)
    transpose = lambda a, b: tf.nn.conv2d_transpose(a, b, output_shape, 2, padding)  # noqa: E731
    check_gradients(transpose, x, w)
    check_gradients(first_derivatives(transpose), x, w, rtol=1e-4)
