"""conv2d, pooling, moments and batch_normalization against TensorFlow 2.21's figures, on every backend.

The figures were recorded once by tests/record_tf_conv.py into tests/data/tf_conv.npz: per
case, the inputs, TF's output, its gradients of ``sum(output * u)``, and for some cases the
second derivative along ``v`` of ``sum(tanh(output) * u)``.
"""
import json
import pathlib

import numpy as np
import pytest

import minitape as tf
from minitape.course.gradcheck import check_gradients

pytestmark = pytest.mark.usefixtures("backend")     # every test here runs on each backend

RECORDED = np.load(pathlib.Path(__file__).parent / "data" / "tf_conv.npz")
CASES = sorted({key.split("/")[0] for key in RECORDED.files if "/" in key})
TOLERANCE = {"float16": 2e-2, "float32": 2e-5, "float64": 1e-10}


def run(op, kwargs, *xs):
    out = getattr(tf.nn, op)(*xs, **kwargs)
    return tf.stack(out) if isinstance(out, tuple) else out


def recorded(name, prefix):
    return [RECORDED[f"{name}/{prefix}{k}"] for k in range(5) if f"{name}/{prefix}{k}" in RECORDED]


def assert_close(actual, expected):
    tolerance = TOLERANCE[expected.dtype.name]
    scale = max(1.0, float(np.max(np.abs(expected))))
    np.testing.assert_allclose(np.asarray(actual, np.float64), expected.astype(np.float64), rtol=tolerance,
                               atol=tolerance * scale)


@pytest.mark.parametrize("name", CASES)
def test_values_and_gradients_match_tensorflow(backend, name):
    """TF 2.21's outputs and gradients (of sum(output * u)) for each recorded case, on each backend."""
    params = json.loads(str(RECORDED[f"{name}/params"]))
    op, kwargs = params["op"], params["kwargs"]
    inputs = recorded(name, "input")
    if getattr(backend.xp, inputs[0].dtype.name, None) is None:
        pytest.skip(f"{backend.name} has no {inputs[0].dtype.name}")
    xs = [tf.constant(x) for x in inputs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        out = run(op, kwargs, *xs)
        loss = tf.reduce_sum(out * tf.constant(RECORDED[f"{name}/u"]))
    assert out.dtype.name == inputs[0].dtype.name
    assert_close(out.numpy(), RECORDED[f"{name}/output"])
    for grad, expected in zip(tape.gradient(loss, xs), recorded(name, "grad")):
        assert grad.dtype.name == expected.dtype.name
        assert_close(grad.numpy(), expected)


@pytest.mark.parametrize("name", [n for n in CASES if f"{n}/second0" in RECORDED and not n.startswith("moments")])
def test_second_derivatives_match_tensorflow(name):
    params = json.loads(str(RECORDED[f"{name}/params"]))
    xs = [tf.constant(x) for x in recorded(name, "input")]
    with tf.GradientTape() as outer:
        outer.watch(xs)
        with tf.GradientTape() as inner:
            inner.watch(xs)
            loss = tf.reduce_sum(tf.tanh(run(params["op"], params["kwargs"], *xs)) * tf.constant(RECORDED[f"{name}/u"]))
        along = tf.reduce_sum(inner.gradient(loss, xs[0]) * tf.constant(RECORDED[f"{name}/v"]))
    for grad, expected in zip(outer.gradient(along, xs), recorded(name, "second")):
        assert_close(grad.numpy(), expected)


def test_moments_second_derivative_is_exact_where_tensorflow_stops_the_mean():
    """TF's variance stops the mean's gradient: its first derivatives are exact, its second are not; minitape's are."""
    name = "moments_channels"
    x, u, v = (RECORDED[f"{name}/{key}"].astype(np.float64) for key in ("input0", "u", "v"))

    def along_v(t):
        with tf.GradientTape() as inner:
            inner.watch(t)
            loss = tf.reduce_sum(tf.tanh(tf.stack(tf.nn.moments(t, [0, 1, 2]))) * tf.constant(u))
        return tf.reduce_sum(inner.gradient(loss, t) * tf.constant(v))

    check_gradients(along_v, x)
    with tf.GradientTape() as outer:
        t = tf.constant(x)
        outer.watch(t)
        ours = outer.gradient(along_v(t), t).numpy()
    difference = ours - RECORDED[f"{name}/second0"]
    assert np.max(np.abs(difference)) > 100 * TOLERANCE["float32"]          # TF's is off...
    np.testing.assert_allclose(difference, np.broadcast_to(difference[:1, :1, :1], x.shape), atol=1e-6)  # by the stopped mean


def test_gradients_on_each_backend():
    """The VJPs' own ops run where the tensors live (check_gradients checks the device of each gradient)."""
    rng = np.random.default_rng(0)
    x, w = rng.uniform(-1, 1, (1, 4, 5, 2)), rng.uniform(-1, 1, (3, 2, 2, 2))
    distinct = rng.permutation(x.size).reshape(x.shape) * 0.05      # no ties in a max-pool window
    check_gradients(lambda a, b: tf.nn.conv2d(a, b, [1, 2], "SAME", dilations=[2, 1]), x, w)
    check_gradients(lambda a: tf.nn.max_pool2d(a, 2, 1, "SAME"), distinct)
    check_gradients(lambda a: tf.nn.avg_pool2d(a, [3, 2], 2, "SAME"), x)
