"""GradientTape: TensorFlow's observable behaviour, its errors, and the backward loop's promises."""
import gc
import logging
import threading
import weakref

import numpy as np
import pytest

import minitape as tf

pytestmark = pytest.mark.usefixtures("backend")     # every test here runs on each backend


def watched_square(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape, y


# ---- what gradient returns

def test_unconnected_sources_give_none_or_zeros():
    x, z = tf.constant([1.0, 2.0]), tf.constant(1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, z])
        y = x * 2.0
    assert tape.gradient(y, [x, z])[1] is None
    zero = tape.gradient(y, [x, z], unconnected_gradients=tf.UnconnectedGradients.ZERO)[1]
    assert zero.shape == () and zero.numpy() == 0.0


def test_unwatched_tensor_and_integer_sources_get_none(caplog):
    x = tf.constant(1.0)
    i = tf.constant(1)
    with tf.GradientTape() as tape:
        with caplog.at_level(logging.WARNING, logger="minitape"):
            tape.watch(i)
        y = x * 3.0 + tf.cast(i, tf.float32)
    assert "must be floating" in caplog.text
    assert tape.gradient(y, [x, i]) == [None, None]


def test_non_scalar_and_listed_targets_are_summed():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        a, b = x * x, tf.stack([x, 3.0 * x])
    assert tape.gradient([a, b], x).numpy() == 4.0 + 1.0 + 3.0


def test_output_gradients_weight_the_targets():
    x = tf.constant([1.0, 2.0])
    tape, y = watched_square(x)
    np.testing.assert_array_equal(tape.gradient(y, x, output_gradients=tf.constant([10.0, 1.0])).numpy(), [20.0, 4.0])


def test_sources_keep_their_structure():
    x, y = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = x * y
    grads = tape.gradient(z, {"a": x, "b": [y, (x,)]})
    assert list(grads) == ["a", "b"] and isinstance(grads["b"][1], tuple)
    assert [grads["a"].numpy(), grads["b"][0].numpy(), grads["b"][1][0].numpy()] == [2.0, 1.0, 2.0]


def test_value_used_twice_accumulates():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x + x
        z = y * x
    assert tape.gradient(z, x).numpy() == 3 * 9.0 + 2 * 3.0   # d(x^3 + x^2)/dx


def test_intermediate_tensors_can_be_sources():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        h = x * 3.0
        y = h * h
    grad_h, grad_x = tape.gradient(y, [h, x])
    assert (grad_h.numpy(), grad_x.numpy()) == (12.0, 36.0)


# ---- variables

def test_trainable_variables_are_watched_on_read_in_creation_order():
    a, b, c = tf.Variable(1.0), tf.Variable(2.0, trainable=False), tf.Variable(3.0)
    with tf.GradientTape() as tape:
        z = c * a * b
    assert [v.ref() for v in tape.watched_variables()] == [a.ref(), c.ref()]   # variables compare elementwise
    ga, gb, gc = tape.gradient(z, [a, b, c])
    assert (ga.numpy(), gb, gc.numpy()) == (6.0, None, 2.0)


