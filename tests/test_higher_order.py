"""Derivatives of derivatives: VJPs are minitape ops, so an outer tape records them."""
import numpy as np
import pytest

import minitape as tf

pytestmark = pytest.mark.usefixtures("backend")     # every test here runs on each backend


def second_derivative(f, x):
    """d²/dx² of sum(f(x)), elementwise (f acts elementwise) via two nested tapes."""
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(f(x))
        dy = inner.gradient(y, x)
    return outer.gradient(dy, x)


def numeric_second_derivative(f, x, eps=1e-4):
    value = lambda a: np.asarray(f(tf.constant(a)).numpy())  # noqa: E731
    return (value(x + eps) - 2 * value(x) + value(x - eps)) / eps**2


X = np.array([-1.3, -0.2, 0.4, 1.7])


@pytest.mark.parametrize("name,f", [
    ("sin", tf.sin), ("cos", tf.cos), ("exp", tf.exp), ("tanh", tf.tanh), ("sigmoid", tf.sigmoid),
    ("mul", lambda x: x * x * x), ("log", lambda x: tf.math.log(x + 3.0)), ("sqrt", lambda x: tf.sqrt(x + 3.0)),
    ("pow", lambda x: (x + 3.0) ** 2.5), ("softplus", tf.math.softplus),
    # sin_grad and cos_grad differentiated through both inputs: the upstream gradient depends on x
    ("sin weighted", lambda x: tf.sin(x) * tf.exp(x)), ("cos weighted", lambda x: tf.cos(x) * tf.exp(x)),
])
def test_second_derivatives_of_elementwise_ops(name, f):
    got = second_derivative(f, tf.constant(X)).numpy()
    np.testing.assert_allclose(got, numeric_second_derivative(f, X), rtol=1e-5, atol=1e-5)


def hessian(f, x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    return outer.jacobian(g, x).numpy()


def numeric_hessian(f, x, eps=1e-4):
    n = x.size
    h = np.zeros((n, n))
    value = lambda a: float(f(tf.constant(a)).numpy())  # noqa: E731
    for i in range(n):
        for j in range(n):
            e_i, e_j = np.eye(n)[i] * eps, np.eye(n)[j] * eps
            h[i, j] = (value(x + e_i + e_j) - value(x + e_i - e_j) - value(x - e_i + e_j) + value(x - e_i - e_j)) / (4 * eps**2)
    return h


W = np.array([[0.5, -1.0, 0.3], [0.2, 0.8, -0.6], [-0.4, 0.1, 0.9]])


@pytest.mark.parametrize("name,f", [
    ("matmul", lambda x: tf.reduce_sum(tf.tanh(tf.reshape(x, (1, 3)) @ tf.constant(W)) ** 2)),
    ("softmax", lambda x: tf.reduce_sum(tf.nn.softmax(x) * tf.constant([1.0, 2.0, 3.0], tf.float64) ** 2)),
    ("log_softmax", lambda x: -tf.nn.log_softmax(x)[1]),
    ("reduce_max", lambda x: tf.reduce_max(x * x)),
    ("einsum", lambda x: tf.einsum("i,ij,j->", x, tf.constant(W), x)),
    ("sparse cross-entropy", lambda x: tf.reduce_sum(
        tf.nn.sparse_softmax_cross_entropy_with_logits([2], tf.reshape(x, (1, 3))))),
    # The upstream gradient depends on x too: the second tape differentiates the backward step
    # through both its inputs, the logits and the gradient it scales.
    ("weighted sparse cross-entropy", lambda x: tf.reduce_sum(
        tf.nn.sparse_softmax_cross_entropy_with_logits([0, 2, 1], tf.reshape(x, (1, 3)) * tf.constant(W)) * tf.tanh(x))),
])
def test_hessians(name, f):
    x = np.array([0.3, -0.8, 1.2])
    np.testing.assert_allclose(hessian(f, tf.constant(x)), numeric_hessian(f, x), rtol=1e-4, atol=1e-5)


def test_hessian_vector_product():
    """H·v without forming H: the gradient of (gradient · v)."""
    x, v = tf.constant([0.3, -0.8, 1.2], tf.float64), tf.constant([1.0, 0.5, -2.0], tf.float64)
    f = lambda t: tf.reduce_sum(tf.sin(t) * tf.reduce_prod(t + 2.0))  # noqa: E731
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
        g_dot_v = tf.reduce_sum(g * v)
    hvp = outer.gradient(g_dot_v, x).numpy()
    np.testing.assert_allclose(hvp, numeric_hessian(f, x.numpy()) @ v.numpy(), rtol=1e-4)


@pytest.mark.parametrize("f, third", [(tf.sin, -np.cos(0.7)), (tf.cos, np.sin(0.7))], ids=["sin", "cos"])
def test_third_derivative(f, third):
    x = tf.constant(0.7, tf.float64)
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = f(x)
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    np.testing.assert_allclose(t3.gradient(d2, x).numpy(), third)
