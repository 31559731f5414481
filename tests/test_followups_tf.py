"""Follow-ups of issues #23 [correctness] and #24 [training], each answered as TF 2.21 (Keras 3) does.

``tests/record_tf_followups.py`` recorded TF's answers in ``tests/data/tf_followups.json``; values and dtypes
compare exactly, errors by type and TF's words (as ``test_adversarial_regressions.same`` does).
"""
from __future__ import annotations

import json
import warnings
import pathlib

import numpy as np
import pytest

import minitape as tf
import record_tf_followups as spec
from record_tf_refusals import run
from test_adversarial_regressions import same

RECORDED = json.loads((pathlib.Path(__file__).parent / "data" / "tf_followups.json").read_text())
#: Refusals whose text is minitape's own, as for every binary op (the dtypes named, and what to do): type only.
OWN_WORDS = {"bitwise_and_bools", "bitwise_and_floats", "right_shift_floats", "left_shift_mixed", "logical_and_ints"}


@pytest.mark.parametrize("name", sorted(spec.LOGIC))
def test_logic_and_bitwise_ops_answer_as_tf(name: str) -> None:
    same(run(tf, spec.LOGIC[name]), RECORDED["logic"][name], f"logic/{name}", name not in OWN_WORDS)


@pytest.mark.parametrize("name", sorted(spec.OVERFLOW))
def test_numbers_past_the_dtype_give_tfs_value_without_a_warning(name: str) -> None:
    """``tf.ones(2) * 1e40`` is inf and ``int8 + 300`` wraps, as in TF, which prints nothing: no NumPy RuntimeWarning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours = run(tf, spec.OVERFLOW[name])
    same(ours, RECORDED["overflow"][name], f"overflow/{name}")


def close(ours, theirs, path: str) -> None:
    """Keras floats: the dtype and shape TF's, the values within 1e-6; lists item by item; strings and errors
    (type and TF's words) as ``same`` compares them."""
    if isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), f"{path}: {ours} vs TF's {theirs}"
        for k, (a, b) in enumerate(zip(ours, theirs)):
            close(a, b, f"{path}[{k}]")
        return
    if isinstance(theirs, str) or "error" in theirs:
        assert ours == theirs if isinstance(theirs, str) else same(ours, theirs, path) is None, f"{path}: {ours}"
        return
    assert isinstance(ours, dict) and "value" in ours, f"{path}: TF gave a tensor, minitape {ours}"
    assert (ours["dtype"], ours["shape"]) == (theirs["dtype"], theirs["shape"]), f"{path}: {ours} vs {theirs}"
    np.testing.assert_allclose(np.array(ours["value"]), np.array(theirs["value"]), atol=1e-6, err_msg=path)


@pytest.mark.parametrize("name", sorted(spec.KERAS))
def test_keras_layers_answer_as_keras_3(name: str) -> None:
    close(run(tf, spec.KERAS[name]), RECORDED["keras"][name], f"keras/{name}")
