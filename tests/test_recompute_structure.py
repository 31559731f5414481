"""recompute_grad read as an idea (issue [kernel]): a short forward and backward, the machinery beside
them, no registry written on import, and the recompute_start event naming the local tape."""
import contextvars
import inspect

import numpy as np

import minitape as tf
from minitape.checkpointing import call, recompute


def code_lines(function):
    """The lines of ``function``'s body that are code: no docstring, comments or blank lines."""
    source = inspect.getsource(function)
    docstring = inspect.getdoc(function)
    body = source.split('"""')[2] if docstring else source
    return [line for line in body.splitlines()[1:] if line.strip() and not line.strip().startswith("#")]


def test_the_forward_and_the_backward_each_read_in_about_fifteen_lines():
    assert len(code_lines(recompute.call_checkpointed)) <= 15
    assert len(code_lines(recompute.RecomputeEntry.backward)) <= 16


def test_no_registry_of_settings_is_written_on_import():
    import minitape.keras  # noqa: F401  (Keras used to register its training mode here)
    assert not hasattr(call, "register_context") and not hasattr(call, "_CONTEXTS")


def test_a_setting_is_restored_for_the_recomputation_and_nothing_else_of_the_context():
    from minitape.checkpointing.call import reset_setting, set_setting, setting
    foreign = contextvars.ContextVar("cell", default="cell 1")    # as a notebook kernel routes a cell's output
    seen = []

    def scaled(x):
        seen.append(foreign.get())
        return x * (2.0 if setting("mode") == "train" else 1.0)

    x = tf.constant(1.0)
    token = set_setting("mode", "train")
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.recompute_grad(scaled)(x)
    reset_setting(token)                   # the backward pass runs in "eval"; the recomputation in "train"
    later = foreign.set("cell 2")          # the gradient is asked for in another cell
    assert float(tape.gradient(y, x)) == 2.0 and setting("mode") is None
    assert seen == ["cell 1", "cell 2"]    # the recomputation prints where the gradient was asked for
    foreign.reset(later)


def test_keras_layers_recompute_in_the_training_mode_an_outer_call_set():
    tf.random.set_seed(1)
    dropout, norm = tf.keras.layers.Dropout(0.5), tf.keras.layers.BatchNormalization()
    modes = []

    class Probe(tf.keras.layers.Layer):
        def call(self, x, training=None):
            modes.append(training)
            return x

    probe = Probe()
    block = tf.recompute_grad(lambda x: norm(dropout(probe(x))))

    class Outer(tf.keras.layers.Layer):        # its call passes no `training`: the inner layers inherit it
        def call(self, x):
            return block(x)

    x = tf.constant(np.random.default_rng(0).normal(size=(8, 4)).astype("float32"))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = Outer()(x, training=True)
        loss = tf.reduce_sum(y * tf.range(32.0, dtype=tf.float32)[:, None][:8])
    mean, (entry,) = norm.moving_mean.numpy().copy(), [e for e in tape.entries() if e.is_call]
    seed = entry.first.seed                                       # what dropout drew on the forward pass
    grad = tape.gradient(loss, x)
    assert modes == [True, True]                                  # forward, then recomputation: both training
    np.testing.assert_array_equal(norm.moving_mean.numpy(), mean)  # the recomputation did not move the statistics
    # The same function differentiated directly, in training mode, with the same units dropped.
    with tf.GradientTape() as plain:
        plain.watch(x)
        with tf.random.replay(tf.random.Source(seed)):
            y_plain = norm(dropout(x, training=True), training=True)
        loss_plain = tf.reduce_sum(y_plain * tf.range(32.0, dtype=tf.float32)[:, None][:8])
    np.testing.assert_allclose(grad.numpy(), plain.gradient(loss_plain, x).numpy(), rtol=1e-5, atol=1e-6)


def test_numpy_error_state_is_the_callers_again_after_a_recomputation():
    f = tf.recompute_grad(lambda x: tf.math.log(x))
    x = tf.constant([0.0, 1.0])
    with np.errstate(divide="ignore"):           # the forward pass runs in this NumPy error state...
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
    before = np.geterr()
    tape.gradient(y, x)                          # ...its recomputation too; the caller's state is left as it was
    assert np.geterr() == before


def test_the_recompute_start_event_carries_the_tape_the_recomputation_records_on():
    w = tf.Variable(0.5)
    block = tf.recompute_grad(lambda x: tf.tanh(x * w))
    x = tf.constant(1.0)
    with tf.events.timeline() as events:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = block(block(x))
        tape.gradient(y, x)
    starts = [i for i, e in enumerate(events) if e.kind == "recompute_start"]
    assert len(starts) == 2
    for i in starts:
        local = events[i].data["tape"]
        assert isinstance(local, tf.GradientTape) and local is not tape
        end = next(k for k in range(i, len(events)) if events[k].kind == "recompute_end")
        assert events[end].data["tape"] is local
        recorded = [e.data["tape"] for e in events[i + 1:end] if e.kind in ("watch", "op")]
        assert recorded and all(t is local for t in recorded)
