"""What a fresh adversarial pass over the session's additions found (issue #23), each answered as TF 2.21 does.

About 1,900 random calls of the new ops (split ... cumprod, segment sums, sorting, scatter, gather's batch_dims,
bitwise and bool operators) were compared with TF and with float64 finite differences (first and second
derivatives).  The cases here are the disagreements that were fixed; ``tests/record_tf_adversarial.py`` recorded
TF's answers in ``tests/data/tf_adversarial.json``.  Errors compare type, and TF's words inside minitape's text.
"""
from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import minitape as tf
import record_tf_adversarial as spec
from record_tf_refusals import run
from test_refusals_tf import core

RECORDED = json.loads((pathlib.Path(__file__).parent / "data" / "tf_adversarial.json").read_text())
CASES = [(group, name) for group, cases in spec.GROUPS.items() for name in cases]
#: Errors whose text is minitape's own, as for the same refusal elsewhere (float indices; bool in add): type only.
OWN_WORDS = {"bool_plus_1", "segment_sum_empty_float_ids", "gather_empty_float_indices"}


def same(ours, theirs, path: str, words: bool = True) -> None:
    if isinstance(theirs, dict) and "error" in theirs:
        assert isinstance(ours, dict) and "error" in ours, f"{path}: TF raised {theirs}, minitape gave {ours}"
        assert ours["error"] == theirs["error"], f"{path}: {ours} vs TF's {theirs}"
        assert not words or core(theirs["text"]).split("\n")[0] in ours["text"], f"{path}: {ours['text']!r} vs {theirs['text']!r}"
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and "value" in ours, f"{path}: TF gave a tensor, minitape {ours}"
        assert (ours["dtype"], ours["shape"]) == (theirs["dtype"], theirs["shape"]), f"{path}: {ours} vs {theirs}"
        np.testing.assert_array_equal(np.array(ours["value"]), np.array(theirs["value"]), err_msg=path)
    else:
        assert isinstance(ours, list) and len(ours) == len(theirs), f"{path}: {ours} vs TF's {theirs}"
        for k, (a, b) in enumerate(zip(ours, theirs)):
            same(a, b, f"{path}[{k}]", words)


@pytest.mark.parametrize("group,name", CASES)
def test_case_answers_as_tf(group: str, name: str) -> None:
    same(run(tf, spec.GROUPS[group][name]), RECORDED[group][name], f"{group}/{name}", name not in OWN_WORDS)


def test_top_k_of_nothing_has_a_gradient_of_zeros() -> None:
    """k = 0 picks nothing: the gradient back to x is zeros (it was NumPy's "cannot reshape array of size 0")."""
    x = tf.reshape(tf.range(6.0, dtype=tf.float64), (2, 3))
    with tf.GradientTape() as tape:
        tape.watch(x)
        values = tf.math.top_k(x, 0).values
    gradient = tape.gradient(tf.reduce_sum(values), x)
    assert values.shape == (2, 0)
    assert gradient is None or (gradient.shape == (2, 3) and not np.any(gradient.numpy()))


def test_a_refused_number_says_what_to_do() -> None:
    with pytest.raises(TypeError) as caught:
        tf.constant([True, False]) == 3
    assert "equal" in " ".join(getattr(caught.value, "__notes__", []))
