"""The recurrent layers (SimpleRNN, GRU, LSTM, RNN with a cell, Bidirectional, TimeDistributed, Embedding masks)
against TensorFlow 2.21's Keras (3.15), from tests/data/tf_recurrent.json (written by tests/record_tf_recurrent.py):
outputs, gradients and weight names on fixed weights, summary counts, and two epochs of fit."""
import json

import pytest

import record_tf_recurrent as spec
from recorded_keras import minitape_runs, same

RECORDED = json.loads(spec.OUT.read_text())
ours = minitape_runs(spec)


@pytest.mark.parametrize("case,key", [(case, key) for case in spec.CASES for key in RECORDED[case]])
def test_matches_keras(case, key):
    assert same(ours(case)[key], RECORDED[case][key], tol=2e-5), (ours(case)[key], RECORDED[case][key])


# Beyond the recording: what TF's randomness or refusals make unrecordable, and checkpointing through time.
import numpy as np

import minitape as tf
from minitape.course.gradcheck import check_gradients
from minitape.keras.layers.recurrent import run_steps

layers = tf.keras.layers
X = tf.constant(spec.X)


@pytest.mark.parametrize("cell", [layers.GRUCell(3), layers.GRUCell(3, reset_after=False), layers.LSTMCell(2),
                                  layers.SimpleRNNCell(2)], ids=["gru", "gru_reset_before", "lstm", "simple"])
def test_a_masked_backward_run_of_each_cell_has_the_gradients_of_finite_differences(cell):
    cell.build((None, 3))
    mask = tf.constant([[True, True, False, True], [True, False, False, True]])

    def f(x, kernel, recurrent_kernel, bias):
        cell.kernel, cell.recurrent_kernel, cell.bias = kernel, recurrent_kernel, bias     # float64 stand-ins
        states = [tf.zeros((2, cell.units), tf.float64) for _ in cell.get_initial_state(2)]
        last, outputs, states = run_steps(cell.call, x, states, mask, go_backwards=True)
        return tf.reduce_sum(tf.stack(outputs, 1) * np.cos(np.arange(4 * cell.units)).reshape(4, cell.units))

    weights = [np.random.RandomState(k).uniform(-0.6, 0.6, v.shape) for k, v in enumerate(cell.weights)]
    check_gradients(f, spec.X.astype("float64"), *weights)


def test_an_rnn_unrolled_by_hand_with_recompute_grad_per_step_gives_the_plain_gradients():
    cell = layers.GRUCell(3)
    cell.build((None, 3))

    def run(step):
        with tf.GradientTape() as tape:
            tape.watch(X)
            h = tf.zeros((2, 3))
            for t in range(X.shape[1]):
                h = step(X[:, t], h)
            loss = tf.reduce_sum(h * h)
        return tape.gradient(loss, [X, *cell.trainable_weights])

    plain = run(lambda x, h: cell(x, [h])[0])
    recomputed = run(tf.recompute_grad(lambda x, h: cell(x, [h])[0]))
    for a, b in zip(plain, recomputed):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-7)


def test_an_rnn_run_as_a_checkpoint_chain_gives_the_plain_gradients():
    cell = layers.SimpleRNNCell(3)
    cell.build((None, 3))
    steps = [lambda h, t=t: cell(X[:, t], [h])[0] for t in range(X.shape[1])]

    def gradients(run):
        h0 = tf.fill((2, 3), 0.1)
        with tf.GradientTape() as tape:
            tape.watch(h0)
            loss = tf.reduce_sum(run(h0))
        return tape.gradient(loss, [h0, *cell.trainable_weights])

    def plain(h):
        for step in steps:
            h = step(h)
        return h

    for a, b in zip(gradients(plain), gradients(lambda h: tf.checkpoint_chain(steps, h, snapshots=2))):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-7)


def test_dropout_acts_only_in_training_with_one_mask_for_every_step():
    cell = layers.SimpleRNNCell(3, dropout=0.5, activation="linear", seed=1)
    rnn = layers.RNN(cell, return_sequences=True)
    rnn(tf.ones((4, 5, 3)))
    rnn.set_weights([np.eye(3), np.zeros((3, 3)), np.zeros(3)])          # each output is its step's input
    assert (rnn(tf.ones((4, 5, 3))).numpy() == 1).all()                   # inference: no dropout
    dropped = rnn(tf.ones((4, 5, 3)), training=True).numpy()
    assert set(np.unique(dropped)) <= {0.0, 2.0} and len(np.unique(dropped)) == 2
    assert (dropped == dropped[:, :1]).all()                              # the same mask at each step
    assert cell._dropout_masks == {}                                      # forgotten after the sequence


