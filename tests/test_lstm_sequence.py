"""``lstm_sequence``: a whole LSTM as one primitive (issue #28's RNN step).

The same floats as ``lstm_cell`` step by step; backpropagation through time against central finite
differences in float64, to the second order (the first check runs the NumPy loop, outside any tape,
the second the ops under one).  Keras' ``LSTM`` taking it: tests/test_rnn_sequences.py.
"""
import numpy as np
import pytest

import minitape as tf
from minitape.course.gradcheck import check_gradients
from test_op_gradients import check_first_and_second

RNG = np.random.default_rng(4)
PROJECTED, KERNEL = RNG.standard_normal((2, 5, 8)), RNG.standard_normal((2, 8)) * 0.5
H, C = RNG.standard_normal((2, 2)), RNG.standard_normal((2, 2))


def step_by_step(projected, kernel, h, c):
    steps = []
    for t in range(projected.shape[1]):
        steps.append(tf.ops.lstm_cell(projected[:, t] + tf.matmul(h, kernel), c))
        h, c = steps[-1][:, :2], steps[-1][:, 2:]
    return tf.stack(steps, axis=1)


def test_the_same_floats_as_lstm_cell_step_by_step():
    args = [tf.constant(a.astype(np.float32)) for a in (PROJECTED, KERNEL, H, C)]
    np.testing.assert_array_equal(tf.ops.lstm_sequence(*args).numpy(), step_by_step(*args).numpy())


@pytest.mark.parametrize("k", range(4))
def test_first_and_second_derivatives_of_each_input(k):
    inputs = [PROJECTED, KERNEL, H, C]

    def sequence(t):
        args = [t if j == k else tf.constant(a) for j, a in enumerate(inputs)]
        return tf.ops.lstm_sequence(*args) * np.linspace(0.5, 1.5, 20).reshape(1, 5, 4)   # every h and c weighed
    check_first_and_second(sequence, inputs[k])


def test_the_numpy_loop_gives_every_gradient():
    args = [tf.constant(a) for a in (PROJECTED, KERNEL, H, C)]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(args)
        total = tf.reduce_sum(tf.ops.lstm_sequence(*args) ** 2)
    fused = tape.gradient(total, args)                   # outside the tape: NumPy, for all four
    with tf.GradientTape() as tape:
        tape.watch(args)
        total = tf.reduce_sum(step_by_step(*args) ** 2)
    for a, b in zip(fused, tape.gradient(total, args)):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12, atol=1e-12)


def test_two_sequences_in_one_backward_pass_take_one_numpy_pass_each_for_all_four_inputs(monkeypatch):
    """The second sequence starts from the first's last state, so every input of both wants a gradient."""
    from minitape.ops import recurrent
    passes = []
    monkeypatch.setattr(recurrent, "quietly",         # the NumPy pass runs under quietly
                        lambda *values, run=recurrent.quietly: passes.append(1) or run(*values))
    args = [tf.constant(a) for a in (PROJECTED, KERNEL, H, C, PROJECTED[::-1] * 0.7, KERNEL.T[::-1].T * 1.3)]

    def two(run, projected, kernel, h, c, projected_2, kernel_2):
        first = run(projected, kernel, h, c)
        return run(projected_2, kernel_2, first[:, -1, :2], first[:, -1, 2:]) + first

    grads = []
    for run in (tf.ops.lstm_sequence, step_by_step):
        with tf.GradientTape() as tape:
            tape.watch(args)
            total = tf.reduce_sum(two(run, *args) ** 2)
        grads.append(tape.gradient(total, args))
        if run is tf.ops.lstm_sequence:         # (lstm_cell's own VJPs run under quietly too)
            assert len(passes) == 2          # was 6: h's and c's ran it again
    for a, b in zip(*grads):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12, atol=1e-12)


def test_under_a_tape_one_recorded_pass_serves_all_four_inputs_and_differentiates_again(monkeypatch):
    """Each VJP ran (and a second tape recorded) the whole of backpropagation through time again."""
    from minitape.ops import recurrent
    passes = []
    monkeypatch.setattr(recurrent, "add_n",          # the ops pass sums the kernel's gradient once
                        lambda *args, add_n=recurrent.add_n: passes.append(1) or add_n(*args))

    def gradient_norm(*args):
        with tf.GradientTape() as tape:
            tape.watch(args)
            total = tf.reduce_sum(tf.ops.lstm_sequence(*args) * np.linspace(0.5, 1.5, 20).reshape(1, 5, 4))
        return tf.add_n([tf.reduce_sum(g * g) for g in tape.gradient(total, args)])

    args = [tf.constant(a) for a in (PROJECTED, KERNEL, H, C)]
    with tf.GradientTape() as outer:
        outer.watch(args)
        gradient_norm(*args)
    assert len(passes) == 1          # was 4
    check_gradients(gradient_norm, PROJECTED, KERNEL, H, C, eps=1e-5, rtol=1e-4, atol=1e-6)


