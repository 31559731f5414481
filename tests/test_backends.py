"""Backends and devices: choosing where tensors live, moving them, and the errors at the edges.

array-api-strict stands in for a foreign backend (the op and gradient suites run on it too:
see the ``backend`` fixture in conftest.py); GPU cases run where CuPy and CUDA are present.
"""
import sys
import types

import numpy as np
import pytest

import minitape as tf
from minitape import backends
from minitape.course.gradcheck import check_gradients

CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


@pytest.fixture
def strict():
    return backends.get("array_api_strict")


def on_strict(value, dtype=None):
    with backends.use("array_api_strict"):
        return tf.constant(value, dtype)


def test_tensors_say_where_they_live_in_tensorflows_words():
    assert tf.constant(1.0).device == CPU
    assert tf.Variable([1.0]).device == CPU
    for name in ("CPU", "CPU:0", "cpu:0", "/CPU:0", "/device:CPU:0", CPU):
        with tf.device(name):
            assert tf.ones((2,)).device == CPU


@pytest.mark.parametrize("name,error,message", [
    ("TPU:0", ValueError, "Unknown device 'TPU:0'"),
    ("CPU:1", tf.errors.DeviceNotFoundError, "one CPU device, CPU:0"),
])
def test_unknown_devices_are_named(name, error, message):
    with pytest.raises(error, match=message):
        tf.device(name)


@pytest.fixture
def no_cached_gpu(monkeypatch):
    """Forget any GPU backend already made, so the next request looks for CuPy afresh."""
    monkeypatch.setattr(backends, "_by_name", {k: v for k, v in backends._by_name.items() if not k.startswith("cupy")})


def test_gpu_without_cupy_says_how_to_install_it(monkeypatch, no_cached_gpu):
    monkeypatch.setitem(sys.modules, "cupy", None)          # as if CuPy were not installed
    with pytest.raises(tf.errors.DeviceNotFoundError, match=r"needs CuPy.*pip install 'minitape\[gpu\]'"):
        tf.device("GPU:0")
    with pytest.raises(tf.errors.DeviceNotFoundError, match="needs CuPy"):
        tf.to_device(tf.constant(1.0), "GPU")


def test_gpu_without_a_cuda_device_says_so(monkeypatch, no_cached_gpu):
    def no_driver():
        raise RuntimeError("cudaErrorNoDevice: no CUDA-capable device is detected")

    fake = types.SimpleNamespace(cuda=types.SimpleNamespace(runtime=types.SimpleNamespace(getDeviceCount=no_driver)))
    monkeypatch.setitem(sys.modules, "cupy", fake)
    with pytest.raises(tf.errors.DeviceNotFoundError, match="needs a CUDA device.*no CUDA-capable device"):
        tf.device("/device:GPU:0")


@pytest.mark.parametrize("op", [
    lambda a, b: a + b,
    lambda a, b: tf.matmul(tf.reshape(a, (1, 2)), tf.reshape(b, (2, 1))),
    lambda a, b: tf.concat([a, b, a], axis=0),
    lambda a, b: tf.where(a > 0, a, b),
], ids=["add", "matmul", "concat", "where"])
def test_tensors_on_two_devices_never_meet_silently(op):
    here, there = tf.constant([1.0, 2.0]), on_strict([3.0, 4.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"on .*CPU:0 \(numpy\) but input \d is on .*CPU:0 "
                                                             r"\(array_api_strict\).*never copies"):
        op(here, there)


def test_a_variable_takes_values_but_not_tensors_from_another_device():
    with backends.use("array_api_strict"):
        v = tf.Variable([1.0, 2.0])
    v.assign_add([1.0, 1.0])                        # Python and NumPy values are copied to the variable
    v.assign(np.array([5.0, 6.0], np.float32))
    assert type(v._value) is type(on_strict(0.0)._value)
    np.testing.assert_array_equal(v.numpy(), [5.0, 6.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="never copies"):
        v.assign(tf.constant([0.0, 0.0]))


def test_numbers_and_numpy_arrays_join_the_tensor_they_meet():
    x = on_strict([1.0, 2.0])
    for y in (x * 2.0, np.array([1.0, 1.0], np.float32) + x, x - np.float32(1), 3 * x):
        assert backends.namespace(y._value) is backends.get("array_api_strict").xp


def test_copies_between_devices_carry_gradients_back(strict):
    x = on_strict([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        host = x.cpu()
        y = tf.reduce_sum(tf.to_device(host * host, strict))
    assert host.device == CPU and backends.namespace(host._value) is np
    grad = tape.gradient(y, x)
    assert backends.backend_of(grad._value) is strict
    np.testing.assert_allclose(grad.numpy(), [2.0, 4.0])


def test_check_gradients_catches_a_gradient_that_left_its_device():
    @tf.custom_gradient
    def leaky(x):
        return x * 1.0, lambda dy: tf.to_device(dy, "CPU:0")

    with backends.use("array_api_strict"), pytest.raises(AssertionError, match="gradient of input 0 is a ndarray"):
        check_gradients(leaky, np.array([1.0, 2.0]))


def test_random_numbers_are_the_same_on_every_backend():
    tf.random.set_seed(3)
    on_numpy = tf.random.normal((3,)).numpy()
    tf.random.set_seed(3)
    with backends.use("array_api_strict"):
        elsewhere = tf.random.normal((3,))
    assert backends.namespace(elsewhere._value) is not np
    np.testing.assert_array_equal(elsewhere.numpy(), on_numpy)


def test_recompute_grad_replays_dropout_on_another_backend():
    with backends.use("array_api_strict"):
        w = tf.Variable(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3))
        x = tf.ones((5, 4))
        block = tf.recompute_grad(lambda x: tf.nn.dropout(tf.tanh(x @ w), rate=0.5), check_values=True)
        with tf.GradientTape() as tape:
            out = block(x)
            loss = tf.reduce_sum(out ** 2)
        grad = tape.gradient(loss, w)           # raises unless the recomputation gives `out` again
        # The same gradient without checkpointing, with the forward pass's mask written in:
        kept = tf.cast(tf.not_equal(out, 0.0), tf.float32) * 2.0
        with tf.GradientTape() as tape:
            expected = tape.gradient(tf.reduce_sum((tf.tanh(x @ w) * kept) ** 2), w)
    assert backends.namespace(grad._value) is backends.get("array_api_strict").xp
    np.testing.assert_allclose(grad.numpy(), expected.numpy(), rtol=1e-6)


def test_memory_accounting_counts_bytes_without_nbytes():
    x = on_strict(np.ones(1000, np.float32))
    assert not hasattr(x._value, "nbytes")          # the standard has no nbytes: size times item size
    with backends.use("array_api_strict"), tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(x)
        z = tf.reduce_sum(y * 2.0 + y)
    assert tape.memory_info() == {"current": 4004, "peak": 4004}       # as the NumPy doctest
    tape.gradient(z, x)
    assert tape.memory_info()["current"] == 0


def test_pictures_and_printing_fetch_values_to_the_host(capsys):
    x = on_strict([0.5, 1.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(x) * x
    svg = tape.picture(names={"x": x, "y": y})._repr_svg_()
    assert "<svg" in svg and "tanh" in svg
    tf.print("y:", y)
    assert capsys.readouterr().out.strip() == "y: [0.231058598 1.35772228]"
    assert repr(y) == "<minitape.Tensor: shape=(2,), dtype=float32, numpy=array([0.2310586, 1.3577223], dtype=float32)>"


def test_a_keras_model_trains_where_it_was_built():
    with backends.use("array_api_strict"):
        model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="tanh"), tf.keras.layers.Dense(2)])
        x, labels = tf.random.normal((8, 4)), tf.constant([0, 1] * 4)
        optimizer = tf.keras.optimizers.Adam(0.1)
        losses = []
        for _ in range(5):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, model(x), from_logits=True))
            optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
            losses.append(float(loss))
    assert all(backends.namespace(v._value) is not np for v in model.trainable_variables)
    assert losses[-1] < losses[0]


