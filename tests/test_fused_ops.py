"""The transformer step's fused ops and fast paths (issue #28): the same values as the ops they replace, and
gradients of the first and second order against central finite differences in float64.

``layer_normalization`` is one primitive whose first-order VJP runs in NumPy when no tape records the
backward pass, and with ops otherwise: ``check_first_and_second`` checks both (its first check differentiates
outside any tape, its second under one).  Two-input einsums run as one batched matmul.
"""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitape as tf
from minitape.keras.layers.attention import causal_mask
from minitape.ops.einsum import _contract_pair
from test_op_gradients import arrays, check_first_and_second

LAYER_NORM_SHAPES = hnp.array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=4)


@pytest.mark.usefixtures("backend")
@given(data=st.data())
def test_layer_normalization_first_and_second_derivatives(data):
    x = data.draw(arrays(LAYER_NORM_SHAPES))
    axes = data.draw(st.integers(1, x.ndim))
    features = x.shape[x.ndim - axes:]
    gamma, beta = data.draw(arrays(st.just(features))), data.draw(arrays(st.just(features)))

    def norm(t, g=gamma, b=beta):
        return tf.ops.layer_normalization(t, tf.constant(g) if isinstance(g, np.ndarray) else g,
                                          tf.constant(b) if isinstance(b, np.ndarray) else b, axes, 1e-3)
    check_first_and_second(norm, x)
    check_first_and_second(lambda g: norm(tf.constant(x), g=g * g), gamma)
    check_first_and_second(lambda b: norm(tf.constant(x), b=b * b), beta)


def test_layer_normalization_layer_equals_the_ops_it_fuses():
    x = tf.constant(np.random.default_rng(0).standard_normal((3, 4, 5)).astype(np.float32))
    for axis in (-1, [-2, -1]):
        layer = tf.keras.layers.LayerNormalization(axis=axis, gamma_initializer="random_normal",
                                                   beta_initializer="random_normal")
        layer.build(tuple(x.shape))
        weights = tf.constant(np.random.default_rng(1).standard_normal(tuple(x.shape)).astype(np.float32))
        with tf.GradientTape() as tape:                     # a tape of its own: it must see the weights read
            tape.watch(x)
            fused = layer(x)
            loss = tf.reduce_sum(fused * weights)
        assert [e.label for e in tape.entries()] == ["layer_normalization", "multiply", "reduce_sum"]
        fused_grads = tape.gradient(loss, [x, *layer.weights])            # outside the tape: in NumPy
        with tf.GradientTape() as tape:
            tape.watch(x)
            mean, variance = tf.nn.moments(x, axes=layer.axes, keepdims=True)
            shape = [n if a in layer.axes else 1 for a, n in enumerate(x.shape)]
            composed = tf.nn.batch_normalization(x, mean, variance, tf.reshape(layer.beta, shape),
                                                 tf.reshape(layer.gamma, shape), layer.epsilon)
            loss = tf.reduce_sum(composed * weights)
        composed_grads = tape.gradient(loss, [x, *layer.weights])
        np.testing.assert_allclose(fused.numpy(), composed.numpy(), rtol=1e-6, atol=1e-6)
        for mine, theirs in zip(fused_grads, composed_grads):
            np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-4, atol=1e-5)


