"""Sorting, segment sums, cumprod, round and eager control flow answer as TensorFlow 2.21 does (issue #25).

Each case of ``tests/record_tf_sorting_control.py`` runs here with ``tf`` bound to minitape and is compared with
what TF answered (``tests/data/tf_sorting_control.json``): values, shapes, dtypes and gradients; for errors the
type, and TF's words (without the kernel's ``{{function_node ...}}`` and ``[Op:...]`` wrapping) inside minitape's,
except the ``TYPE_ONLY`` cases, whose TF text is a dump of its internals.  Then finite differences, first and
second order, for every differentiable op here.
"""
from __future__ import annotations

import json
import pathlib
import re

import numpy as np
import pytest

import minitape as tf
import record_tf_sorting_control as spec
from minitape.course.gradcheck import check_gradients

RECORDED = json.loads((pathlib.Path(__file__).parent / "data" / "tf_sorting_control.json").read_text())
CASES = [(group, name) for group, cases in spec.GROUPS.items() if group != "zero_gradients" for name in cases]


def core(text: str) -> str:
    text = re.sub(r"^\{\{function_node [^}]*\}\} ", "", text)
    return re.sub(r" \[Op:\w+\].*$", "", text, flags=re.S)


def same(ours, theirs, path: str, type_only: bool) -> None:
    if isinstance(theirs, dict) and "error" in theirs:
        assert isinstance(ours, dict) and "error" in ours, f"{path}: TF raised {theirs}, minitape gave {ours}"
        assert ours["error"] == theirs["error"], f"{path}: {ours} vs TF's {theirs}"
        if not type_only:
            assert core(theirs["text"]) in ours["text"], f"{path}: {ours['text']!r} vs TF's {theirs['text']!r}"
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and "value" in ours, f"{path}: TF gave a tensor, minitape {ours}"
        assert (ours["dtype"], ours["shape"]) == (theirs["dtype"], theirs["shape"]), f"{path}: {ours} vs TF's {theirs}"
        np.testing.assert_allclose(np.array(ours["value"], float), np.array(theirs["value"], float),
                                   rtol=1e-6, equal_nan=True, err_msg=path)
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), f"{path}: {ours} vs TF's {theirs}"
        for k, (a, b) in enumerate(zip(ours, theirs)):
            same(a, b, f"{path}[{k}]", type_only)
    else:
        assert ours == theirs, f"{path}: {ours!r} vs TF's {theirs!r}"


@pytest.mark.parametrize("group", sorted(spec.GROUPS))
def test_every_case_was_recorded(group):
    assert sorted(RECORDED[group]) == sorted(spec.GROUPS[group])


@pytest.mark.parametrize("group, name", CASES, ids=[f"{group}-{name}" for group, name in CASES])
def test_minitape_answers_as_tf(group, name):
    ours = spec.run(tf, spec.GROUPS[group][name])
    same(ours, RECORDED[group][name], name, type_only=name in spec.TYPE_ONLY)


def test_cumprod_gradient_is_exact_where_x_holds_a_zero():
    """TF's gradient divides by x (div_no_nan), so it is 0 at the 0: wrong.  minitape's is each product without x[i]."""
    ours = spec.run(tf, spec.ZERO_GRADIENTS["cumprod_grad_with_zero"])
    theirs = RECORDED["zero_gradients"]["cumprod_grad_with_zero"]
    same(ours[0], theirs[0], "value", False)
    # y = [2, 0, 0, 0] weighted by 1..4: dL/dx1 = 2*2 + 3*2*3 + 4*2*3*4 = 118, the others see only y[0].
    np.testing.assert_allclose(ours[1]["value"], [1.0, 118.0, 0.0, 0.0])
    assert theirs[1]["value"][1] == 0.0


