"""Ops' corners, as TensorFlow 2.21 answers them (issue #23 [correctness]).

Each case of ``tests/record_tf_ops.py`` is run here with ``tf`` bound to minitape and compared
with what TF 2.21 answered, recorded into ``tests/data/tf_ops.json``: values and dtypes, and for
errors the exception's type (TF's text names its kernels' NodeDefs; minitape's names the op, the
argument and what to do).

* ``upstream_zero``/``upstream_one``: d/dc of the gradient of ``c * f(x)``, through sqrt (and norm,
  clip_by_norm, global_norm, batch_normalization): sqrt's gradient is 0 where its upstream gradient
  is 0, but its derivative with respect to that upstream gradient is ``0.5 / sqrt(x)``;
* ``gather``: ``validate_indices`` third, ``axis=None`` meaning ``batch_dims``, batched gathers;
* ``operators``: ``== None`` is False, ``&``, ``|``, ``^``, ``~`` are logical on booleans, bitwise on integers;
* ``labels``: integer labels of ``softmax_cross_entropy_with_logits`` are cast to the logits' dtype.
"""
from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import minitape as tf
import record_tf_ops as spec
from minitape.course.gradcheck import check_gradients
from record_tf_corners import run

RECORDED = json.loads((pathlib.Path(__file__).parent / "data" / "tf_ops.json").read_text())

#: Where minitape deliberately answers otherwise, and why.
DIFFERENT = {
    # TF's Python wrapper ignores batch_dims when axis is 0 and returns a plain gather; its kernel
    # refuses batch_dims above axis for every other axis.  minitape refuses it for axis 0 too.
    ("gather", "batch_dims_above_axis"): "InvalidArgumentError",
}


def same(ours, theirs, path: str = "result") -> None:
    """Assert that minitape's plain result equals TF's recorded one (an error: its type)."""
    if isinstance(theirs, dict) and "error" in theirs:
        assert isinstance(ours, dict) and "error" in ours, f"{path}: TF raised {theirs}, minitape gave {ours}"
        assert ours["error"] == theirs["error"], f"{path}: {ours} vs TF's {theirs}"
    elif isinstance(theirs, dict) and "value" in theirs:
        assert isinstance(ours, dict) and "value" in ours, f"{path}: TF gave a tensor, minitape {ours}"
        assert ours["dtype"] == theirs["dtype"], path
        np.testing.assert_allclose(ours["value"], theirs["value"], rtol=1e-5, atol=1e-6, err_msg=path)
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), f"{path}: {ours} vs TF's {theirs}"
        for k, (a, b) in enumerate(zip(ours, theirs)):
            same(a, b, f"{path}[{k}]")
    else:
        assert ours == theirs and type(ours) is type(theirs), f"{path}: {ours!r} vs TF's {theirs!r}"


CASES = [(group, name, code) for group in spec.GROUPS for name, code in spec.GROUPS[group][1].items()]


@pytest.mark.parametrize("group", sorted(spec.GROUPS))
def test_every_case_was_recorded(group):
    assert sorted(RECORDED[group]) == sorted(spec.GROUPS[group][1])


@pytest.mark.parametrize("group, name, code", CASES, ids=[f"{group}-{name}" for group, name, _ in CASES])
def test_minitape_answers_as_tf(group, name, code):
    ours = run(tf, spec.GROUPS[group][0], code)
    if (group, name) in DIFFERENT:
        assert ours.get("error") == DIFFERENT[group, name], ours
        return
    same(ours, RECORDED[group][name], name)


def test_sqrt_second_derivative_in_the_upstream_gradient_matches_finite_differences():
    """d/dc of d/dx sum(c * sqrt(x)) at c = 0 is 0.5 / sqrt(x), in float64 by central differences."""
    x = tf.constant([4.0, 0.25], dtype=tf.float64)

    def dx(c):
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(c * tf.sqrt(x))
        return inner.gradient(y, x)

    c = tf.constant(0.0, dtype=tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(c)
        total = tf.reduce_sum(dx(c))
    h = 1e-6
    numeric = (tf.reduce_sum(dx(c + h)) - tf.reduce_sum(dx(c - h))).numpy() / (2 * h)
    assert outer.gradient(total, c).numpy() == pytest.approx(numeric, rel=1e-8)
    assert numeric == pytest.approx(0.25 + 1.0)


def test_batched_gather_gradients_match_finite_differences():
    """First and second derivatives of a batched gather, in float64 by central differences."""
    cube = np.arange(24.0).reshape(2, 3, 4) / 7.0
    check_gradients(lambda p: tf.gather(p, [[0, 3], [1, 1]], axis=2, batch_dims=1) ** 2, cube)
    check_gradients(lambda p: tf.gather(p, [[[0], [3], [3]], [[1], [1], [0]]], batch_dims=2) ** 3, cube)

    def gradient(p):
        with tf.GradientTape() as tape:
            tape.watch(p)
            y = tf.reduce_sum(tf.gather(p, [[2, 0, 2], [1, 1, 0]], axis=1, batch_dims=1) ** 3)
        return tape.gradient(y, p)
    check_gradients(gradient, cube)