def test_a_layer_norm_keeps_its_input_and_one_factor_per_example():
    x = tf.constant(np.ones((8, 32, 16), np.float32) * np.arange(16, dtype=np.float32))
    layer = tf.keras.layers.LayerNormalization()
    layer(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        layer(x * 2.0)
    assert tape.memory_info()["current"] == 4 + x.numpy().nbytes + 8 * 32 * 4    # the 2.0, x·2, r


EQUATIONS = ["btd,dnh->btnh", "bsnh,btnh->bnts", "bnts,bsnh->btnh", "btnh,nhd->btd", "btnh,btd->nhd",
             "ij,jk->ik", "ij,kj->ki", "ijk,k->ij", "ij,k->ijk", "abc,bd->d", "i,i->"]


@pytest.mark.parametrize("equation", EQUATIONS)
def test_two_input_einsum_as_one_matmul_equals_einsum(equation):
    rng = np.random.default_rng(0)
    sizes = dict(zip("abcdijkbtdnhs", [2, 3, 4, 5, 3, 4, 5, 8, 6, 5, 2, 3, 6]))
    left, right = equation.split("->")[0].split(",")
    a, b = (rng.standard_normal([sizes[c] for c in term]) for term in (left, right))
    got = _contract_pair(a, b, left, right, equation.split("->")[1])
    np.testing.assert_allclose(got, np.einsum(equation, a, b), rtol=1e-12, atol=1e-12)


def test_attention_einsums_first_and_second_derivatives():
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((2, 8, 2, 16)), rng.standard_normal((2, 8, 2, 16))    # 8192 products: a matmul
    check_first_and_second(lambda t: tf.einsum("bsnh,btnh->bnts", t, tf.constant(q)) ** 2, k)


def test_the_causal_mask_is_made_once_per_length():
    assert causal_mask(5, 5) is causal_mask(5, 5)
    assert causal_mask(5, 4).shape == (1, 5, 4)


def test_split_and_unstack_first_and_second_derivatives():
    x = np.random.default_rng(1).standard_normal((2, 4, 3))
    check_first_and_second(lambda t: tf.concat([p * p for p in tf.unstack(t, axis=1)[::2]], axis=-1), x)   # two unused
    check_first_and_second(lambda t: tf.split(t, [1, -1], axis=2)[1] ** 3, x)
    check_first_and_second(lambda t: tf.split(t, 4, axis=1)[2] * tf.split(t, 4, axis=1)[0], x)
    check_first_and_second(lambda t: tf.stack([tf.sin(p) for p in tf.unstack(t, axis=0)], axis=2), x)


def test_split_and_unstack_are_one_tape_entry_each():
    """A getitem per piece would fill a zero buffer the size of the whole tensor per piece in the backward pass."""
    x = tf.ones((2, 100, 3))
    with tf.GradientTape() as tape:
        tape.watch(x)
        steps, halves = tf.unstack(x, axis=1), tf.split(x, 2, axis=1)
    assert [e.label for e in tape.entries()] == ["unstack", "split"]
    assert len(tape.entries()[0].outputs) == 100 and tape.memory_info()["current"] == 0
    assert tape.gradient([steps[3], halves[1]], x).numpy()[0, :, 0].tolist() == [0.0] * 3 + [1.0] + [0.0] * 46 + [1.0] * 50


def test_lstm_cell_first_and_second_derivatives():
    rng = np.random.default_rng(2)
    z, c = rng.standard_normal((3, 8)), rng.standard_normal((3, 2))
    check_first_and_second(lambda t: tf.ops.lstm_cell(t, tf.constant(c)), z)
    check_first_and_second(lambda t: tf.ops.lstm_cell(tf.constant(z), t) ** 2, c)


def test_lstm_cell_equals_the_ops_it_fuses_and_records_once():
    """LSTMCell with Keras' default activations runs one lstm_cell: the same floats, gradients and fewer entries."""
    tf.keras.utils.set_random_seed(0)
    fused, plain = tf.keras.layers.LSTMCell(3), tf.keras.layers.LSTMCell(3, activation=lambda v: tf.tanh(v))
    x, states = tf.constant(np.random.default_rng(3).standard_normal((2, 4)).astype(np.float32)), [tf.ones((2, 3))] * 2
    fused.build((None, 4)), plain.build((None, 4))
    for a, b in zip(plain.weights, fused.weights):
        a.assign(b)
    answers = []
    for cell in (fused, plain):
        with tf.GradientTape() as tape:
            h, (_, c) = cell(x, states)
            total = tf.reduce_sum(h * c)
        recorded = len(tape.entries())
        answers.append((h.numpy(), c.numpy(), [g.numpy() for g in tape.gradient(total, cell.weights)], recorded))
    (h1, c1, g1, n1), (h2, c2, g2, n2) = answers
    np.testing.assert_array_equal(h1, h2), np.testing.assert_array_equal(c1, c2)
    for a, b in zip(g1, g2):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert n2 - n1 == 8          # ten ops (a split, five activations, four arithmetic) become lstm_cell and a split


@pytest.mark.filterwarnings("ignore:Mean of empty slice")
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32])
@pytest.mark.parametrize("shape", [(3, 4, 5), (7,), (0, 3), (2, 0)])
def test_blas_sums_are_the_sums_numpy_takes(dtype, shape):
    """Sums as products with ones (float32/64 NumPy arrays): NumPy's sums, to a sum's rounding; others exactly."""
    from minitape.ops.blas_sums import leading_sums, trailing_means, trailing_sums
    x = (np.random.default_rng(0).standard_normal(shape) * 10).astype(dtype)
    exact = dtype not in (np.float32, np.float64) or 0 in shape
    check = np.testing.assert_array_equal if exact else lambda a, b: np.testing.assert_allclose(a, b, rtol=1e-5,
                                                                                                  atol=1e-4)
    for count in range(1, x.ndim + 1):
        axes = tuple(range(x.ndim - count, x.ndim))
        check(trailing_sums(np, x, count), np.sum(x, axis=axes, keepdims=True))
        check(leading_sums(np, x, count), np.sum(x, axis=tuple(range(x.ndim - count))))
        with np.errstate(all="ignore"):
            check(trailing_means(np, x, count), np.mean(x, axis=axes, keepdims=True))
        assert trailing_sums(np, x, count).dtype == np.sum(x, axis=axes, keepdims=True).dtype


def test_long_sums_are_numpys_own():
    """Past LONGEST numbers a sum is NumPy's pairwise one, bit for bit (its rounding grows more slowly)."""
    from minitape.ops.blas_sums import LONGEST, leading_sums, trailing_means, trailing_sums
    x = np.random.default_rng(0).standard_normal((3, LONGEST + 1)).astype(np.float32)
    np.testing.assert_array_equal(trailing_sums(np, x, 1), np.sum(x, axis=1, keepdims=True))
    np.testing.assert_array_equal(trailing_means(np, x, 1), np.mean(x, axis=1, keepdims=True))
    np.testing.assert_array_equal(leading_sums(np, x.T, 1), np.sum(x.T, axis=0))
