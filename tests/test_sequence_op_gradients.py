"""The sequence ops' gradients, and the gradients of those, against central finite differences in float64.

Each op runs on every backend (NumPy, and array-api-strict: the standard alone); hypothesis draws shapes
and the op's arguments.  ``check_first_and_second`` is test_op_gradients' check: the tape's gradient of a
weighted sum, then the gradient of that gradient.
"""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitape as tf
from test_op_gradients import arrays, check_first_and_second

pytestmark = pytest.mark.usefixtures("backend")

SHAPES = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)


def cubed(f):
    """``f`` of ``x**3``: a linear op's second derivative is zero, so a non-linear input makes it say something."""
    return lambda x: f(x * x * x)


@given(data=st.data())
def test_split_unstack_reverse_roll(data):
    x = data.draw(arrays(SHAPES))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    n = x.shape[axis]
    cut = data.draw(st.integers(0, n))
    check_first_and_second(cubed(lambda t: tf.concat(tf.split(t, [cut, -1], axis=axis)[::-1], axis=axis)), x)
    check_first_and_second(cubed(lambda t: tf.stack(tf.unstack(t, axis=axis)[::-1])), x)
    axes = data.draw(st.lists(st.integers(0, x.ndim - 1), unique=True))
    check_first_and_second(cubed(lambda t: tf.reverse(t, axes)), x)
    shifts = data.draw(st.lists(st.integers(-5, 5), min_size=len(axes), max_size=len(axes)))
    check_first_and_second(cubed(lambda t: tf.roll(t, shifts, axes)), x)


@given(data=st.data())
def test_repeat(data):
    x = data.draw(arrays(SHAPES))
    axis = data.draw(st.none() | st.integers(-x.ndim, x.ndim - 1))
    n = x.size if axis is None else x.shape[axis]
    repeats = data.draw(st.integers(0, 3) | st.lists(st.integers(0, 3), min_size=n, max_size=n))
    check_first_and_second(cubed(lambda t: tf.repeat(t, repeats, axis=axis)), x)


@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid(indexing):
    x, y, z = np.array([0.5, -1.0, 2.0]), np.array([1.5, 0.3]), np.array([-0.7, 0.9, 1.1, 0.2])
    check_first_and_second(lambda a: tf.stack(tf.meshgrid(a * a, a[:2] * 3.0, indexing=indexing)), x)
    check_first_and_second(lambda b: tf.concat([tf.reshape(g * g, [-1]) for g in tf.meshgrid(
        tf.constant(x), b, tf.constant(z), indexing=indexing)], 0), y)


@given(data=st.data())
def test_gather_nd_and_scatter_nd(data):
    x = data.draw(arrays(hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=3)))
    batch_dims = data.draw(st.integers(0, 1))
    k = data.draw(st.integers(0 if batch_dims else 1, x.ndim - batch_dims))
    count = data.draw(st.integers(1, 4))
    places = x.shape[batch_dims:batch_dims + k]
    vectors = data.draw(hnp.arrays(np.int64, x.shape[:batch_dims] + (count, k),
                                   elements=st.integers(0, 100))) % np.array(places or (1,), np.int64)[:k]
    check_first_and_second(cubed(lambda t: tf.gather_nd(t, vectors, batch_dims=batch_dims)), x)
    if not batch_dims and k:
        updates = data.draw(arrays((count,) + x.shape[k:]))
        check_first_and_second(cubed(lambda u: tf.scatter_nd(vectors, u, x.shape)), updates)


@given(data=st.data())
def test_tensor_scatter_nd(data):
    x = data.draw(arrays(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3)))
    k = data.draw(st.integers(1, x.ndim))
    count = data.draw(st.integers(1, 4))
    vectors = data.draw(hnp.arrays(np.int64, (count, k), elements=st.integers(0, 100))) % np.array(x.shape[:k])
    updates = data.draw(arrays((count,) + x.shape[k:]))
    unique = np.unique(vectors, axis=0)
    distinct = data.draw(arrays((len(unique),) + x.shape[k:]))
    for op in (tf.tensor_scatter_nd_add, tf.tensor_scatter_nd_sub):
        check_first_and_second(lambda t: op(t * t * t, vectors, tf.constant(updates)), x)
        check_first_and_second(lambda u: op(tf.constant(x), vectors, u * u * u), updates)
    # Repeated index vectors: the last update wins, and (as TF's) every update's gradient is gathered.
    check_first_and_second(lambda t: tf.tensor_scatter_nd_update(t * t * t, vectors, tf.constant(updates)), x)
    check_first_and_second(lambda u: tf.tensor_scatter_nd_update(tf.constant(x), unique, u * u * u), distinct)


def test_update_gradient_is_tfs_where_an_index_repeats():
    """TF gathers the gradient for each update, the overwritten ones too (recorded: update_grads has none)."""
    x, u = tf.zeros(3, tf.float64), tf.constant([1.0, 2.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([x, u])
        y = tf.tensor_scatter_nd_update(x, [[1], [1]], u)
    gx, gu = tape.gradient(y, [x, u])
    np.testing.assert_array_equal(y.numpy(), [0.0, 2.0, 0.0])
    np.testing.assert_array_equal(gx.numpy(), [1.0, 0.0, 1.0])
    np.testing.assert_array_equal(gu.numpy(), [1.0, 1.0])


@given(data=st.data())
def test_band_part(data):
    x = data.draw(arrays(hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=4)))
    lower = data.draw(st.integers(-1, x.shape[-2]))
    upper = data.draw(st.integers(-1, x.shape[-1]))
    check_first_and_second(cubed(lambda t: tf.linalg.band_part(t, lower, upper)), x)


@pytest.mark.parametrize("dtype", [tf.int8, tf.int32, tf.int64, tf.uint8, tf.bool])
def test_integer_and_bool_inputs(dtype):
    """Every op moves integers and booleans as it moves floats (scatter adds only numbers)."""
    x = tf.cast(tf.reshape(tf.range(12) % 5, (3, 4)), dtype)
    expected = x.numpy()
    for got, want in [
        (tf.concat(tf.split(x, [1, -1], axis=1), 1), expected),
        (tf.stack(tf.unstack(x)), expected),
        (tf.reverse(x, [0, 1]), expected[::-1, ::-1]),
        (tf.roll(x, [1, -1], [0, 1]), np.roll(expected, (1, -1), (0, 1))),
        (tf.repeat(x, 2, axis=0), np.repeat(expected, 2, axis=0)),
        (tf.gather_nd(x, [[2, 1], [0, 3]]), expected[[2, 0], [1, 3]]),
        (tf.linalg.band_part(x, 0, 1), np.where(np.triu(np.tril(np.ones((3, 4)), 1)) > 0, expected,
                                                np.zeros_like(expected))),
        (tf.tensor_scatter_nd_update(x, [[1, 1]], tf.cast([1], dtype)), np.where(np.arange(12).reshape(3, 4) == 5,
                                                                                  np.array(1, expected.dtype), expected)),
        (tf.meshgrid(x[0], x[1])[1], np.broadcast_to(expected[1][:, None], (4, 4))),
    ]:
        assert got.dtype == dtype
        np.testing.assert_array_equal(got.numpy(), want)
    if dtype is not tf.bool:
        np.testing.assert_array_equal(tf.scatter_nd([[0], [0]], x[:2], [2, 4]).numpy(),
                                      np.stack([expected[0] + expected[1], 0 * expected[0]]))