def test_watch_accessed_variables_false_needs_explicit_watch():
    v = tf.Variable(2.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = v * v
    assert tape.gradient(y, v) is None
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(v)
        y = v * v
    assert tape.gradient(y, v).numpy() == 4.0


def test_assign_after_recording_does_not_change_the_saved_value():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = v * v * v
    v.assign(10.0)
    assert tape.gradient(y, v).numpy() == 12.0
    assert v.name == "Variable:0" and tf.Variable(1.0, name="w").name == "w:0"


# ---- recording control

def test_stop_recording_and_reset():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        with tape.stop_recording():
            hidden = x * x
        tape.reset()
        tape.watch(x)
        seen = x * 5.0
    assert tape.gradient(hidden, x) is None
    assert tape.gradient(seen, x).numpy() == 5.0


def test_stop_recording_outside_the_block_raises_tf_message():
    with pytest.raises(RuntimeError, match="Trying to stop recording a tape which is not recording."):
        with tf.GradientTape().stop_recording():
            pass


def test_gradient_inside_the_block(caplog):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        assert tape.gradient(y, x).numpy() == 6.0
        after = x * x      # a non-persistent tape stopped recording at gradient()
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        with caplog.at_level(logging.WARNING, logger="minitape"):
            dy = tape.gradient(y, x)
    assert "persistent tape inside its context" in caplog.text
    assert tape.gradient(dy, x).numpy() == 2.0         # the gradient was recorded on the tape itself
    del after


def test_nested_tapes_each_see_their_ops():
    x = tf.constant(1.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        a = x * 2.0
        with tf.GradientTape() as inner:
            inner.watch(x)
            b = x * 3.0
        total = a + b
    assert inner.gradient(b, x).numpy() == 3.0
    assert outer.gradient(total, x).numpy() == 5.0


def test_each_thread_records_on_its_own_tapes():
    x = tf.constant(2.0)
    results = {}

    def other_thread():
        results["other"] = x * x          # not under this thread's tape

    with tf.GradientTape() as tape:
        tape.watch(x)
        worker = threading.Thread(target=other_thread)
        worker.start()
        worker.join()
        mine = x * x
    assert tape.gradient([mine, results["other"]], x).numpy() == 4.0


# ---- errors, with TF's messages where TF has one

def test_second_gradient_on_non_persistent_tape():
    x = tf.constant(1.0)
    tape, y = watched_square(x)
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match=r"A non-persistent GradientTape can only be used to compute one set of gradients \(or jacobians\)"):
        tape.gradient(y, x)


def test_reentering_an_active_tape():
    tape = tf.GradientTape()
    with tape:
        with pytest.raises(ValueError, match="Tape is still recording, This can happen if you try to re-enter an already-active tape."):
            with tape:
                pass


def test_watch_rejects_numpy_arrays():
    with tf.GradientTape() as tape:
        with pytest.raises(ValueError) as raised:
            tape.watch(np.array(1.0))
    assert str(raised.value) == "Passed in object 1.0 of type 'ndarray', not tf.Tensor or tf.Variable or ExtensionType."
    assert "tf.constant" in raised.value.__notes__[0]


@pytest.mark.parametrize("target", [1.0, np.array(1.0), "loss", None])
def test_non_tensor_target_is_named(target):
    tape, _ = watched_square(tf.constant(1.0))
    with pytest.raises(TypeError, match="GradientTape.gradient: target must be a minitape Tensor or Variable"):
        tape.gradient(target, tf.constant(1.0))


@pytest.mark.parametrize("source", [1.0, np.array(1.0), "x"])
def test_non_tensor_source_is_named(source):
    tape, y = watched_square(tf.constant(1.0))
    with pytest.raises(TypeError, match="GradientTape.gradient: sources must be a minitape Tensor or Variable"):
        tape.gradient(y, source)


def test_output_gradients_of_wrong_shape():
    x = tf.constant([1.0, 2.0])
    tape, y = watched_square(x)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"output_gradients has shape \(3,\) but its target has shape \(2,\)"):
        tape.gradient(y, x, output_gradients=tf.constant([1.0, 2.0, 3.0]))


def test_unknown_unconnected_gradients_value():
    tape, y = watched_square(tf.constant(1.0))
    with pytest.raises(ValueError) as caught:                     # TF 2.21's text, exactly
        tape.gradient(y, tf.constant(1.0), unconnected_gradients="maybe")
    assert str(caught.value) == "Unknown value for unconnected_gradients: 'maybe'"


def test_op_on_arbitrary_python_object():
    with pytest.raises(ValueError, match=r"Attempt to convert a value \(<object object at .*>\) with an unsupported type \(<class 'object'>\) to a Tensor."):
        tf.add(tf.constant(1.0), object())


def test_unknown_dtype():
    with pytest.raises(TypeError, match="Cannot convert 'complex64' to a minitape dtype; minitape supports float16, float32"):
        tf.constant(1.0, dtype="complex64")


def test_mixed_float_dtypes_name_both():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^cannot compute AddV2 as input #1\(zero-based\) was "
                                                             r"expected to be a float tensor but is a double tensor"):
        tf.constant(1.0) + tf.constant(1.0, tf.float64)
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a int32 tensor but is a float tensor"):
        tf.constant(1) + 2.5


