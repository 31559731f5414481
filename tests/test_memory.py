"""Tape memory: what each entry keeps, and held bytes that agree with tracemalloc."""
import math

import numpy as np
import pytest

import minitape as tf
from minitape.checkpointing.schedules import in_order
from tracing import traced_forward

BATCH, WIDTH, DEPTH = 256, 256, 32
ACTIVATION = BATCH * WIDTH * 4
MIB = 2**20


@pytest.fixture(scope="module")
def blocks():
    rng = np.random.default_rng(0)

    def block(W, b):
        return lambda x: tf.tanh(x @ W + b)

    return [block(tf.Variable(rng.normal(size=(WIDTH, WIDTH)).astype(np.float32) / 16),
                  tf.Variable(np.zeros(WIDTH, np.float32))) for _ in range(DEPTH)]


def forward_modes(blocks):
    root = round(math.sqrt(DEPTH))
    size = DEPTH // root
    return {
        "none": (in_order(blocks), 32),
        "per block": (in_order([tf.recompute_grad(b) for b in blocks]), 31),
        "sqrt segments": (in_order([tf.recompute_grad(in_order(blocks[i:i + size])) for i in range(0, size * (root - 1), size)]
                                  + [tf.recompute_grad(in_order(blocks[size * (root - 1):]))]), root - 1),
        "checkpoint_sequential": (lambda x: tf.checkpoint_sequential(blocks, root, x), root - 1),
    }


def measure(forward, x):
    """The tape's own figure and tracemalloc's, after a forward pass that keeps only a scalar loss."""
    return traced_forward(lambda h: tf.reduce_sum(forward(h)), x)


@pytest.mark.parametrize("mode", ["none", "per block", "sqrt segments", "checkpoint_sequential"])
def test_held_bytes_equal_the_theory_and_tracemalloc(blocks, mode):
    x = tf.constant(np.random.default_rng(1).normal(size=(BATCH, WIDTH)).astype(np.float32))
    forward, activations = forward_modes(blocks)[mode]
    tape, loss, traced = measure(forward, x)
    held = tape.memory_info()["current"]
    assert held == activations * ACTIVATION                     # exactly the theory: 8.00, 7.75, 1.25 MiB
    assert traced == pytest.approx(held, rel=0.05)
    tape.gradient(loss, x)
    assert tape.memory_info() == {"current": 0, "peak": held}


def test_checkpoint_chain_holds_its_snapshots_and_last_step(blocks):
    x = tf.constant(np.random.default_rng(1).normal(size=(BATCH, WIDTH)).astype(np.float32))
    plan = tf.schedules.chain_schedule(DEPTH, 4)
    stored = {a[1] for a in plan.forward_actions if a[0] == "store"}
    states = len(stored | {DEPTH - 1, DEPTH})          # snapshots, the last step's input and its output
    tape, loss, traced = measure(lambda h: tf.checkpoint_chain(blocks, h, snapshots=4), x)
    held = tape.memory_info()["current"]
    assert held == states * ACTIVATION
    assert traced == pytest.approx(held, rel=0.05)


def test_entries_keep_only_what_their_derivative_needs():
    x = tf.ones((4, 3))
    W, b = tf.Variable(tf.ones((3, 5))), tf.Variable(tf.zeros(5))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(x @ W + b)
    rows = [(r["name"], r["role"]) for r in tape.saved()]
    assert rows == [("matmul", "input 0"), ("matmul", "input 1"), ("tanh", "output")]   # not x @ W, not tanh's input
    assert tape.memory_info()["current"] == y.numpy().nbytes                           # x and W are the user's


def test_a_fused_loss_keeps_its_residual_and_says_so():
    """Sparse cross-entropy keeps softmax - one_hot from its forward pass, as TF's kernel: it counts, and it shows."""
    logits = tf.constant(np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]], np.float32))
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits([1, 2], logits)
    rows = [(r["name"], r["role"], r["shape"]) for r in tape.saved()]
    assert rows == [("sparse_softmax_cross_entropy", "input 0", (2, 3)),
                    ("sparse_softmax_cross_entropy", "residual", (2, 3))]
    assert tape.memory_info()["current"] == 2 * 3 * 4            # the residual; the logits are the user's
    probabilities = np.exp(logits.numpy()) / np.exp(logits.numpy()).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(tape.gradient(loss, logits).numpy(), probabilities - np.eye(3)[[1, 2]], rtol=1e-6)


def test_views_and_repeated_references_count_once():
    with tf.GradientTape() as tape:
        x = tf.constant(np.ones((100, 10), np.float32))
        tape.watch(x)
        top = x[:50]                      # a view into x's buffer
        y = tf.reduce_sum(x * x) + tf.reduce_sum(top * top) + tf.reduce_sum(tf.sin(x))
    assert tape.memory_info()["current"] == x.numpy().nbytes


def test_persistent_tape_keeps_its_memory_until_reset():
    x = tf.ones((1000,))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.exp(x))
    tape.gradient(y, x)
    assert tape.memory_info()["current"] == 4000
    with tape:                              # as TF, a tape is reset while it records
        tape.reset()
    assert tape.memory_info() == {"current": 0, "peak": 4000}


def test_a_chain_counts_the_step_output_it_holds_for_its_gradient():
    """What a checkpoint_chain's entry alone keeps alive is what memory_info says (the adversarial pass found
    the recorded step's output missing: the tape freed one array more than it reported)."""
    import gc
    import tracemalloc

    size = 200 * 200 * 8
    for steps, snapshots in [(1, 1), (4, 2), (6, 3)]:
        x = tf.constant(np.ones((200, 200)))
        tracemalloc.start()
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.checkpoint_chain([tf.sin] * steps, x, snapshots=snapshots)
        del y
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        reported = tape.memory_info()["current"]
        del tape
        gc.collect()
        freed = before - tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        assert reported % size == 0 and abs(freed - reported) < size / 10, (steps, snapshots, reported, freed)