def test_errors_say_what_to_do():
    cases = [(lambda: tf.math.top_k([1.0, 2.0], 3), "at most"), (lambda: tf.sort([1.0], direction="up"), "capitals"),
             (lambda: tf.math.segment_sum([1.0, 2.0], [1, 0]), "unsorted_segment_sum"),
             (lambda: tf.scan(lambda a, e: a + e, tf.zeros((0,))), "initializer")]
    for call, advice in cases:
        with pytest.raises(Exception) as caught:
            call()
        assert advice in caught.value.__notes__[0], caught.value.__notes__


def test_round_has_no_gradient_and_segment_sum_ints_none():
    x = tf.constant([0.4, 1.6])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.round(x) * x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [0.0, 2.0])    # only through the second factor


def second_order(f, *args):
    """Finite differences of the gradient of ``sum(f(x) * w)``: the tape's second derivatives."""
    rng = np.random.default_rng(1)

    def gradient(*tensors):
        with tf.GradientTape() as tape:
            tape.watch(list(tensors))
            y = f(*tensors)
            loss = tf.reduce_sum(y * tf.constant(rng_weights(y.shape)))
        return tape.gradient(loss, tensors[0])

    weights = {}

    def rng_weights(shape):
        return weights.setdefault(tuple(shape), rng.normal(size=tuple(shape)))

    check_gradients(lambda *t: gradient(*t) * gradient(*t), *args)


MATRIX = np.array([[0.3, -1.2, 0.8, 2.1], [1.5, 0.1, -0.7, 0.9], [-0.4, 1.1, 0.6, -1.9]])
WITH_ZEROS = np.array([[0.0, 1.5, -0.7, 2.0], [1.2, 0.0, 0.0, 0.8], [0.9, -1.3, 0.5, 0.0]])
DIFFERENTIABLE = {
    "top_k": lambda a: tf.math.top_k(a, 2).values,
    "sort_axis_0": lambda a: tf.sort(a, axis=0),
    "sort_descending": lambda a: tf.sort(a, direction="DESCENDING"),
    "segment_sum": lambda a: tf.math.segment_sum(a, [0, 0, 2]) * tf.math.segment_sum(a, [0, 1, 2]),
    "unsorted_segment_sum": lambda a: tf.math.unsorted_segment_sum(a * a, [1, -1, 1], 2),
    "cumprod_axis_1": lambda a: tf.math.cumprod(a, axis=1),
    "cumprod_exclusive": lambda a: tf.math.cumprod(a, axis=1, exclusive=True),
    "cumprod_reverse": lambda a: tf.math.cumprod(a, axis=0, reverse=True),
    "cumprod_exclusive_reverse": lambda a: tf.math.cumprod(a, axis=1, exclusive=True, reverse=True),
    "cumsum_exclusive_reverse": lambda a: tf.cumsum(a * a, axis=1, exclusive=True, reverse=True),
    "cond": lambda a: tf.cond(tf.reduce_sum(a) > 0, lambda: a * a, lambda: -a),
    "map_fn": lambda a: tf.map_fn(lambda r: tf.sin(r) * tf.reduce_sum(r), a),
    "scan": lambda a: tf.scan(lambda t, e: t * e + tf.sin(e), a),
    "scan_reverse_initializer": lambda a: tf.scan(lambda t, e: t * e, a, initializer=tf.ones(4, tf.float64),
                                                  reverse=True),
    "vectorized_map": lambda a: tf.vectorized_map(lambda r: tf.tanh(r) * tf.reduce_sum(r * r), a),
}
ZEROS_TOO = {"cumprod_axis_1", "cumprod_exclusive", "cumprod_reverse", "cumprod_exclusive_reverse"}


@pytest.mark.parametrize("name", sorted(DIFFERENTIABLE))
def test_gradients_match_finite_differences(name):
    f = DIFFERENTIABLE[name]
    for x in ([MATRIX, WITH_ZEROS] if name in ZEROS_TOO else [MATRIX]):
        check_gradients(f, x)
        second_order(f, x)