def second_device():
    """array-api-strict's second device: a stand-in for a GPU on this machine (not the default device)."""
    xp = backends.get("array_api_strict").xp
    return backends.backend_of(xp.asarray(0.0, device=xp.Device("device1")))


def test_ops_make_their_helper_arrays_beside_their_inputs():
    # Built on the second device; differentiated outside any device block, where new tensors
    # would go to NumPy.  A helper array made in the wrong place (a scalar, zeros, a mask, a
    # one-hot, a jacobian seed, a recomputation) meets the inputs and fails.
    with backends.use(second_device()):
        x = tf.constant([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]])
        w = tf.Variable(tf.random.normal((3, 4)))
        classes = tf.constant([1, 0])
    block = tf.recompute_grad(lambda h: tf.nn.dropout(tf.nn.relu(h @ w), rate=0.25))

    def f(x):
        picked = tf.gather(x, [2, 0, 2], axis=1)[:, None, 1:] * 2.0 + x[0, 1]
        logits = block(tf.where(x > 0, x, 0.1 * x)) + tf.reduce_sum(picked)
        return tf.nn.sparse_softmax_cross_entropy_with_logits([3, 1], logits) + tf.reduce_max(tf.one_hot(classes, 4))

    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
        z = tf.tanh(x) * 1.0
    for grad in (tape.gradient(y, [x, w]) + [tape.jacobian(y, x), tape.batch_jacobian(z, x)]):
        assert grad.device.endswith("CPU:1"), grad.device
    assert y.device == x.device == w.device


def test_two_devices_of_one_library_are_named_apart():
    with backends.use(second_device()):
        there = tf.constant([1.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"input 0 is on .*CPU:0 \(array_api_strict\) but "
                                                             r"input 1 is on .*CPU:1 \(array_api_strict\)"):
        on_strict([1.0]) * there


@pytest.mark.parametrize("values", [np.arange(12, dtype=np.float32).reshape(2, 3, 2),
                                    np.array([[[True], [False], [True]]])])
def test_the_one_scatter_adds_alike_with_and_without_add_at(values, strict):
    """arrays.add_at serves gather, gather_nd and segment sums: NumPy's add.at and the standard's one-hot product agree."""
    indices = np.array([2, 0, 2])
    here = tf.core.arrays.add_at(values, indices, 4)
    there = tf.core.arrays.add_at(strict.xp.asarray(values), indices, 4)
    assert here.dtype == values.dtype and np.array_equal(np.asarray(there), here)


def test_segment_sums_drop_negative_ids_on_a_foreign_backend(strict):
    with backends.use("array_api_strict"):
        out = tf.math.unsorted_segment_sum(tf.constant([1.0, 2.0, 4.0]), [1, -1, 1], num_segments=2)
    assert backends.backend_of(out._value) is strict and out.numpy().tolist() == [0.0, 5.0]


def test_another_backends_array_converts_with_its_dtype():
    """A raw array of a known backend (CuPy's on the GPU) converts through the host, keeping its dtype."""
    strict = tf.backends.get("array_api_strict").xp
    assert tf.constant(strict.asarray([1, 2])).dtype == tf.int64
    v = tf.Variable([1.0, 2.0])
    v.assign_add(strict.asarray([0.5, 0.5], dtype=strict.float32))
    np.testing.assert_array_equal(v.numpy(), [1.5, 2.5])
