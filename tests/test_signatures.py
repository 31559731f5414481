"""Every public function takes its positional arguments in TF 2.21's order (issue #23 [correctness]).

``tf.gather(params, indices, 1)`` once read 1 as the axis, where TF reads ``validate_indices``: a
silent wrong answer.  ``tests/record_tf_signatures.py`` records TF's parameters for each public name
of ``minitape``, ``.math``, ``.nn``, ``.linalg`` and ``.random`` that TF has, in
``tests/data/tf_signatures.json``.  minitape's parameters that can be given by position must be
TF's first ones, with the same names, in the same order (minitape may accept fewer; keywords are
free).  Deliberate differences are listed in ``DIFFERENT`` with the reason.
"""
from __future__ import annotations

import inspect
import json
import pathlib

import pytest

import minitape as tf

RECORDED = json.loads((pathlib.Path(__file__).parent / "data" / "tf_signatures.json").read_text())
POSITIONAL = ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")

#: (namespace, name): why minitape's positional parameters differ from TF's.
DIFFERENT: dict[tuple[str, str], str] = {
    ("", "DType"): "TF's DType is built from its enum by TF's runtime; minitape's from a name, and users never call it",
    ("", "Tensor"): "TF's tf.Tensor cannot be called (make one with tf.constant); minitape's wraps an array",
}


def positional(parameters: list[list[str]]) -> list[str]:
    """The names that can be given by position, up to the first ``*args`` or keyword-only one."""
    names = []
    for name, kind in parameters:
        if kind not in POSITIONAL:
            break
        names.append(name)
    return names


def namespace(space: str):
    module = tf
    for part in filter(None, space.split(".")):
        module = getattr(module, part)
    return module


def ours(space: str, name: str) -> list[list[str]]:
    signature = inspect.signature(getattr(namespace(space), name))
    return [[p.name, p.kind.name] for p in signature.parameters.values()]


CASES = sorted((space, name) for space, names in RECORDED.items() for name in names)


def test_the_recording_covers_minitape_public_names():
    assert len(CASES) > 150
    assert ("", "gather") in CASES and ("nn", "softmax_cross_entropy_with_logits") in CASES


@pytest.mark.parametrize("space, name", CASES, ids=[f"{s or 'tf'}.{n}" for s, n in CASES])
def test_positional_parameters_are_tfs(space, name):
    mine, theirs = positional(ours(space, name)), positional(RECORDED[space][name])
    if (space, name) in DIFFERENT:          # still different, or it comes off the list
        assert mine != theirs[:len(mine)], f"{space}.{name} now takes TF's order: remove it from DIFFERENT"
        return
    assert mine == theirs[:len(mine)], f"tf.{space + '.' if space else ''}{name}: minitape takes {mine} by " \
                                       f"position, TF {theirs}"


def test_matmul_takes_tfs_adjoint_flags_by_position():
    """matmul's fifth and sixth positional arguments are adjoint_a and adjoint_b (the transpose, for reals)."""
    a, b = tf.constant([[1.0, 2.0]]), tf.constant([[3.0, 4.0]])
    assert tf.matmul(a, b, False, False, False, True).numpy().tolist() == [[11.0]]
    assert tf.matmul(a, b, adjoint_a=True).numpy().tolist() == [[3.0, 4.0], [6.0, 8.0]]
    with pytest.raises(ValueError, match="Only one of `transpose_a` and `adjoint_a` can be True"):
        tf.matmul(a, b, transpose_a=True, adjoint_a=True)


def test_keywords_take_tfs_names():
    x = tf.constant([[1.0, 2.0]])
    assert tf.linalg.adjoint(matrix=x).shape == (2, 1)
    assert tf.transpose(x, None, False).shape == (2, 1)                     # conjugate, third
    assert tf.as_dtype(type_value="float64") is tf.float64
    with tf.device(device_name="CPU:0"):
        assert tf.Variable(1.0, True, name="v").name == "v:0"
    with pytest.raises(TypeError):
        tf.Variable(1.0, True, "v")                     # TF's third is validate_shape, never the name


@pytest.mark.parametrize("function, keyword", [
    (tf.nn.relu, "features"), (tf.nn.relu6, "features"), (tf.nn.elu, "features"), (tf.nn.selu, "features"),
    (tf.nn.softplus, "features"), (tf.math.softplus, "features"), (tf.identity, "input"),
    (tf.stop_gradient, "input"), (tf.sin, "x"), (tf.math.logical_not, "x")])
def test_one_input_ops_take_tfs_keyword(function, keyword):
    """``tf.nn.relu(features=x)``: the unary builder names each op's input as TF does (as TF's, name= too)."""
    x = tf.constant([True]) if function is tf.math.logical_not else tf.constant([-1.0, 2.0])
    assert function(**{keyword: x}, name="op").numpy().tolist() == function(x).numpy().tolist()
