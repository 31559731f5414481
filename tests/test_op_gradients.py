"""Every op's gradient against central finite differences in float64.

Hypothesis draws the shapes (and broadcasting partners), the values and, for
reductions, the axes; `check_gradients` compares the tape's VJP with numbers.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitape as tf
from minitape.course.gradcheck import check_gradients

pytestmark = pytest.mark.usefixtures("backend")     # every test here runs on each backend

settings.register_profile("minitape", max_examples=25, deadline=None)
settings.load_profile("minitape")

SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=4)


def arrays(shape, low=-2.0, high=2.0):
    return hnp.arrays(np.float64, shape, elements=st.floats(low, high, allow_nan=False, width=64))


def away_from(value, margin=0.1):
    """Keep values away from a kink (abs, relu, maximum...) where differences are meaningless."""
    return lambda a: np.where(np.abs(a - value) < margin, value + margin + np.abs(a), a)


# name: (function, low, high, fix-up)
UNARY = {
    "negative": (tf.negative, -2, 2, None),
    "abs": (tf.abs, -2, 2, away_from(0)),
    "square": (tf.square, -2, 2, None),
    "sqrt": (tf.sqrt, 0.2, 3, None),
    "exp": (tf.exp, -2, 2, None),
    "log": (tf.math.log, 0.2, 3, None),
    "log1p": (tf.math.log1p, -0.5, 3, None),
    "sin": (tf.sin, -3, 3, None),
    "cos": (tf.cos, -3, 3, None),
    "tanh": (tf.tanh, -2, 2, None),
    "sigmoid": (tf.sigmoid, -3, 3, None),
    "softplus": (tf.math.softplus, -3, 3, None),
    "relu": (tf.nn.relu, -2, 2, away_from(0)),
    "identity": (tf.identity, -2, 2, None),
    "softmax": (tf.nn.softmax, -2, 2, None),
    "log_softmax": (tf.nn.log_softmax, -2, 2, None),
}


@pytest.mark.parametrize("name", sorted(UNARY))
@given(data=st.data())
def test_unary(name, data):
    f, low, high, fix = UNARY[name]
    rank_one = name in ("softmax", "log_softmax")       # these act along an axis
    x = data.draw(arrays(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4) if rank_one else SHAPES, low, high))
    check_gradients(f, fix(x) if fix else x)


BINARY = {
    "add": (tf.add, None),
    "subtract": (tf.subtract, None),
    "multiply": (tf.multiply, None),
    "divide": (tf.divide, lambda x, y: (x, np.where(np.abs(y) < 0.3, 0.3 + np.abs(y), y))),
    "pow": (tf.pow, lambda x, y: (np.abs(x) + 0.3, y)),
    "maximum": (tf.maximum, lambda x, y: (x, np.where(np.abs(x - y) < 0.1, y + 0.5, y))),
    "minimum": (tf.minimum, lambda x, y: (x, np.where(np.abs(x - y) < 0.1, y + 0.5, y))),
    "mod": (tf.math.mod, lambda x, y: (x, np.abs(y) + 1.5)),
}


@pytest.mark.parametrize("name", sorted(BINARY))
@given(data=st.data())
def test_binary_with_broadcasting(name, data):
    f, fix = BINARY[name]
    shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=3))
    x, y = (data.draw(arrays(s)) for s in shapes.input_shapes)
    x, y = fix(x, y) if fix else (x, y)
    if name == "mod":   # stay away from the jumps of x mod y
        x = np.floor(x / y) * y + y * 0.5 + 0.1 * np.tanh(x)
    check_gradients(f, x, y)


@pytest.mark.parametrize("reduce", [tf.reduce_sum, tf.reduce_mean, tf.reduce_max, tf.reduce_min, tf.reduce_prod])
@given(data=st.data())
def test_reductions_over_axes(reduce, data):
    x = data.draw(arrays(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4), 0.5, 2.0))
    if reduce in (tf.reduce_max, tf.reduce_min):     # distinct values: no ties to split
        x = x + np.arange(x.size).reshape(x.shape) * 0.37
    axis = data.draw(st.none() | st.lists(st.integers(-x.ndim, x.ndim - 1), min_size=1, max_size=x.ndim, unique_by=lambda a: a % x.ndim))
    keepdims = data.draw(st.booleans())
    check_gradients(lambda t: reduce(t, axis=axis, keepdims=keepdims), x)


def test_reduce_prod_is_exact_with_zeros():
    check_gradients(lambda t: tf.reduce_prod(t, axis=1), np.array([[0.0, 2.0, 3.0], [0.0, 0.0, 4.0]]))


@given(data=st.data())
def test_matmul_with_batch_broadcasting(data):
    n, k, m = (data.draw(st.integers(1, 4)) for _ in range(3))
    batch_a, batch_b = data.draw(st.sampled_from([((), ()), ((2,), ()), ((), (3,)), ((2, 1), (3,))]))
    ta, tb = data.draw(st.booleans()), data.draw(st.booleans())
    a = data.draw(arrays(batch_a + ((k, n) if ta else (n, k))))
    b = data.draw(arrays(batch_b + ((m, k) if tb else (k, m))))
    check_gradients(lambda x, y: tf.matmul(x, y, transpose_a=ta, transpose_b=tb), a, b)
    check_gradients(lambda x, y: tf.linalg.matmul(x, y, transpose_a=ta, transpose_b=tb), a, b)


SHAPE_OPS = [
    ("reshape", lambda x: tf.reshape(x, (3, -1)), (2, 3)),
    ("transpose", lambda x: tf.transpose(x, (2, 0, 1)), (2, 3, 4)),
    ("transpose default", tf.transpose, (2, 3)),
    ("squeeze", tf.squeeze, (1, 3, 1)),
    ("squeeze axis", lambda x: tf.squeeze(x, axis=[0]), (1, 3, 1)),
    ("expand_dims", lambda x: tf.expand_dims(x, -1), (2, 3)),
    ("broadcast_to", lambda x: tf.broadcast_to(x, (4, 2, 3)), (1, 3)),
    ("tile", lambda x: tf.tile(x, (2, 3)), (2, 2)),
    ("concat", lambda x: tf.concat([x, 2 * x, x[:1]], axis=0), (2, 3)),
    ("stack", lambda x: tf.stack([x, x * x], axis=1), (2, 3)),
    ("gather repeated", lambda x: tf.gather(x, [2, 0, 2], axis=1), (2, 3)),
    ("getitem", lambda x: x[1:, ..., None, 0] * 3 + x[0, 1], (3, 2, 2)),
    ("getitem negative step", lambda x: x[::-2], (5,)),
    ("where", lambda x: tf.where(x > 0, x * x, -x), (3, 3)),
    ("clip_by_value", lambda x: tf.clip_by_value(x, -0.5, 0.5), (4, 4)),
    ("einsum matmul", lambda x: tf.einsum("ij,jk->ik", x, tf.transpose(x)), (2, 3)),
    ("einsum sum over private letter", lambda x: tf.einsum("ijk->i", x), (2, 3, 2)),
    ("einsum outer", lambda x: tf.einsum("i,j->ij", x, x * 2), (3,)),
    ("softmax axis 0", lambda x: tf.nn.softmax(x, axis=0), (3, 2)),
    ("softmax cross-entropy", lambda x: tf.nn.softmax_cross_entropy_with_logits(tf.nn.softmax(x * 0.5), x), (3, 4)),
    ("sparse cross-entropy", lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits([1, 0, 3], x), (3, 4)),
    ("python operators", lambda x: (2.0 - x) / (x * x + 1.0) ** 2 + abs(x) @ tf.ones((3, 1), tf.float64), (2, 3)),
]


def test_cross_entropy_with_labels_not_summing_to_one_is_exact():
    """minitape differs from TF on purpose: the exact derivative ``sum(labels) * softmax - labels``, checked
    against finite differences; TF 2.21's fused kernel returns ``softmax - labels`` whatever the labels sum to."""
    logits, labels = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]]), np.array([[0.5, 1.0, 0.25], [0.0, 0.2, 0.3]])
    check_gradients(lambda y, z: tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=z), labels, logits)
    x = tf.constant(logits)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=x)
    softmax = tf.nn.softmax(x).numpy()
    exact = labels.sum(axis=1, keepdims=True) * softmax - labels
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), exact, rtol=1e-12)
    assert not np.allclose(exact, softmax - labels)               # TF 2.21's answer (its fused kernel)


