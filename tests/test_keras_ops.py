"""``keras.ops`` against Keras 3.15's own (TensorFlow backend): values, dtypes, shapes and result types of every
case in tests/record_keras_ops.py (recorded in tests/data/keras_ops.json), and float64 finite-difference
gradients for a representative subset.
"""
import json

import numpy as np
import pytest

import minitape as tf
import record_keras_ops as spec
from minitape.course.gradcheck import check_gradients
from minitape.keras import ops

RECORDED = json.loads(spec.OUT.read_text())["cases"]


def same(ours, theirs, where="result"):
    """Assert ``ours`` (described as the recorder describes) matches the recorded description."""
    assert ours.keys() == theirs.keys(), f"{where}: {ours} vs {theirs}"
    if "items" in theirs:
        assert ours["sequence"] == theirs["sequence"] and len(ours["items"]) == len(theirs["items"]), where
        for k, (a, b) in enumerate(zip(ours["items"], theirs["items"])):
            same(a, b, f"{where}[{k}]")
    elif "python" in theirs:
        assert ours == theirs, where
    else:
        described = [(d["dtype"], d["shape"], d["type"]) for d in (ours, theirs)]
        assert described[0] == described[1], f"{where}: {described[0]} vs {described[1]}"
        a = np.array(ours["value"], dtype=float if theirs["dtype"].startswith("float") else None)
        b = np.array(theirs["value"], dtype=float if theirs["dtype"].startswith("float") else None)
        np.testing.assert_allclose(a, b, rtol=2e-6, atol=1e-6, err_msg=where)


@pytest.mark.parametrize("name", list(spec.CASES))
def test_as_keras_3(name):
    same(spec.describe(spec.CASES[name](ops), ops), RECORDED[name], name)


def test_every_case_recorded():
    assert set(RECORDED) == set(spec.CASES)


X = np.array([[0.3, -0.7, 1.1], [0.2, 0.5, -0.4]])
GRADIENT_CASES = {
    "mean": lambda x: ops.mean(x, axis=1, keepdims=True),
    "std": lambda x: ops.std(x, axis=0),
    "square_sqrt": lambda x: ops.sqrt(ops.square(x) + 1.0),
    "arccos": lambda x: ops.arccos(x * 0.5),
    "arcsin_arctan_tan": lambda x: ops.arcsin(x * 0.5) + ops.arctan(x) + ops.tan(x),
    "sinh_cosh": lambda x: ops.sinh(x) * ops.cosh(x),
    "normalize": lambda x: ops.normalize(x),
    "linalg_norm": lambda x: ops.linalg.norm(x, axis=-1),
    "take_along_axis": lambda x: ops.take_along_axis(x, np.array([[2, 0], [1, 1]]), axis=1),
    "take": lambda x: ops.take(x, [5, 0, -2]),
    "matmul_einsum": lambda x: ops.matmul(x, ops.transpose(x)) + ops.einsum("ij,ij->i", x, x)[:, None],
    "softmax": lambda x: ops.softmax(x, axis=0),
    "cumsum_flat": lambda x: ops.cumsum(x),
    "where_clip": lambda x: ops.where(x > 0, ops.clip(x, -0.5, 0.9), ops.exp(x)),
    "divide_no_nan": lambda x: ops.divide_no_nan(x, ops.where(x > 0, x + 1.0, 0.0)),
    "scan": lambda x: ops.scan(lambda c, row: (c * row, c + row), ops.ones(3, "float64"), x)[1],
    "crossentropy": lambda x: ops.sparse_categorical_crossentropy([2, 0], x, from_logits=True),
    "binary_crossentropy": lambda x: ops.binary_crossentropy(ops.ones_like(x), ops.sigmoid(x)),
    "tile_concatenate": lambda x: ops.concatenate([ops.tile(x, (1, 2)), x], axis=1),
    "var": lambda x: ops.var(x),
    "logsumexp": lambda x: ops.logsumexp(x * 3.0, axis=1),
    "logaddexp": lambda x: ops.logaddexp(x, ops.flip(x, axis=1)),
    "moveaxis_triu": lambda x: ops.triu(ops.moveaxis(x[:, :, None] * x[:, None, :], 0, -1)[..., 0]),
    "average_weights": lambda x: ops.average(x, axis=1, weights=[1.0, 2.0, 3.0]),
}


@pytest.mark.parametrize("name", list(GRADIENT_CASES))
def test_gradients_match_finite_differences(name):
    check_gradients(GRADIENT_CASES[name], X.copy())


def test_ops_is_the_keras_namespace():
    assert tf.keras.ops.mean is ops.mean and tf.keras.ops.linalg.norm is ops.linalg.norm


def test_shape_of_a_symbolic_input():
    x = tf.keras.Input((4, 2))
    assert (ops.shape(x), ops.ndim(x), ops.dtype(x)) == ((None, 4, 2), 3, "float32")
