"""``gru_sequence`` and ``simple_rnn_sequence``: a whole GRU or simple RNN as one primitive (issue #28's RNN
steps), as ``lstm_sequence`` is for the LSTM.

The same floats as the Keras cell step by step; backpropagation through time against central finite
differences in float64, to the second order (the NumPy loop outside any tape, the ops under one); and
Keras' layers taking them, with the same outputs and gradients as the steps one by one.
"""
import numpy as np
import pytest

import minitape as tf
from test_op_gradients import check_first_and_second

from minitape.ops import gru, simple_rnn

RNG = np.random.default_rng(6)
H = RNG.standard_normal((2, 2))
INPUTS = {       # each op's inputs: projected (2 sequences of 5 steps), recurrent kernel[, its bias], h (2 units)
    "gru": [RNG.standard_normal((2, 5, 6)), RNG.standard_normal((2, 6)) * 0.5, RNG.standard_normal(6), H],
    "simple_rnn": [RNG.standard_normal((2, 5, 2)), RNG.standard_normal((2, 2)) * 0.5, H]}
OPS = {"gru": (tf.ops.gru_sequence, gru), "simple_rnn": (tf.ops.simple_rnn_sequence, simple_rnn)}


def cell_step_by_step(name, projected, kernel, *rest):
    cell = tf.keras.layers.GRUCell(2) if name == "gru" else tf.keras.layers.SimpleRNNCell(2)
    cell.build((None, 1))
    cell.recurrent_kernel.assign(kernel)
    if name == "gru":
        cell.bias.assign(tf.stack([tf.zeros_like(rest[0]), rest[0]]))
    h, outputs = rest[-1], []
    for t in range(projected.shape[1]):
        h, _ = cell.step(projected[:, t], [h])
        outputs.append(h)
    return tf.stack(outputs, axis=1)


@pytest.mark.parametrize("name", OPS)
def test_the_same_floats_as_the_cell_step_by_step(name):
    args = [tf.constant(a.astype(np.float32)) for a in INPUTS[name]]
    np.testing.assert_array_equal(OPS[name][0](*args).numpy(), cell_step_by_step(name, *args).numpy())


@pytest.mark.parametrize("name, k", [(name, k) for name in OPS for k in range(len(INPUTS[name]))])
def test_first_and_second_derivatives_of_each_input(name, k):
    inputs = INPUTS[name]

    def sequence(t):
        args = [t if j == k else tf.constant(a) for j, a in enumerate(inputs)]
        return OPS[name][0](*args) * np.linspace(0.5, 1.5, 10).reshape(1, 5, 2)   # every output weighed
    check_first_and_second(sequence, inputs[k])


@pytest.mark.parametrize("name", OPS)
def test_the_numpy_loop_equals_the_ops(name):
    args = [tf.constant(a) for a in INPUTS[name]]
    answers = []
    for outer in (None, tf.GradientTape()):            # under an outer tape the VJPs run as ops
        with tf.GradientTape() as tape:
            tape.watch(args)
            total = tf.reduce_sum(OPS[name][0](*args) ** 2)
        if outer is None:
            answers.append(tape.gradient(total, args))
        else:
            with outer:
                answers.append(tape.gradient(total, args))
    for a, b in zip(*answers):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("layer, op", [("GRU", "gru"), ("LSTM", "lstm"), ("SimpleRNN", "simple_rnn")])
@pytest.mark.parametrize("options", [{}, {"return_sequences": True, "return_state": True},
                                     {"go_backwards": True, "return_sequences": True}, {"use_bias": False}])
def test_keras_layers_run_one_op_with_the_steps_answers(layer, op, options):
    tf.keras.utils.set_random_seed(0)
    fused = getattr(tf.keras.layers, layer)(3, **options)
    plain = getattr(tf.keras.layers, layer)(3, activation=lambda v: tf.tanh(v), **options)     # steps one by one
    x = tf.constant(np.random.default_rng(5).standard_normal((2, 6, 4)).astype(np.float32))
    fused(x), plain(x)
    for a, b in zip(plain.weights, fused.weights):
        a.assign(b)
    answers = []
    for each in (fused, plain):
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = tf.nest.flatten(each(x))
            total = tf.add_n([tf.reduce_sum(o * o) for o in out])
        labels = [e.label for e in tape.entries()]
        answers.append(([o.numpy() for o in out], [g.numpy() for g in tape.gradient(total, [x, *each.weights])],
                        labels))
    (out1, grads1, labels1), (out2, grads2, labels2) = answers
    assert labels1.count(f"{op}_sequence") == 1 and len(labels1) < len(labels2) / 2
    for a, b in zip(out1, out2):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    for a, b in zip(grads1, grads2):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("layer, kwargs", [
    (lambda: tf.keras.layers.GRU(2, reset_after=False), {}),
    (lambda: tf.keras.layers.GRU(2, recurrent_dropout=0.5), {"training": True}),
    (lambda: tf.keras.layers.GRU(2), {"mask": tf.constant([[True, True, False]] * 2)}),
    (lambda: tf.keras.layers.SimpleRNN(2, activation="relu"), {})])
def test_what_differs_step_by_step_still_steps_one_by_one(layer, kwargs):
    x = tf.ones((2, 3, 4))
    with tf.GradientTape() as tape:
        tape.watch(x)
        layer()(x, **kwargs)
    assert not [e.label for e in tape.entries() if e.label.endswith("_sequence")]


def test_shapes_that_do_not_fit_are_refused_by_name():
    zeros = tf.zeros
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"gru_sequence: recurrent_bias must have shape \[3·units\]"):
        tf.ops.gru_sequence(zeros((2, 3, 6)), zeros((2, 6)), zeros((4,)), zeros((2, 2)))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"gru_sequence: h must have shape \[batch, units\]"):
        tf.ops.gru_sequence(zeros((2, 3, 6)), zeros((2, 6)), zeros((6,)), zeros((2, 3)))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"simple_rnn_sequence: recurrent_kernel must .*\[2, 2\]"):
        tf.ops.simple_rnn_sequence(zeros((2, 3, 2)), zeros((2, 3)), zeros((2, 2)))


@pytest.mark.parametrize("name", OPS)
def test_integers_and_sequences_of_no_steps_are_refused_by_name(name):
    ints = [tf.constant(a.astype(np.int32)) for a in INPUTS[name]]
    with pytest.raises(tf.errors.InvalidArgumentError, match=f"{name}_sequence"):
        OPS[name][0](*ints)
    empty = [tf.constant(a[:, :0] if j == 0 else a) for j, a in enumerate(INPUTS[name])]
    with pytest.raises(tf.errors.InvalidArgumentError, match=f"{name}_sequence: projected has no time steps"):
        OPS[name][0](*empty)