@pytest.mark.parametrize("name,f,shape", SHAPE_OPS, ids=[c[0] for c in SHAPE_OPS])
def test_shape_and_composite_ops(name, f, shape):
    rng = np.random.default_rng(1)
    x = rng.uniform(0.3, 1.5, shape) * rng.choice([-1, 1], shape)
    check_gradients(f, x)


def needs_dtype(dtype):
    """Skip when the current backend has no arrays of ``dtype`` (the array API has no float16)."""
    if getattr(tf.backends.current().xp, dtype.name, None) is None:
        pytest.skip(f"{tf.backends.current().name} has no {dtype.name}")


def _tanh_product_gradients(x, y):
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = tf.reduce_sum(tf.tanh(x * y) + x)
    return tape.gradient(z, [x, y])


@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64])
@given(data=st.data())
def test_gradients_keep_the_source_dtype(dtype, data):
    needs_dtype(dtype)
    shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2, max_side=3))
    x64, y64 = (data.draw(arrays(s, -1, 1)) for s in shapes.input_shapes)
    x, y = tf.constant(x64, dtype), tf.constant(y64, dtype)
    gx, gy = _tanh_product_gradients(x, y)
    assert (gx.dtype, gy.dtype) == (dtype, dtype)
    assert (gx.shape, gy.shape) == (x.shape, y.shape)
    # Same computation in float64 from the rounded inputs: agrees to the dtype's precision.
    rx, ry = _tanh_product_gradients(tf.constant(x.numpy(), tf.float64), tf.constant(y.numpy(), tf.float64))
    tolerance = {tf.float16: 3e-2, tf.float32: 1e-5, tf.float64: 1e-12}[dtype]
    np.testing.assert_allclose(gx.numpy(), rx.numpy(), rtol=tolerance, atol=tolerance)
    np.testing.assert_allclose(gy.numpy(), ry.numpy(), rtol=tolerance, atol=tolerance)


