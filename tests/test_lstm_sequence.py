"""``lstm_sequence``: a whole LSTM as one primitive (issue #28's RNN step).

The same floats as ``lstm_cell`` step by step; backpropagation through time against central finite
differences in float64, to the second order (the first check runs the NumPy loop, outside any tape,
the second the ops under one).  Keras' ``LSTM`` taking it: tests/test_rnn_sequences.py.
"""
import numpy as np
import pytest

import minitape as tf
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


def test_the_numpy_loop_gives_every_gradient_once_and_lets_go():
    from minitape.ops import recurrent
    args = [tf.constant(a) for a in (PROJECTED, KERNEL, H, C)]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(args)
        total = tf.reduce_sum(tf.ops.lstm_sequence(*args) ** 2)
    fused = tape.gradient(total, args)                   # outside the tape: NumPy, for all four
    assert recurrent._last_sequence[0] is None           # the kernel's VJP took the pass: nothing is held
    with tf.GradientTape() as tape:
        tape.watch(args)
        total = tf.reduce_sum(step_by_step(*args) ** 2)
    for a, b in zip(fused, tape.gradient(total, args)):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12, atol=1e-12)


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
