"""The fast path (``minitape/ops/fast_path.py``) does what the kernel does: the same values, first and
second derivatives, errors and NumPy settings as ``apply`` and ``OpEntry.backward``."""
import numpy as np
import pytest

import minitape as tf
from minitape.core.primitive import Joint, Op, apply
from minitape.ops.elementwise import _tanh_grad, unary
from minitape.ops import linalg
from minitape.ops.fast_path import run, tanh_grad_forward

pytestmark = pytest.mark.usefixtures("backend")     # elsewhere than NumPy, both ways are the kernel's

SHAPES = [((3,), (3,)), ((), ()), ((2, 3), (3,)), ((), (2,)), ((2, 1), (1, 3))]
BINARY = [tf.add, tf.subtract, tf.multiply, tf.divide, tf.maximum, tf.minimum, tf.pow]


def first_and_second(call, xs):
    """Gradients of sum(call(*xs)) and of the sum of those gradients, both with respect to every input."""
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(xs)
        with tf.GradientTape() as inner:
            inner.watch(xs)
            y = tf.reduce_sum(call(*xs) * tf.sin(xs[0]))     # the upstream gradient depends on x too
        firsts = inner.gradient(y, xs)
        total = tf.add_n([tf.reduce_sum(g) for g in firsts])
    return [g.numpy() for g in firsts + outer.gradient(total, xs)]


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("function", BINARY, ids=lambda f: f.__name__)
def test_binary_ops_differentiate_as_the_kernel_does_at_one_shape_and_broadcasting(function, shapes):
    rng = np.random.default_rng(0)
    xs = [tf.constant(rng.uniform(0.5, 2.0, size=shape)) for shape in shapes]
    fast = first_and_second(function, xs)
    kernel = first_and_second(lambda x, y: apply(function.op, (x, y)), xs)
    for ours, theirs, x in zip(fast, kernel, xs + xs):
        assert ours.shape == x.shape
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