def test_recurrent_dropout_scales_the_previous_state_in_training_only():
    lstm = layers.LSTM(4, recurrent_dropout=0.9, seed=2)
    assert np.allclose(lstm(X).numpy(), lstm(X, training=False).numpy())
    assert not np.allclose(lstm(X).numpy(), lstm(X, training=True).numpy())


def test_stateful_is_refused_with_what_to_do_instead():
    with pytest.raises(NotImplementedError, match="initial_state"):
        layers.LSTM(2, stateful=True)


@pytest.mark.parametrize("make,error,text", [
    (lambda: layers.Bidirectional(layers.LSTM(2), merge_mode="max"), ValueError, "Invalid merge mode"),
    (lambda: layers.Bidirectional(layers.Dense(2)), NotImplementedError, "RNN layers"),
    (lambda: layers.RNN(object()), ValueError, "`call` method"),
    (lambda: layers.GRU(0), ValueError, "positive integer"),
    (lambda: layers.LSTM(2)(tf.ones((2, 3))), ValueError, "expected ndim=3"),
    (lambda: layers.LSTM(2)(X, initial_state=[tf.zeros((2, 2))]), ValueError, "expects 2 initial state"),
])
def test_bad_arguments_are_refused_by_name(make, error, text):
    with pytest.raises(error, match=text):
        make()


def test_orthogonal_is_orthonormal_scaled_by_gain_and_repeatable_with_a_seed():
    tall = tf.keras.initializers.Orthogonal(gain=2.0, seed=3)((5, 3)).numpy()
    wide = tf.keras.initializers.Orthogonal(seed=3)((2, 3, 4)).numpy().reshape(6, 4)
    np.testing.assert_allclose(tall.T @ tall, 4 * np.eye(3), atol=1e-5)
    np.testing.assert_allclose(wide.T @ wide, np.eye(4), atol=1e-5)
    assert (tf.keras.initializers.Orthogonal(seed=3)((4, 4)).numpy()
            == tf.keras.initializers.Orthogonal(seed=3)((4, 4)).numpy()).all()
    with pytest.raises(ValueError, match="at least two-dimensional"):
        tf.keras.initializers.Orthogonal()((3,))
    recurrent = layers.SimpleRNN(4)
    recurrent(X)
    kernel = recurrent.cell.recurrent_kernel.numpy()
    np.testing.assert_allclose(kernel @ kernel.T, np.eye(4), atol=1e-5)     # the default recurrent kernel


def test_a_mask_passes_through_return_sequences_and_stops_at_the_last_output():
    ids = tf.constant(spec.IDS)
    from minitape.keras.masking import get_keras_mask
    h = layers.Embedding(6, 3, mask_zero=True)(ids)
    sequence = layers.GRU(2, return_sequences=True)(h)
    assert (get_keras_mask(sequence).numpy() == (spec.IDS != 0)).all()
    assert get_keras_mask(layers.GRU(2)(h)) is None


def test_a_whole_bidirectional_layer_under_recompute_grad_replays_its_dropout_masks():
    both = layers.Bidirectional(layers.LSTM(3, return_sequences=True, dropout=0.3, recurrent_dropout=0.3))
    both(X)
    recomputed = tf.recompute_grad(lambda x: both(x, training=True), check_values=True)   # raises on a mismatch
    with tf.GradientTape() as tape:
        tape.watch(X)
        loss = tf.reduce_sum(recomputed(X) ** 2)
    grads = tape.gradient(loss, [X, *both.trainable_weights])
    assert all(np.isfinite(g.numpy()).all() for g in grads) and np.abs(grads[0].numpy()).sum() > 0

    plain = layers.Bidirectional(layers.LSTM(3, return_sequences=True))          # without dropout: equal
    plain(X)
    plain_recomputed = tf.recompute_grad(plain)
    results = []
    for f in (plain, plain_recomputed):
        with tf.GradientTape() as tape:
            tape.watch(X)
            loss = tf.reduce_sum(f(X) ** 2)
        results.append(tape.gradient(loss, [X, *plain.trainable_weights]))
    for a, b in zip(*results):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-7)
