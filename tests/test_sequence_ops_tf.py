"""The sequence ops of issue #25 answer as TensorFlow 2.21 does: values, dtypes, gradients and errors.

Each case of ``tests/record_tf_sequence_ops.py`` runs here with ``tf`` bound to minitape and is compared with
what TF answered (``tests/data/tf_sequence_ops.json``).  Errors: the same type, and TF's words (without the
kernel's ``{{function_node ...}}`` and ``[Op:...]`` wrapping) inside minitape's, except where TF's text is the
dump of an op definition (a dtype its kernel is not registered for): there only the type is compared.
"""
from __future__ import annotations

import json
import pathlib
import re

import numpy as np
import pytest

import minitape as tf
import record_tf_sequence_ops as spec

RECORDED = json.loads((pathlib.Path(__file__).parent / "data" / "tf_sequence_ops.json").read_text())
#: TF's text here is an op registry's dump (``NodeDef: ... Op<name=...>``): minitape says it in its own words.
TYPE_ONLY = {"split_zero_count", "split_float_count", "gather_nd_float_indices", "roll_float_shift"}


def core(text: str) -> str:
    """TF's words without the eager runtime's wrapping, and only their first line (a kernel list follows)."""
    text = re.sub(r"^\{\{function_node [^}]*\}\} ", "", text.splitlines()[0])
    return re.sub(r" \[Op:\w+\].*$", "", text).replace("tf.Tensor(", "minitape.Tensor(")


def same(ours, theirs, path: str) -> None:
    if isinstance(theirs, dict) and "error" in theirs:
        assert isinstance(ours, dict) and "error" in ours, f"{path}: TF raised {theirs}, minitape gave {ours}"
        assert ours["error"] == theirs["error"], f"{path}: {ours} vs TF's {theirs}"
        if path.split("[")[0] not in TYPE_ONLY:
            assert core(theirs["text"]) in ours["text"], f"{path}: {ours['text']!r} vs TF's {theirs['text']!r}"
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and "value" in ours, f"{path}: TF gave a tensor, minitape {ours}"
        assert (ours["dtype"], ours["shape"]) == (theirs["dtype"], theirs["shape"]), f"{path}: {ours} vs TF's {theirs}"
        np.testing.assert_allclose(np.array(ours["value"]), np.array(theirs["value"]), rtol=1e-12, err_msg=path)
    else:
        assert isinstance(ours, list) and len(ours) == len(theirs), f"{path}: {ours} vs TF's {theirs}"
        for k, (a, b) in enumerate(zip(ours, theirs)):
            same(a, b, f"{path}[{k}]")


def test_every_case_was_recorded():
    assert sorted(RECORDED) == sorted(spec.CASES)


@pytest.mark.parametrize("name", sorted(spec.CASES))
def test_minitape_answers_as_tf(name):
    same(spec.run(tf, spec.CASES[name]), RECORDED[name], name)
