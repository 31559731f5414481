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
from minitape.gradcheck import check_gradients

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