def test_recurrent_dropout_and_masks_still_step_one_by_one():
    x = tf.ones((2, 3, 4))
    for layer, kwargs in ((tf.keras.layers.LSTM(2, recurrent_dropout=0.5), {"training": True}),
                          (tf.keras.layers.LSTM(2), {"mask": tf.constant([[True, True, False]] * 2)})):
        with tf.GradientTape() as tape:
            tape.watch(x)
            layer(x, **kwargs)
        labels = [e.label for e in tape.entries()]
        assert "lstm_sequence" not in labels and labels.count("lstm_cell") == 3


def test_shapes_that_do_not_fit_are_refused_by_name():
    zeros = tf.zeros
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"lstm_cell: z must have shape .* \[2, 12\]; got \[2, 8\]"):
        tf.ops.lstm_cell(zeros((2, 8)), zeros((2, 3)))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"lstm_sequence: recurrent_kernel must .*got \[3, 8\]"):
        tf.ops.lstm_sequence(zeros((2, 3, 8)), zeros((3, 8)), zeros((2, 2)), zeros((2, 2)))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"lstm_sequence: c must have shape \[batch, units\]"):
        tf.ops.lstm_sequence(zeros((2, 3, 8)), zeros((2, 8)), zeros((2, 2)), zeros((3, 2)))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"lstm_sequence: projected must have shape"):
        tf.ops.lstm_sequence(zeros((2, 8)), zeros((2, 8)), zeros((2, 2)), zeros((2, 2)))


def test_integers_and_a_sequence_of_no_steps_are_refused_by_name():
    """Were a float64 answer from int32 inputs (NumPy's 1 / (1 + exp(-z))), and NumPy's 'need at least one array'."""
    ints = [tf.zeros(shape, tf.int32) for shape in ((2, 3, 8), (2, 8), (2, 2), (2, 2))]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"lstm_sequence needs a floating-point tensor .*int32"):
        tf.ops.lstm_sequence(*ints)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"lstm_cell needs a floating-point tensor .*int32"):
        tf.ops.lstm_cell(ints[0][:, 0], ints[2])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"lstm_sequence: projected has no time steps \(shape "
                                                          r"\[2, 0, 8\]\): give it at least one"):
        tf.ops.lstm_sequence(tf.zeros((2, 0, 8)), tf.zeros((2, 8)), tf.zeros((2, 2)), tf.zeros((2, 2)))


@pytest.mark.parametrize("mask", [None, tf.constant([[True] * 4] * 2)], ids=["one_op", "step_by_step"])
@pytest.mark.parametrize("shape", [(1, 3), (3,)])
def test_an_initial_state_of_one_row_or_a_vector_spreads_over_the_batch_as_tf_arithmetic_does(shape, mask):
    """TF's LSTM takes them (tests/data/tf_lstm_sequence.json, refusals); the ops' shape checks refused them."""
    layer = tf.keras.layers.LSTM(3, return_sequences=True, return_state=True)
    x = tf.constant(np.random.default_rng(6).standard_normal((2, 4, 3)).astype(np.float32))
    answers = []
    for h, c in (tf.fill(shape, 0.3), tf.fill(shape, -0.2)), (tf.fill((2, 3), 0.3), tf.fill((2, 3), -0.2)):
        with tf.GradientTape() as tape:
            tape.watch([h, c])
            out = layer(x, initial_state=[h, c], mask=mask)
            total = tf.add_n([tf.reduce_sum(o * o) for o in out])
        answers.append((out, tape.gradient(total, [h, c])))
    (spread, spread_grads), (full, full_grads) = answers
    for a, b in zip(spread, full):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)
    for a, b in zip(spread_grads, full_grads):
        np.testing.assert_allclose(a.numpy(), np.sum(b.numpy(), axis=0).reshape(shape), rtol=1e-5)


class Doubled(tf.keras.layers.LSTMCell):
    def call(self, inputs, states, training=False):
        h, states = super().call(inputs, states, training=training)
        return 2 * h, states


class DoubledStep(tf.keras.layers.LSTMCell):
    def step(self, projected, states, training=False):
        h, states = super().step(projected, states, training)
        return 2 * h, states


@pytest.mark.parametrize("cell", [Doubled, DoubledStep])
def test_a_subclass_own_call_or_step_runs_at_each_step(cell):
    """TF's RNN(Doubled) answers twice LSTMCell's h; the projected path skipped call, and lstm_sequence step too."""
    x = tf.constant(np.random.default_rng(7).standard_normal((2, 3, 4)).astype(np.float32))
    plain, doubled = tf.keras.layers.RNN(tf.keras.layers.LSTMCell(2)), tf.keras.layers.RNN(cell(2))
    plain(x), doubled(x)
    doubled.set_weights(plain.get_weights())
    np.testing.assert_allclose(doubled(x).numpy(), 2 * plain(x).numpy(), rtol=1e-6)
