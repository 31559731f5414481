"""The tape's corners, as TensorFlow 2.21 answers them (issue #17 [dialect]).

Each case is run here with ``tf`` bound to minitape and compared with what TF 2.21 answered
for the same lines, recorded by ``tests/record_tf_corners.py`` into ``tests/data/tf_corners.json``:
values (None stays None, zeros stay zeros), dtypes, and, for errors, the type and ``str(error)``
exactly.  Only what cannot be the same is rewritten before comparing: TF's class names in a
tensor's repr or an ``AttributeError``, and object addresses.
"""
from __future__ import annotations

import json
import pathlib
import re
import sys

import numpy as np
import pytest

import minitape as tf
import record_tf_corners as spec

RECORDED = json.loads((pathlib.Path(__file__).parent / "data" / "tf_corners.json").read_text())

#: TF's words that name TF's own classes or frames, and minitape's for the same thing.
SPELLINGS = [
    ("<tf.Tensor:", "<minitape.Tensor:"),
    ("'tensorflow.python.framework.ops.EagerTensor' object", "'Tensor' object"),
    ("strided_slice.<locals>.assign()", "assign_slice()"),
]


def as_minitape_says(text: str) -> str:
    """TF's text with TF's class names spelled as minitape's, and without object addresses."""
    for theirs, ours in SPELLINGS:
        text = text.replace(theirs, ours)
    return re.sub(r" at 0x[0-9a-f]+", "", text)


def same(ours, theirs, path: str = "result") -> None:
    """Assert that minitape's plain result equals TF's recorded one."""
    if isinstance(theirs, dict) and "error" in theirs:
        assert isinstance(ours, dict) and "error" in ours, f"{path}: TF raised {theirs}, minitape gave {ours}"
        assert ours["error"] == theirs["error"], f"{path}: {ours} vs TF's {theirs}"
        assert re.sub(r" at 0x[0-9a-f]+", "", ours["text"]) == as_minitape_says(theirs["text"]), path
    elif isinstance(theirs, dict) and "value" in theirs:
        assert isinstance(ours, dict) and "value" in ours, f"{path}: TF gave a tensor, minitape {ours}"
        assert ours["dtype"] == theirs["dtype"], path
        np.testing.assert_allclose(ours["value"], theirs["value"], rtol=1e-5, atol=1e-6, err_msg=path)
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), f"{path}: {ours} vs TF's {theirs}"
        for k, (a, b) in enumerate(zip(ours, theirs)):
            same(a, b, f"{path}[{k}]")
    else:
        assert ours == theirs, f"{path}: {ours} vs TF's {theirs}"       # None, or a bool


CASES = [(group, name, code) for group in spec.GROUPS for name, code in spec.GROUPS[group][1].items()]


@pytest.mark.parametrize("group", sorted(spec.GROUPS))
def test_every_case_was_recorded(group):
    assert sorted(RECORDED[group]) == sorted(spec.GROUPS[group][1])


@pytest.mark.parametrize("group, name, code", CASES, ids=[f"{group}-{name}" for group, name, _ in CASES])
def test_minitape_answers_as_tf(group, name, code):
    """Each case after its group's setup (``spec.GROUPS``), as TF answered it:

    * ``targets``: d(x)/dx is ones, watched or not (TF's autodiff guide: ``result = v0`` gives dv0 = 1);
      a spent non-persistent tape still lists its watched variables;
    * ``second``: relu's (and abs's, max-pooling's...) second derivative is zeros; maximum's, sign's... None;
    * ``errors``: batch_jacobian, unconnected_gradients, assign and two dtypes: str(error) is TF's, exactly;
    * ``sliced``: ``v[key].assign(value)``: values, what was read before, errors;
    * ``methods``: a custom gradient on a method: ``self`` is bound, not an input, so grad_fn returns one
      gradient per tensor argument.
    """
    same(spec.run(tf, spec.GROUPS[group][0], code), RECORDED[group][name], name)


def test_errors_carry_advice_in_a_note():
    """TF's text in str(error); what to do in the note the traceback prints (``__notes__`` on 3.10 too)."""
    with pytest.raises(tf.errors.InvalidArgumentError) as caught:
        tf.ones(2) + tf.ones(2, tf.float64)
    assert caught.value.__notes__ == ["add: minitape never converts dtypes silently; use tf.cast(x, tf.float32) "
                                      "on one of the inputs."]
    with pytest.raises(ValueError) as caught:
        tf.Variable([1.0, 2.0]).assign([1.0, 2.0, 3.0])
    assert "v[1:3].assign(value)" in caught.value.__notes__[0]
    if sys.version_info >= (3, 11):
        import traceback
        shown = "".join(traceback.format_exception(caught.value))
        assert "Shape mismatch.The variable shape (2,)" in shown and "v[1:3].assign(value)" in shown


def test_a_slice_assignment_aliases_nothing():
    """Neither the slice, nor a tensor read before, nor the value given changes when the variable does."""
    given = np.array([7.0, 8.0], np.float32)
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    before, part = v.read_value(), v[0]
    v[0].assign(given)
    given[:] = 0.0
    v[1, 1].assign(40.0)
    np.testing.assert_array_equal(v.numpy(), [[7.0, 8.0], [3.0, 40.0]])
    np.testing.assert_array_equal(before.numpy(), [[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(part.numpy(), [1.0, 2.0])
