"""Where TensorFlow 2.21 refuses a value, minitape refuses it too; where a window leaves nothing, both return it empty
(issue #23).

Each case of ``tests/record_tf_refusals.py`` runs here with ``tf`` bound to minitape and is compared with what TF
answered (``tests/data/tf_refusals.json``): values, shapes and dtypes; for errors the type, and the text: TF's exactly,
except for conv2d and the pools, whose errors lead with the op's name and end with what to do, around TF's words.
A gradient through an empty output is zeros: TF's filter gradient (and max-pool's) there is uninitialised memory, so
only its shape is compared, and minitape's must be zeros.
"""
from __future__ import annotations

import json
import pathlib
import re

import numpy as np
import pytest

import minitape as tf
import record_tf_refusals as spec

RECORDED = json.loads((pathlib.Path(__file__).parent / "data" / "tf_refusals.json").read_text())
#: The groups whose errors say TF's words inside minitape's own (op first, advice after).
WORDED = {"conv2d", "pools"}


def core(text: str) -> str:
    """TF's words without the kernel's wrapping (``{{function_node ...}}``, ``[Op:...] name: ...``), typo mended."""
    text = re.sub(r"^\{\{function_node [^}]*\}\} ", "", text)
    return re.sub(r" \[Op:\w+\].*$", "", text).replace("stricly", "strictly")


def same(ours, theirs, path: str, worded: bool, empty: bool = False) -> None:
    """Assert that minitape's plain result is TF's recorded one (``empty``: values after an empty output are zeros)."""
    if isinstance(theirs, dict) and "error" in theirs:
        assert isinstance(ours, dict) and "error" in ours, f"{path}: TF raised {theirs}, minitape gave {ours}"
        assert ours["error"] == theirs["error"], f"{path}: {ours} vs TF's {theirs}"
        if worded:
            assert core(theirs["text"]) in ours["text"], f"{path}: {ours['text']!r} vs TF's {theirs['text']!r}"
        else:
            assert ours["text"] == theirs["text"], path
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and "value" in ours, f"{path}: TF gave a tensor, minitape {ours}"
        assert (ours["dtype"], ours["shape"]) == (theirs["dtype"], theirs["shape"]), f"{path}: {ours} vs TF's {theirs}"
        if empty and theirs["dtype"].startswith("float"):      # not the filters' gradient's shape
            assert not np.any(ours["value"]), f"{path}: a gradient through an empty output must be zeros"
        else:
            np.testing.assert_array_equal(np.array(ours["value"]), np.array(theirs["value"]), err_msg=path)
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), f"{path}: {ours} vs TF's {theirs}"
        nothing_out = bool(theirs) and isinstance(theirs[0], dict) and 0 in theirs[0].get("shape", [1])
        for k, (a, b) in enumerate(zip(ours, theirs)):
            same(a, b, f"{path}[{k}]", worded, empty=nothing_out and k > 0)
    else:
        assert ours == theirs, f"{path}: {ours!r} vs TF's {theirs!r}"


CASES = [(group, name) for group, cases in spec.GROUPS.items() for name in cases]


@pytest.mark.parametrize("group", sorted(spec.GROUPS))
def test_every_case_was_recorded(group):
    assert sorted(RECORDED[group]) == sorted(spec.GROUPS[group])


@pytest.mark.parametrize("group, name", CASES, ids=[f"{group}-{name}" for group, name in CASES])
def test_minitape_answers_as_tf(group, name):
    """Each case as TF answered it:

    * ``constants``: an int beyond int64 and (when the dtype is inferred) a float beyond float32 are refused, and so
      is a bool among numbers; big-endian NumPy arrays are read in the machine's byte order;
    * ``ranges``: a delta that steps away from the limit is refused; ``diagonals``: so is a k outside the matrix;
    * ``scatter_div``: a 0 among the updates is refused, for floats and ints, and the variable keeps its value;
    * ``conv2d`` and ``pools``: a window up to a stride too big gives an empty output and zero gradients.
    """
    ours = spec.run(tf, spec.GROUPS[group][name])
    same(ours, RECORDED[group][name], name, worded=group in WORDED)


def test_gradients_through_an_empty_output_are_zeros_of_the_inputs_shape():
    """The filters' gradient too (TF's is uninitialised memory there), and second derivatives."""
    x, w = tf.ones((1, 2, 2, 1), tf.float64), tf.ones((3, 3, 1, 2), tf.float64)
    with tf.GradientTape(persistent=True) as outer:
        outer.watch([x, w])
        with tf.GradientTape() as inner:
            inner.watch([x, w])
            y = tf.nn.conv2d(x, w, 2, "VALID") + tf.reduce_sum(tf.nn.max_pool2d(x, 3, 1, "VALID"))
        gx, gw = inner.gradient(y, [x, w])
    assert y.shape == (1, 0, 0, 2)
    for gradient, source in ((gx, x), (gw, w), (outer.gradient(gx, w), w), (outer.gradient(gw, x), x)):
        assert gradient.shape == source.shape and not np.any(gradient.numpy())


def test_refusals_say_what_to_do():
    """TF's text in str(error); what to do in a note."""
    cases = [(lambda: tf.constant(2**63), "64 bits"), (lambda: tf.constant(1e40), "tf.float64"),
             (lambda: tf.constant([True, 2]), "tf.int32"), (lambda: tf.range(5, 1), "negative delta"),
             (lambda: tf.linalg.diag_part(tf.ones((2, 3)), k=5), "from -1 to 2"),
             (lambda: tf.Variable([1.0]).scatter_div(tf.IndexedSlices([0.0], [0])), "none may be 0")]
    for call, advice in cases:
        with pytest.raises((ValueError, tf.errors.InvalidArgumentError)) as caught:
            call()
        assert advice in caught.value.__notes__[0], caught.value.__notes__
