"""The transformer step's fast paths in keras (issue #28): the same values as the rules they stand for.

Adam updates every variable at once in NumPy when it can (``Adam._update_steps``); the result must be the
bits of Keras' rule applied variable by variable with ops, and no value read before a step may change.
"""
import numpy as np
import pytest

import minitape as tf
from test_op_gradients import check_first_and_second


def _adam_run(optimizer, steps=3, fused=True):
    rng = np.random.default_rng(0)
    variables = [tf.Variable(rng.standard_normal(shape).astype(np.float32)) for shape in [(3, 4), (4,), (), (2, 2, 2)]]
    for _ in range(steps):
        grads = [tf.constant(rng.standard_normal(tuple(v.shape)).astype(np.float32)) for v in variables]
        if fused:
            optimizer.apply_gradients(zip(grads, variables))
        else:                    # Keras' rule, one variable at a time, op by op
            optimizer.build(variables)
            for g, v in zip(grads, variables):
                optimizer.update_step(g, v, tf.cast(optimizer.learning_rate, v.dtype))
            optimizer.iterations.assign_add(1)
    return [v.numpy() for v in variables] + [s.numpy() for s in optimizer.variables]


def test_adam_all_at_once_is_the_rule_variable_by_variable_bit_for_bit():
    optimizer = tf.keras.optimizers.Adam(0.01)
    fused, plain = _adam_run(optimizer), _adam_run(tf.keras.optimizers.Adam(0.01), fused=False)
    assert all(type(s._value) is not np.ndarray or s._value.base is not None for s in optimizer.variables[2:])
    for a, b in zip(fused, plain):
        np.testing.assert_array_equal(a, b)


def test_adam_all_at_once_leaves_values_read_before_the_step_alone():
    w = tf.Variable([1.0, 2.0])
    optimizer = tf.keras.optimizers.Adam(0.1)
    optimizer.apply_gradients([(tf.constant([1.0, 1.0]), w)])
    before, held, momentum = w.read_value(), np.asarray(w), optimizer.variables[2].read_value()
    values = [before.numpy(), held.copy(), momentum.numpy()]
    optimizer.apply_gradients([(tf.constant([1.0, 1.0]), w)])
    for now, then in zip([before.numpy(), held, momentum.numpy()], values):
        np.testing.assert_array_equal(now, then)
    assert not np.array_equal(w.numpy(), values[0])


def test_adam_all_at_once_sees_what_was_assigned_between_steps():
    """A step starts from the last step's flat arrays only while no variable or slot was assigned since."""
    answers = []
    for fused in (True, False):
        w, b, optimizer = tf.Variable([1.0, 2.0]), tf.Variable(0.5), tf.keras.optimizers.Adam(0.1)
        for step, grads in enumerate([[[1.0, -1.0], 2.0], [[1.0, 1.0], 1.0], [[0.5, 2.0], -1.0]]):
            if step == 1:
                w.assign([5.0, 6.0])
                optimizer.slots(w)["velocity"].assign([0.25, 0.25])
            if fused:
                optimizer.apply_gradients(zip([tf.constant(g) for g in grads], [w, b]))
            else:                # Keras' rule, one variable at a time, op by op
                optimizer.build([w, b])
                for g, v in zip(grads, [w, b]):
                    optimizer.update_step(tf.constant(g), v, tf.cast(optimizer.learning_rate, v.dtype))
                optimizer.iterations.assign_add(1)
        answers.append([v.numpy() for v in [w, b, *optimizer.variables]])
    for a, b in zip(*answers):
        np.testing.assert_array_equal(a, b)


def test_adam_subclass_with_its_own_update_step_is_called():
    calls = []

    class Counting(tf.keras.optimizers.Adam):
        def update_step(self, gradient, variable, learning_rate):
            calls.append(variable.name)
            super().update_step(gradient, variable, learning_rate)

    _adam_run(Counting(0.01), steps=1)
    assert len(calls) == 4


# -- dot_product_attention: one primitive for MultiHeadAttention's fused path ---------------------------------

def _qkv(seed=0, t=3, s=4):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((2, t, 2, 3)), rng.standard_normal((2, s, 2, 3)), rng.standard_normal((2, s, 2, 5))


MASKS = [None, np.tril(np.ones((3, 4), bool))[None, None], np.array([[[[True, False, True, True]]]] * 2),
         np.tril(np.ones((3, 4), bool), -1)]           # the last masks the first query row throughout