@pytest.mark.parametrize("function", [tf.sin, tf.cos, tf.tanh, tf.sigmoid, tf.nn.relu, tf.exp])
def test_unary_ops_differentiate_as_the_kernel_does(function):
    xs = [tf.constant([-1.3, -0.2, 0.4, 1.7])]
    fast = first_and_second(function, xs)
    kernel = first_and_second(lambda x: apply(function.op, (x,)), xs)
    for ours, theirs in zip(fast, kernel):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def test_a_row_of_the_table_reading_what_it_does_not_keep_is_named_by_the_kernel():
    tanh = Op("tanh", lambda xp, x: xp.tanh(x), (lambda g, ans, x: _tanh_grad(ans, g),))
    tanh.checked = False                   # as a row of the table: its backward step is the fast path's
    x = tf.constant([0.5, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = run(tanh, (x,))
    with pytest.raises(tf.errors.NotKeptError, match="tanh: the VJP of input 0 used the output, which tanh does not"):
        tape.gradient(y, x)


def test_a_joint_vjp_through_the_fast_path_is_the_kernels():
    times = Op("times", lambda xp, x, y: x * y, Joint(lambda wanted, g, ans, x, y: (g * y, g * x)), keep=(0, 1))
    times.checked = False
    x, y = tf.constant([2.0, 3.0]), tf.constant([5.0, 7.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = run(times, (x, y))
    np.testing.assert_array_equal(tape.gradient(z, x).numpy(), [5.0, 7.0])


def test_an_op_people_write_gets_the_kernels_checks():
    total = unary("total", lambda xp, x: xp.sum(x), lambda g, ans, x: g)      # forgot to broadcast g back
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = total(x)
    with pytest.raises(tf.errors.GradientShapeError, match="total: the VJP of input 0 returned a gradient of shape"):
        tape.gradient(y, x)


def test_a_backward_pass_of_ops_is_quiet_and_leaves_numpys_settings_as_they_were():
    x = tf.constant([0.0, 2.0])
    with np.errstate(all="raise"):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.math.log(x)                      # -inf at 0, without a word
        grad = tape.gradient(y, x)                  # 1 / 0 on the way back: inf, without a word
        assert np.geterr()["divide"] == "raise"
    np.testing.assert_array_equal(grad.numpy(), [np.inf, 0.5])


def test_the_users_own_code_in_a_backward_pass_keeps_numpys_warnings():
    @tf.custom_gradient
    def f(x):
        def grad(upstream):
            np.float32(1.0) / np.float32(0.0)       # the user's NumPy, not an op: it warns, as under TF
            return upstream
        return tf.identity(x), grad

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sin(f(x))
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        assert tape.gradient(y, x).numpy() == np.float32(np.cos(1.0))


def test_the_users_own_code_in_an_op_they_wrote_keeps_numpys_warnings():
    def vjp(upstream, ans, x):
        np.float32(1.0) / np.float32(0.0)           # the user's NumPy in the VJP of an op they wrote: it warns
        return upstream

    mine = Op("mine", lambda xp, x: x, (vjp,))
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sin(apply(mine, (x,)))
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        assert tape.gradient(y, x).numpy() == np.float32(np.cos(1.0))


FLAGS = [(False, False), (False, True), (True, False), (True, True)]


@pytest.mark.parametrize("transpose_a, transpose_b", FLAGS)
def test_a_product_of_matrices_differentiates_as_the_kernels_matmul(transpose_a, transpose_b):
    # Two matrices run as an op with their flags fixed (linalg._MATRIX_PRODUCTS), through run.
    rng = np.random.default_rng(0)
    a = tf.constant(rng.normal(size=(3, 2) if transpose_a else (2, 3)))
    b = tf.constant(rng.normal(size=(4, 3) if transpose_b else (3, 4)))
    flags = {"transpose_a": transpose_a, "transpose_b": transpose_b}
    fast = first_and_second(lambda x, y: tf.reduce_sum(tf.sin(tf.matmul(x, y, **flags))), [a, b])
    kernel = first_and_second(lambda x, y: tf.reduce_sum(tf.sin(apply(linalg._MATMUL, (x, y), flags))), [a, b])
    for ours, theirs, x in zip(fast, kernel, [a, b, a, b]):
        assert ours.shape == x.shape
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def test_a_batch_of_products_still_sums_its_broadcast_gradient():
    a, b = tf.ones((2, 3, 4)), tf.ones((4, 5))
    with tf.GradientTape() as tape:
        tape.watch(b)
        y = tf.matmul(a, b)
    np.testing.assert_array_equal(tape.gradient(y, b).numpy(), np.full((4, 5), 6.0))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_bias_gradient_summed_outside_the_table_is_the_sum_and_differentiates_again(dtype):
    # With no tape recording, unbroadcast sums over the batch with BLAS; under one, with the op.
    rng = np.random.default_rng(1)
    x, b = tf.constant(rng.normal(size=(5, 2, 3)).astype(dtype)), tf.constant(rng.normal(size=3).astype(dtype))
    upstream = rng.normal(size=(5, 2, 3)).astype(dtype)
    with tf.GradientTape() as tape:
        tape.watch(b)
        y = x + b
    plain = tape.gradient(y, b, output_gradients=tf.constant(upstream))
    assert plain.dtype == tf.as_dtype(dtype) and plain.shape == (3,)
    np.testing.assert_allclose(plain.numpy(), upstream.sum(axis=(0, 1)), rtol=1e-5 if dtype is np.float32 else 1e-12)
    fast, kernel = (first_and_second(call, [x, b]) for call in (tf.add, lambda u, v: apply(tf.add.op, (u, v))))
    for ours, theirs in zip(fast, kernel):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5 if dtype is np.float32 else 1e-12)


@pytest.mark.parametrize("y, g", [
    (np.linspace(-0.9, 0.9, 12, dtype=np.float32).reshape(3, 4), np.arange(12, dtype=np.float32).reshape(3, 4)),
    (np.float64(0.5), np.float64(2.0)),                                             # NumPy scalars
    (np.array(0.5, np.float32), np.array(2.0, np.float32)),                         # 0-d arrays
    (np.full((2, 3), 0.5, np.float32), np.ones(3, np.float32)),                     # broadcasting
    (np.full(3, 0.5, np.float32), np.ones(3)),                                      # two dtypes
])
def test_tanhs_gradient_in_one_array_is_the_expressions(y, g):
    ours, theirs = tanh_grad_forward(np, y, g), g * (1 - y * y)
    assert type(ours) is type(theirs) and ours.dtype == theirs.dtype and np.shape(ours) == np.shape(theirs)
    np.testing.assert_array_equal(ours, theirs)
