"""The CNN step's fused batch normalization (issue #28): the same values and gradients as the ops it
replaces, and derivatives of the first and second order against central finite differences in float64.

``fused_batch_norm`` is one primitive whose first-order VJPs run in NumPy when no tape records the
backward pass, and with ops otherwise: ``check_first_and_second`` checks both (its first check
differentiates outside any tape, its second under one).
"""
import numpy as np
import pytest

import minitape as tf
from test_op_gradients import check_first_and_second

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 2, 2, 4)) * 2.0 + 1.0
GAMMA, BETA, WEIGHTS = RNG.standard_normal(4), RNG.standard_normal(4), RNG.standard_normal((3, 2, 2, 4))


def norm(x, gamma=GAMMA, beta=BETA):
    y, mean, variance = tf.ops.fused_batch_norm(x, gamma, beta, 1e-3)
    return y * WEIGHTS                                  # not a plain sum: its gradient through x would be 0


@pytest.mark.parametrize("argument", ["x", "gamma", "beta"])
def test_fused_batch_norm_first_and_second_derivatives(argument):
    if argument == "x":
        check_first_and_second(norm, X)
    else:                                                # squared: a second derivative that is not zero
        value = {"gamma": GAMMA, "beta": BETA}[argument]
        check_first_and_second(lambda t: norm(tf.constant(X), **{argument: t * t}), value)


def test_the_layer_fuses_and_equals_the_ops_it_replaces():
    x = tf.constant((RNG.standard_normal((4, 3, 3, 5)) * 3 + 2).astype(np.float32))
    weights = tf.constant(RNG.standard_normal((4, 3, 3, 5)).astype(np.float32))
    layer = tf.keras.layers.BatchNormalization(gamma_initializer="random_normal", beta_initializer="random_normal")
    layer.build(tuple(x.shape))
    with tf.GradientTape() as tape:
        tape.watch(x)
        fused = layer(x, training=True)
        loss = tf.reduce_sum(fused * weights)
    assert [e.label for e in tape.entries()] == ["fused_batch_norm", "multiply", "reduce_sum"]
    fused_grads = tape.gradient(loss, [x, layer.gamma, layer.beta])            # outside the tape: in NumPy
    with tf.GradientTape() as tape:
        tape.watch(x)
        mean, variance = tf.nn.moments(x, axes=[0, 1, 2])
        composed = tf.nn.batch_normalization(x, mean, variance, layer.beta, layer.gamma, layer.epsilon)
        loss = tf.reduce_sum(composed * weights)
    composed_grads = tape.gradient(loss, [x, layer.gamma, layer.beta])
    np.testing.assert_allclose(fused.numpy(), composed.numpy(), rtol=1e-6, atol=1e-6)
    for mine, theirs in zip(fused_grads, composed_grads):
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(layer.moving_mean.numpy(), 0.01 * mean.numpy(), rtol=1e-6)
    np.testing.assert_allclose(layer.moving_variance.numpy(), 0.99 + 0.01 * variance.numpy(), rtol=1e-6)


def test_a_fused_batch_norm_keeps_its_input_and_scale():
    x = tf.constant(np.ones((8, 4, 4, 16), np.float32) * np.arange(16, dtype=np.float32))
    gamma, beta = tf.ones((16,)), tf.zeros((16,))
    with tf.GradientTape() as tape:
        tape.watch(x)
        tf.ops.fused_batch_norm(x, gamma, beta, 1e-3)
    kept = sum(t.numpy().nbytes for k, t in tape.entries()[0].kept())
    assert kept == x.numpy().nbytes + 16 * 4


def test_a_vector_is_refused_and_a_layer_on_one_falls_back_to_the_ops():
    with pytest.raises(tf.errors.InvalidArgumentError, match="fused_batch_norm: x must have a batch axis"):
        tf.ops.fused_batch_norm(tf.ones((3,)), tf.ones((3,)), tf.zeros((3,)), 1e-3)
    layer = tf.keras.layers.BatchNormalization()           # each feature its own batch: normalized to 0
    np.testing.assert_allclose(layer(tf.constant([1.0, 2.0, 4.0]), training=True).numpy(), [0.0, 0.0, 0.0])


@pytest.mark.parametrize("watched", [(0, 2, 3, 4), (0, 3), (2, 3, 4), (1, 2), (0, 1, 2, 3, 4)])
def test_x_gradient_hands_scale_and_offset_theirs_and_each_batch_norm_keeps_its_own(watched):
    """At first order x's VJP works out scale's and offset's gradients and hands them over: two batch norms
    fed one upstream gradient (a sum), each with any of its inputs watched, get the composed ops' gradients."""
    x1, x2, s1, s2, b = (tf.constant(v) for v in (X, X[::-1] * 3.0, GAMMA, GAMMA[::-1], BETA))

    def gradients(normalize):
        sources = [(x1, x2, s1, s2, b)[k] for k in watched]
        with tf.GradientTape() as tape:
            tape.watch(sources)
            loss = tf.reduce_sum((normalize(x1, s1, 1e-3) + normalize(x2, s2, 1e-2)) * WEIGHTS)
        return tape.gradient(loss, sources)

    def composed(x, scale, epsilon):
        mean, variance = tf.nn.moments(x, axes=[0, 1, 2])
        return tf.nn.batch_normalization(x, mean, variance, b, scale, epsilon)

    fused = gradients(lambda x, scale, epsilon: tf.ops.fused_batch_norm(x, scale, b, epsilon)[0])
    for mine, theirs in zip(fused, gradients(composed)):
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-10, atol=1e-10)