def test_cast_passes_gradients_between_float_dtypes_and_stops_at_integers():
    x = tf.constant([1.5, -2.5], tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        via_float32 = tf.cast(tf.cast(x, tf.float32), tf.float64) * 3.0
        via_int = tf.cast(tf.cast(x, tf.int32), tf.float64)
    np.testing.assert_array_equal(tape.gradient(via_float32, x).numpy(), [3.0, 3.0])
    assert tape.gradient(via_float32, x).dtype == tf.float64
    assert tape.gradient(via_int, x) is None


def test_one_hot_and_where_indices_follow_tensorflow():
    np.testing.assert_array_equal(tf.one_hot([2, 0, -1], 3).numpy(), [[0, 0, 1], [1, 0, 0], [0, 0, 0]])
    signs = tf.one_hot([1], 2, on_value=5, off_value=-1)
    assert (signs.dtype, signs.numpy().tolist()) == (tf.int32, [[-1, 5]])
    assert tf.one_hot([[1, 0]], 2, axis=0).shape == (2, 1, 2)
    indices = tf.where(tf.constant([[True, False], [False, True]]))
    assert indices.dtype == tf.int64
    np.testing.assert_array_equal(indices.numpy(), [[0, 0], [1, 1]])
    assert tf.where(tf.constant(True)).shape == (1, 0)


def test_indexing_takes_tensorflows_basic_indices_only():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert x[tf.constant(1), ::-1].numpy().tolist() == [4.0, 3.0]
    with pytest.raises(TypeError, match=r"valid indices, got \[0, 1\]; use tf.gather"):
        x[[0, 1]]


# --------------------------------------------------------------------------- issue #17: the ops students use
# Each op's gradient, and the gradient of that gradient (a second tape records the first's VJPs), against
# central differences in float64.

def first_derivative(f):
    """``x -> d/dx sum(f(x) * w)`` for a fixed weighting ``w``, as a function check_gradients can differentiate."""
    def derivative(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = f(x)
            weights = np.random.default_rng(7).uniform(0.5, 1.5, size=tuple(out.shape))
            total = tf.reduce_sum(out * tf.constant(weights))
        return tape.gradient(total, x)
    return derivative


def check_first_and_second(f, x, rtol=1e-5, atol=1e-6):
    check_gradients(f, x, rtol=rtol, atol=atol)
    check_gradients(first_derivative(f), x, eps=1e-5, rtol=1e-4, atol=1e-5)


def well_conditioned(data, batch, n):
    """A batch of ``n x n`` matrices far from singular: entries in [-1, 1], plus ``n + 1`` on the diagonal
    (each diagonal entry then outweighs the rest of its row)."""
    return data.draw(arrays(batch + (n, n), -1.0, 1.0)) + (n + 1) * np.eye(n)


MATRIX_BATCHES = st.sampled_from([(), (2,), (2, 1)])


@given(data=st.data())
def test_solve_inv_det_trace_over_batches(data):
    batch, n = data.draw(MATRIX_BATCHES), data.draw(st.integers(1, 3))
    a = well_conditioned(data, batch, n)
    rhs = data.draw(arrays(batch + (n, data.draw(st.integers(1, 2)))))
    adjoint = data.draw(st.booleans())
    check_first_and_second(lambda m: tf.linalg.inv(m, adjoint=adjoint), a)
    check_first_and_second(tf.linalg.det, a)
    check_first_and_second(tf.linalg.trace, a)
    check_first_and_second(lambda m: tf.linalg.solve(m, tf.constant(rhs), adjoint=adjoint), a)
    check_first_and_second(lambda b: tf.linalg.solve(tf.constant(a), b * b, adjoint=adjoint), rhs)


@given(data=st.data())
def test_norms_over_shapes_axes_and_orders(data):
    x = data.draw(arrays(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3), 0.2, 2.0))
    x = x * np.where(np.arange(x.size).reshape(x.shape) % 2, -1.0, 1.0) + np.arange(x.size).reshape(x.shape) * 0.31
    axis = data.draw(st.none() | st.integers(-x.ndim, x.ndim - 1))
    ord = data.draw(st.sampled_from(["euclidean", 1, 2, np.inf, 3, 1.5]))
    keepdims = data.draw(st.booleans())
    check_first_and_second(lambda t: tf.norm(t, ord=ord, axis=axis, keepdims=keepdims), x)


@pytest.mark.parametrize("ord", ["fro", "euclidean", 1, np.inf])
@pytest.mark.parametrize("axis", [[0, 1], [1, 0], [-1, 0]])
def test_matrix_norms(ord, axis):
    x = np.arange(12.0).reshape(3, 4) ** 1.3 * np.array([1, -1, 1, -1]) + 0.5   # distinct column and row sums
    check_first_and_second(lambda t: tf.norm(t, ord=ord, axis=axis), x)
    check_first_and_second(lambda t: tf.linalg.norm(tf.stack([t, 2 * t]), ord=ord, axis=[a + 1 for a in axis]), x)


NEW_OPS = [
    ("tensordot int", lambda x: tf.tensordot(x, tf.transpose(x) * 2.0, 1), (2, 3)),
    ("tensordot pairs", lambda x: tf.tensordot(x, tf.reshape(x, (3, 2, 1)), [[0, 1], [1, 0]]), (2, 3)),
    ("tensordot outer", lambda x: tf.tensordot(x, x[0], 0), (2, 3)),
    ("tensordot 3-d", lambda x: tf.tensordot(x, x * x, [[2, 0], [2, 0]]), (2, 3, 2)),
    ("clip_by_norm clipped", lambda x: tf.clip_by_norm(x, 1.0), (2, 3)),
    ("clip_by_norm unclipped", lambda x: tf.clip_by_norm(x, 100.0), (2, 3)),
    ("clip_by_norm axes", lambda x: tf.clip_by_norm(x, 1.2, axes=[1]), (3, 2)),
    ("clip_by_global_norm", lambda x: tf.stack(tf.clip_by_global_norm([x, None, x * x], 1.0)[0][::2]), (2, 3)),
    ("clip_by_global_norm's norm", lambda x: tf.clip_by_global_norm([x, x[0]], 1.0)[1], (2, 3)),
    ("global_norm", lambda x: tf.linalg.global_norm([x, None, x * x]), (2, 2)),
    ("matrix_transpose", lambda x: tf.linalg.matrix_transpose(x) * tf.range(6.0, dtype=tf.float64), (2, 6, 1)),
    ("diag", lambda x: tf.linalg.diag(x * x), (2, 3)),
    ("diag k, num_rows, padding", lambda x: tf.linalg.diag(x, k=-1, num_cols=4, padding_value=2.0) * 3.0, (3,)),
    ("diag_part", lambda x: tf.linalg.diag_part(x) ** 2, (2, 3, 4)),
    ("diag_part k", lambda x: tf.linalg.diag_part(x * x, k=1), (3, 4)),
    ("add_n", lambda x: tf.add_n([x, x * x, tf.ones_like(x)]), (2, 3)),
    ("einsum diagonal", lambda x: tf.einsum("ii->i", x * x), (3, 3)),
    ("einsum trace, implicit", lambda x: tf.einsum("ii", x * x), (3, 3)),
    ("einsum batch diagonal", lambda x: tf.einsum("bxby->bxy", x * x), (2, 3, 2, 3)),
    ("einsum diagonal times a vector", lambda x: tf.einsum("iij,j->i", x * x, x[0, 0]), (2, 2, 2)),
    ("einsum three equal axes", lambda x: tf.einsum("iii", x * x), (2, 2, 2)),
    ("einsum implicit matmul", lambda x: tf.einsum("ij,jk", x, tf.transpose(x * x)), (2, 3)),
    ("softplus", lambda x: tf.nn.softplus(x * 3.0), (2, 3)),
    ("cumsum", lambda x: tf.cumsum(x * x, axis=1), (2, 3)),
    ("cumsum exclusive reverse", lambda x: tf.cumsum(x * x, axis=0, exclusive=True, reverse=True), (3, 2)),
    ("boolean_mask", lambda x: tf.boolean_mask(x * x, [[True, False, True], [False, True, True]]), (2, 3)),
    ("boolean_mask axis", lambda x: tf.boolean_mask(x * x, [False, True, True], axis=1), (2, 3)),
    ("matvec", lambda x: tf.linalg.matvec(x, x[0] * x[0]), (3, 3)),
    ("matvec transposed, batched", lambda x: tf.linalg.matvec(x * x, x[0, 0], transpose_a=True), (2, 3, 3)),
    ("elu", lambda x: tf.nn.elu(x * 2.0), (2, 3)),
    ("selu", lambda x: tf.nn.selu(x * 2.0), (2, 3)),
    ("leaky_relu", lambda x: tf.nn.leaky_relu(x * x * x, alpha=0.3), (2, 3)),
    ("relu6", lambda x: tf.nn.relu6(x * x * x * 4.0), (2, 3)),
    ("gelu", lambda x: tf.nn.gelu(x * 2.0), (2, 3)),
    ("gelu approximate", lambda x: tf.nn.gelu(x * 2.0, approximate=True), (2, 3)),
    ("erf", lambda x: tf.math.erf(x), (2, 3)),
    ("pad constant", lambda x: tf.pad(x * x, [[1, 0], [2, 1]], constant_values=3.0), (2, 3)),
    ("pad reflect", lambda x: tf.pad(x * x, [[1, 1], [2, 2]], mode="REFLECT"), (2, 3)),
    ("pad symmetric", lambda x: tf.pad(x * x, [[0, 2], [3, 1]], mode="symmetric"), (2, 3)),
]


@pytest.mark.parametrize("name,f,shape", NEW_OPS, ids=[c[0] for c in NEW_OPS])
def test_new_ops_first_and_second_derivatives(name, f, shape):
    rng = np.random.default_rng(3)
    x = rng.uniform(0.3, 1.5, shape) * rng.choice([-1, 1], shape)
    check_first_and_second(f, x)


def test_taking_a_diagonal_scatters_its_gradient_into_the_diagonal():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.einsum("ii->i", x) * tf.constant([1.0, 10.0])
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [[1.0, 0.0], [0.0, 10.0]])
    inf = tf.constant([[1.0, np.inf], [np.nan, 2.0]])         # what is off the diagonal is never read
    np.testing.assert_array_equal(tf.einsum("ii->i", inf).numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(tf.linalg.diag_part(inf).numpy(), [1.0, 2.0])


def test_batch_jacobian_checked_with_a_batch_diagonal_as_tfs_guide_does():
    x = tf.random.normal((3, 4), dtype=tf.float64)
    w = tf.random.normal((4, 4), dtype=tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.tanh(x @ w)
    batch_jacobian = tape.batch_jacobian(y, x)
    full = tape.jacobian(y, x)                                   # shape (3, 4, 3, 4)
    np.testing.assert_allclose(tf.einsum("bxby->bxy", full).numpy(), batch_jacobian.numpy(), rtol=1e-12)


def test_zero_norm_gradients_are_tfs():
    """The euclidean norm's gradient at 0 is nan (TF's sqrt(sum(x*x))); the 1- and max-norms' is 0; clipping's finite."""
    x = tf.constant([0.0, 0.0])
    expected = {"euclidean": [np.nan, np.nan], 2: [np.nan, np.nan], 1: [0.0, 0.0], np.inf: [0.0, 0.0]}
    for ord, gradient in expected.items():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.norm(x, ord=ord)
        np.testing.assert_array_equal(tape.gradient(y, x).numpy(), gradient)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.clip_by_norm(x, 1.0)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [1.0, 1.0])     # below the clip: the identity


def test_max_norm_ties_share_the_gradient_as_tf():
    x = tf.constant([1.0, -1.0, 1.0, 0.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.norm(x, ord=np.inf)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [1 / 3, -1 / 3, 1 / 3, 0.0])


def test_grad_pass_through_is_the_identity_backward():
    x = tf.constant([1.3, 2.6])
    w = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        stepped = tf.grad_pass_through(lambda v: tf.math.floordiv(v, 1.0))(x * 3.0)
        scaled = tf.grad_pass_through(lambda v: v * w)(x)
    np.testing.assert_array_equal(stepped.numpy(), [3.0, 7.0])
    np.testing.assert_allclose(tape.gradient(stepped, x).numpy(), [3.0, 3.0])
    assert tape.gradient(scaled, [x, w])[1] is None              # variables f reads get none, as in TF
    np.testing.assert_array_equal(tape.gradient(scaled, x).numpy(), [1.0, 1.0])
    two_inputs = tf.grad_pass_through(lambda a, b: a * b)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = two_inputs(x, x)
    with pytest.raises(ValueError, match="expected to return 2 gradients, but returned 1"):
        tape.gradient(y, x)                                      # TF 2.21's error too


def test_add_n_and_softplus_gradients():
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.add_n([v, v * 3.0, tf.constant([1.0, 1.0])])
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), [4.0, 4.0])
    x = tf.constant([-1000.0, 0.0, 1000.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.softplus(x)
    np.testing.assert_array_equal(y.numpy(), np.array([0.0, np.log(2.0), 1000.0], np.float32))
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [0.0, 0.5, 1.0])     # sigmoid(x)


def test_singular_matrices_are_refused_forward_and_in_det_gradient():
    singular = tf.constant([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="inv: Input is not invertible"):
        tf.linalg.inv(singular)
    with pytest.raises(tf.errors.InvalidArgumentError, match="solve: Input matrix is not invertible"):
        tf.linalg.solve(singular, tf.ones((2, 1)))
    with tf.GradientTape() as tape:
        tape.watch(singular)
        d = tf.linalg.det(singular)
    assert d.numpy() == 0.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="not invertible"):
        tape.gradient(d, singular)                                # TF's det gradient inverts the matrix too