@pytest.mark.usefixtures("backend")
@pytest.mark.parametrize("mask", MASKS, ids=["none", "causal", "keys", "a row masked"])
def test_dot_product_attention_first_and_second_derivatives(mask):
    q, k, v = _qkv()
    attend = tf.ops.dot_product_attention
    check_first_and_second(lambda t: attend(t, tf.constant(k), tf.constant(v), mask=mask, scale=0.7), q)
    check_first_and_second(lambda t: attend(tf.constant(q), t, tf.constant(v), mask=mask), k)
    check_first_and_second(lambda t: attend(tf.constant(q), tf.constant(k), t * t, mask=mask), v)


@pytest.mark.parametrize("mask", MASKS, ids=["none", "causal", "keys", "a row masked"])
def test_dot_product_attention_equals_the_ops_it_fuses(mask):
    q, k, v = (tf.constant(a) for a in _qkv(1))
    weights = np.random.default_rng(2).standard_normal((2, 3, 2, 5))

    def composed(q, k, v):
        logits = tf.einsum("btnh,bsnh->bnts", q, k) * 0.5
        probs = tf.nn.softmax(logits if mask is None else tf.where(mask, logits, -1e9))
        return tf.einsum("bnts,bsnh->btnh", probs, v)

    answers = []
    for f in (lambda q, k, v: tf.ops.dot_product_attention(q, k, v, mask=mask, scale=0.5), composed):
        with tf.GradientTape() as tape:
            tape.watch([q, k, v])
            out = f(q, k, v)
            loss = tf.reduce_sum(out * weights)
        answers.append([out] + tape.gradient(loss, [q, k, v]))        # outside the tape: NumPy's VJPs
    for fused, plain in zip(*answers):
        np.testing.assert_allclose(fused.numpy(), plain.numpy(), rtol=1e-12, atol=1e-12)


def test_dot_product_attention_refuses_mismatched_shapes():
    q, k, v = (tf.constant(a) for a in _qkv())
    with pytest.raises(tf.errors.InvalidArgumentError, match="dot_product_attention: query"):
        tf.ops.dot_product_attention(q, k, tf.ones((2, 5, 2, 5), tf.float64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="mask of shape"):
        tf.ops.dot_product_attention(q, k, v, mask=np.ones((3, 3), bool))


def test_multi_head_attention_runs_one_attention_primitive():
    mha = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=3)
    x = tf.ones((2, 4, 6))
    mha(x, x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        mha(x, x, use_causal_mask=True)
    assert [e.label for e in tape.entries()].count("dot_product_attention") == 1
    assert "softmax" not in [e.label for e in tape.entries()]


# -- dense: a dense layer's x · kernel + bias as one primitive ---------------------------------------------------

@pytest.mark.parametrize("x_shape, kernel_shape, axes", [((3, 4), (4, 2), 1), ((2, 3, 4), (4, 2, 3), 1),
                                                         ((2, 3, 2, 2), (2, 2, 5), 2)])
@pytest.mark.usefixtures("backend")
def test_dense_first_and_second_derivatives(x_shape, kernel_shape, axes):
    rng = np.random.default_rng(3)
    x, kernel = rng.standard_normal(x_shape), rng.standard_normal(kernel_shape)
    bias = rng.standard_normal(kernel_shape[axes:])
    dense = tf.ops.dense
    check_first_and_second(lambda t: dense(t, tf.constant(kernel), tf.constant(bias), axes) ** 2, x)
    check_first_and_second(lambda t: dense(tf.constant(x), t, tf.constant(bias), axes) ** 2, kernel)
    check_first_and_second(lambda t: dense(tf.constant(x), tf.constant(kernel), t * t, axes), bias)
    np.testing.assert_allclose(dense(x, kernel, bias, axes).numpy(),
                               np.tensordot(x, kernel, axes) + bias, rtol=1e-12, atol=1e-12)


def test_dense_refuses_what_does_not_fit():
    with pytest.raises(tf.errors.InvalidArgumentError, match="dense: x \\(2, 3\\), kernel \\(4, 5\\)"):
        tf.ops.dense(tf.ones((2, 3)), tf.ones((4, 5)), tf.ones((5,)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="dense: input 1 is float64"):
        tf.ops.dense(tf.ones((2, 3)), tf.ones((3, 5), tf.float64), tf.ones((5,)))


def test_dense_layers_record_one_entry_and_keep_what_the_matmul_kept():
    layer, x = tf.keras.layers.Dense(4, activation="relu"), tf.ones((2, 3, 5))
    layer(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x * 2.0)
    assert [e.label for e in tape.entries()] == ["multiply", "dense", "relu"]
    assert tape.memory_info()["current"] == 4 + x.numpy().nbytes + y.numpy().nbytes     # the 2.0, x·2, relu's output
    np.testing.assert_allclose(y.numpy(), np.maximum(np.full((2, 3, 5), 2.0) @ layer.kernel.numpy()
                                                     + layer.bias.numpy(), 0), rtol=1e-6)