def test_nothing_the_user_passed_is_mutated():
    data = np.array([1.0, 2.0, 3.0])
    original = data.copy()
    x = tf.constant(data)
    v = tf.Variable(data)
    seed = tf.constant([1.0, 1.0, 1.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * v + tf.reduce_sum(x)
    tape.gradient(y, [x, v], output_gradients=seed)
    data[0] = 100.0
    np.testing.assert_array_equal(x.numpy(), original)
    np.testing.assert_array_equal(v.numpy(), original)
    np.testing.assert_array_equal(seed.numpy(), [1.0, 1.0, 1.0])
    view = np.asarray(x)
    with pytest.raises(ValueError, match="read-only"):
        view[0] = 5.0


# ---- the backward loop's promises

def test_a_100k_op_chain_differentiates_without_recursion():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(100_000):
            y = y + x
    assert tape.gradient(y, x).numpy() == 100_001.0


def test_non_persistent_tape_releases_saved_arrays_when_gradient_returns():
    x = tf.constant(np.ones(1000))
    with tf.GradientTape() as tape:
        tape.watch(x)
        hidden = tf.tanh(x)          # tanh saves its output for the backward pass
        y = tf.reduce_sum(hidden)
    saved = weakref.ref(hidden)
    del hidden
    gc.collect()
    assert saved() is not None, "the tape holds tanh's output until the gradient is taken"
    tape.gradient(y, x)
    gc.collect()
    assert saved() is None, "after gradient() the tape must let go"


def test_gradients_are_freed_as_soon_as_the_caller_drops_them():
    # Reference counting alone must free them: a reference cycle (say, a self-calling closure
    # that rebuilds the result's structure) would hold megabytes until the collector runs.
    w = [tf.Variable(np.ones((100, 100))) for _ in range(2)]
    gc.collect()
    gc.disable()
    try:
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w[0] * w[1])
        grads = tape.gradient(loss, {"first": w[0], "rest": [w[1]]})
        alive = [weakref.ref(g) for g in (grads["first"], grads["rest"][0])]
        del grads
        assert [ref() for ref in alive] == [None, None]
    finally:
        gc.enable()


def test_backward_runs_only_entries_between_sources_and_target():
    x, unrelated = tf.constant(1.0), tf.constant(2.0)
    with tf.events.timeline() as events:
        with tf.GradientTape() as tape:
            tape.watch([x, unrelated])
            for _ in range(5):
                unrelated = unrelated * 1.5
            y = x * 3.0
        tape.gradient(y, x)
    assert [e.kind for e in events].count("backward_step") == 1


# ---- jacobians

def finite_difference_jacobian(f, x, eps=1e-6):
    x = np.asarray(x, dtype=np.float64)
    out = np.asarray(f(x))
    jac = np.zeros(out.shape + x.shape)
    for index in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[index] = eps
        jac[(...,) + index] = (np.asarray(f(x + step)) - np.asarray(f(x - step))) / (2 * eps)
    return jac


def test_jacobian_matches_finite_differences():
    x = tf.constant(np.array([[0.3, -0.7], [1.1, 0.4]]))
    f = lambda t: tf.nn.softmax(tf.sin(t) @ tf.transpose(t))   # noqa: E731
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    expected = finite_difference_jacobian(lambda a: f(tf.constant(a)).numpy(), x.numpy())
    np.testing.assert_allclose(tape.jacobian(y, x).numpy(), expected, rtol=1e-6, atol=1e-9)


def test_jacobian_unconnected_and_structure():
    x, z = tf.constant([1.0, 2.0]), tf.constant(1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, z])
        y = x * x
    jx, jz = tape.jacobian(y, [x, z])
    assert jx.shape == (2, 2) and jz is None
    assert tape.jacobian(y, z, unconnected_gradients="zero").shape == (2,)


def test_batch_jacobian_matches_finite_differences():
    x = tf.constant(np.random.default_rng(0).normal(size=(3, 2)))
    w = tf.constant(np.random.default_rng(1).normal(size=(2, 4)))
    f = lambda t: tf.tanh(t @ w)     # noqa: E731
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    got = tape.batch_jacobian(y, x).numpy()
    assert got.shape == (3, 4, 2)
    for b in range(3):
        expected = finite_difference_jacobian(lambda row: f(tf.constant(row[None]))[0].numpy(), x.numpy()[b])
        np.testing.assert_allclose(got[b], expected, rtol=1e-6, atol=1e-9)


def test_batch_jacobian_needs_matching_batch_dimension():
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reshape(x, (2, 1))
    with pytest.raises(ValueError) as caught:
        tape.batch_jacobian(y, x)
    # TF 2.21's text, exactly
    assert str(caught.value) == "Need first dimension of target shape ((2, 1)) and source shape ((1, 2)) to match."
