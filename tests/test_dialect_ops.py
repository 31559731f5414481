"""Issue #17's ops give TF 2.21's values, dtypes and shapes.

Each expected value below was printed by TensorFlow 2.21 for the same line (TensorFlow is never imported
here); the gradients are in test_op_gradients.py and the refusals in test_bad_input.py.
"""
import numpy as np
import pytest

import minitape as tf

pytestmark = pytest.mark.usefixtures("backend")     # every test here runs on each backend

X = [[3.0, -4.0], [1.0, 2.0]]


def same(tensor, values, dtype):
    assert tensor.dtype.name == dtype
    np.testing.assert_allclose(tensor.numpy(), np.array(values), rtol=1e-6)
    assert tensor.shape.as_list() == list(np.shape(values))


@pytest.mark.parametrize("code, values, dtype", [
    ("tf.norm(X)", 5.4772257804870605, "float32"),
    ("tf.norm(X, ord=1)", 10.0, "float32"),
    ("tf.norm(X, ord=2)", 5.4772257804870605, "float32"),
    ("tf.norm(X, ord=np.inf)", 4.0, "float32"),
    ("tf.norm(X, ord=3)", 4.641589164733887, "float32"),
    ("tf.norm(X, ord=1.5)", 6.617860317230225, "float32"),
    ("tf.norm(X, axis=1)", [5.0, 2.236068], "float32"),
    ("tf.norm(X, axis=-1, keepdims=True)", [[5.0], [2.236068]], "float32"),
    ("tf.norm(X, keepdims=True)", [[5.477226]], "float32"),
    ("tf.norm(X, ord=1, axis=[0, 1])", 6.0, "float32"),
    ("tf.norm(X, ord=np.inf, axis=[0, 1])", 7.0, "float32"),
    ("tf.norm(X, axis=(1, 0), ord=1)", 7.0, "float32"),
    ("tf.norm(X, axis=[1, 0], ord=np.inf)", 6.0, "float32"),
    ("tf.norm(X, ord='fro', axis=[0, 1])", 5.4772257804870605, "float32"),
    ("tf.norm(X, ord=np.inf, axis=[-2, -1], keepdims=True)", [[7.0]], "float32"),
    ("tf.linalg.norm(tf.ones((2, 3, 4)), ord=1, axis=[1, 2])", [3.0, 3.0], "float32"),
    ("tf.norm(tf.constant([3.0, 4.0], tf.float64))", 5.0, "float64"),
    ("tf.norm(tf.constant(3.0))", 3.0, "float32"),
    ("tf.tensordot(A, B, 1)", [[20, 23, 26, 29], [56, 68, 80, 92]], "float32"),
    ("tf.tensordot(A, B, [[1], [0]])", [[20, 23, 26, 29], [56, 68, 80, 92]], "float32"),
    ("tf.tensordot(A, B, [1, 0])", [[20, 23, 26, 29], [56, 68, 80, 92]], "float32"),
    ("tf.tensordot(A, B, [[-1], [-2]])", [[20, 23, 26, 29], [56, 68, 80, 92]], "float32"),
    ("tf.tensordot(A, A, 2)", 55.0, "float32"),
    ("tf.tensordot(A, A, [[1, 0], [1, 0]])", 55.0, "float32"),
    ("tf.tensordot(tf.constant([1, 2]), tf.constant([3, 4]), 1)", 11, "int32"),
    ("tf.tensordot(2.0, [1.0, 2.0], 0)", [2.0, 4.0], "float32"),
    ("tf.clip_by_norm(T, 1.0)", [[0.6, 0.8], [0.0, 0.0]], "float32"),
    ("tf.clip_by_norm(T, 10.0)", [[3.0, 4.0], [0.0, 0.0]], "float32"),
    ("tf.clip_by_norm(T, 1.0, axes=0)", [[1.0, 1.0], [0.0, 0.0]], "float32"),
    ("tf.clip_by_norm(T, -1.0)", [[0.0, 0.0], [0.0, 0.0]], "float32"),
    ("tf.clip_by_norm(T, [1.0, 2.0])", [[0.6, 1.6], [0.0, 0.0]], "float32"),
    ("tf.clip_by_norm(T, tf.constant(1.0, tf.float64))", [[0.6, 0.8], [0.0, 0.0]], "float32"),
    ("tf.clip_by_norm(T, np.inf)", [[np.nan, np.nan], [np.nan, np.nan]], "float32"),
    ("tf.clip_by_global_norm([T, tf.constant([12.0])], 1.0)[0][1]", [0.923077], "float32"),
    ("tf.clip_by_global_norm([T, tf.constant([12.0])], 1.0)[1]", 13.0, "float32"),
    ("tf.clip_by_global_norm([T], 1.0, use_norm=tf.constant(2.0))[0][0]", [[1.5, 2.0], [0.0, 0.0]], "float32"),
    ("tf.clip_by_global_norm([T], -1.0)[0][0]", [[3.0, 4.0], [0.0, 0.0]], "float32"),
    ("tf.clip_by_global_norm([tf.constant([np.inf])], 1.0)[0][0]", [np.nan], "float32"),
    ("tf.clip_by_global_norm([1.0, 2.0], 1.0)[1]", 2.2360680103302, "float32"),
    ("tf.linalg.solve(M, [[1.0], [2.0]])", [[0.2], [0.6]], "float32"),
    ("tf.linalg.solve(tf.stack([M, 2 * M]), tf.ones((2, 2, 1)))", [[[0.4], [0.2]], [[0.2], [0.1]]], "float32"),
    ("tf.linalg.inv([[1.0, 2.0], [3.0, 4.0]], adjoint=True)", [[-2.0, 1.5], [1.0, -0.5]], "float32"),
    ("tf.linalg.inv(tf.stack([M, 2 * M]))", [[[0.6, -0.2], [-0.2, 0.4]], [[0.3, -0.1], [-0.1, 0.2]]], "float32"),
    ("tf.linalg.det(tf.stack([M, 2 * M]))", [5.0, 20.0], "float32"),
    ("tf.linalg.det(tf.constant([[2.0]], tf.float64))", 2.0, "float64"),
    ("tf.linalg.trace(tf.ones((2, 3, 4)))", [3.0, 3.0], "float32"),
    ("tf.linalg.trace([[1, 2], [3, 4]])", 5, "int32"),
    ("tf.linalg.matrix_transpose([[1, 2]])", [[1], [2]], "int32"),
    ("tf.linalg.diag([[1, 2], [3, 4]])", [[[1, 0], [0, 2]], [[3, 0], [0, 4]]], "int32"),
    ("tf.linalg.diag([1.0, 2.0], num_rows=3)", [[1, 0], [0, 2], [0, 0]], "float32"),
    ("tf.linalg.diag([1.0, 2.0], k=-1, num_cols=4)", [[0, 0, 0, 0], [1, 0, 0, 0], [0, 2, 0, 0]], "float32"),
    ("tf.linalg.diag([1.0, 2.0], num_rows=2, num_cols=3, padding_value=7)", [[1, 7, 7], [7, 2, 7]], "float32"),
    ("tf.linalg.diag_part(tf.reshape(tf.range(12), (2, 3, 2)))", [[0, 3], [6, 9]], "int32"),
    ("tf.linalg.diag_part(tf.ones((2, 3)), k=-1)", [1.0], "float32"),
    ("tf.linalg.diag_part(tf.zeros((0, 3)))", np.zeros(0), "float32"),
    ("tf.eye(2, 3, batch_shape=(2, 1))", np.broadcast_to(np.eye(2, 3), (2, 1, 2, 3)), "float32"),
    ("tf.argmax(E)", [1, 0, 1], "int64"),
    ("tf.math.argmax(E, 1)", [1, 0], "int64"),
    ("tf.math.argmin(E, axis=-1)", [0, 1], "int64"),
    ("tf.argmax(E, output_type=tf.int32)", [1, 0, 1], "int32"),
    ("tf.argmax(E, tf.constant(1))", [1, 0], "int64"),
    ("tf.argmax([1.0, np.nan, 3.0])", 2, "int64"),
    ("tf.argmin([1.0, np.nan, 3.0])", 0, "int64"),
    ("tf.argmax(tf.zeros((2, 0)), 0)", np.zeros(0), "int64"),
    ("tf.add_n([E, E, E])", [[3, 15, 15], [21, 6, 21]], "float32"),
    ("tf.add_n(E)", [8, 7, 12], "float32"),
    ("tf.add_n([1, 2])", 3, "int32"),
    ("tf.add_n([tf.Variable(1.0), 2.0])", 3.0, "float32"),
    ("tf.nn.softplus([-1000.0, 0.0, 1000.0])", [0.0, 0.6931472, 1000.0], "float32"),
    ("tf.linspace(-2, 2, 5)", [-2.0, -1.0, 0.0, 1.0, 2.0], "float64"),
    ("tf.linspace(np.int64(0), 1, 3)", [0.0, 0.5, 1.0], "float64"),
    ("tf.linspace(0.0, 1, 3)", [0.0, 0.5, 1.0], "float32"),
    ("tf.linspace(0.0, 1.0, tf.constant(3, tf.int64))", [0.0, 0.5, 1.0], "float32"),
    ("tf.linspace([0.0, 1.0], [1.0, 2.0], 3, axis=1)", [[0.0, 0.5, 1.0], [1.0, 1.5, 2.0]], "float32"),
    ("tf.linspace(0.0, 1.0, 0)", np.zeros(0), "float32"),
    ("tf.einsum('ii->i', S)", [0.0, 4.0, 8.0], "float32"),
    ("tf.einsum('ii', S)", 12.0, "float32"),
    ("tf.einsum('ij', S)", np.arange(9.0).reshape(3, 3), "float32"),
    ("tf.einsum('ba', S)", np.arange(9.0).reshape(3, 3).T, "float32"),
    ("tf.einsum('ij,jk', S, S)", [[15, 18, 21], [42, 54, 66], [69, 90, 111]], "float32"),
    ("tf.einsum('i i -> i', S)", [0.0, 4.0, 8.0], "float32"),
    ("tf.einsum('iI->i', S)", [3.0, 12.0, 21.0], "float32"),
    ("tf.einsum('ii,jj->ij', S, S)", [[0, 0, 0], [0, 16, 32], [0, 32, 64]], "float32"),
    ("tf.einsum('ii->i', [[1, 2], [3, 4]])", [1, 4], "int32"),
    ("tf.einsum('bxby->bxy', tf.reshape(tf.range(36.0), (2, 3, 2, 3)))",
     [[[0, 1, 2], [6, 7, 8], [12, 13, 14]], [[21, 22, 23], [27, 28, 29], [33, 34, 35]]], "float32"),
])
def test_values_dtypes_and_shapes_are_tfs(code, values, dtype):
    names = {"tf": tf, "np": np, "X": tf.constant(X), "T": tf.constant([[3.0, 4.0], [0.0, 0.0]]),
             "A": tf.reshape(tf.range(6.0), (2, 3)), "B": tf.reshape(tf.range(12.0), (3, 4)),
             "M": tf.constant([[2.0, 1.0], [1.0, 3.0]]), "E": tf.constant([[1.0, 5.0, 5.0], [7.0, 2.0, 7.0]]),
             "S": tf.reshape(tf.range(9.0), (3, 3))}
    same(eval(code, names), values, dtype)


def test_names_are_exported_where_tf_has_them():
    assert tf.norm is tf.linalg.norm
    assert tf.math.argmax is tf.argmax and tf.math.argmin is tf.argmin and tf.math.add_n is tf.add_n
    assert tf.nn.softplus is tf.math.softplus
    for name in ("solve", "inv", "det", "trace", "matrix_transpose", "diag", "diag_part", "eye", "tensordot",
                 "einsum", "global_norm", "adjoint"):
        assert callable(getattr(tf.linalg, name)), name
    for name in ("tensordot", "clip_by_norm", "clip_by_global_norm", "add_n", "grad_pass_through"):
        assert callable(getattr(tf, name)), name


def test_clip_by_global_norm_keeps_none_entries_and_the_list_shape():
    clipped, total = tf.clip_by_global_norm((tf.constant([3.0]), None, tf.constant([4.0])), 1.0)
    assert isinstance(clipped, list) and clipped[1] is None
    np.testing.assert_allclose([clipped[0].numpy()[0], clipped[2].numpy()[0], total.numpy()], [0.6, 0.8, 5.0])
    nothing, zero = tf.clip_by_global_norm([None, None], 1.0)
    assert nothing == [None, None] and zero.numpy() == 0.0 and zero.dtype.name == "float32"


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_integer_uniform_draws_from_the_range_and_replays(dtype):
    tf.random.set_seed(5)
    first = tf.random.uniform((2000,), -3, 4, dtype=dtype)
    assert first.dtype.name == dtype and first.shape.as_list() == [2000]
    assert sorted(set(first.numpy().tolist())) == list(range(-3, 4))
    tf.random.set_seed(5)
    np.testing.assert_array_equal(tf.random.uniform((2000,), -3, 4, dtype=dtype).numpy(), first.numpy())
    with tf.random.replay(tf.random.Source(seed=11)):
        a = tf.random.uniform((5,), maxval=100, dtype=dtype)
    with tf.random.replay(tf.random.Source(seed=11)):
        b = tf.random.uniform((5,), maxval=100, dtype=dtype)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    extremes = tf.random.uniform((4,), -2**31, 2**31 - 1, dtype="int32")
    assert extremes.dtype.name == "int32"


def test_integer_uniform_inside_recompute_grad_is_replayed():
    x = tf.constant([1.0, 2.0, 3.0, 4.0])
    drawn = []

    def pick(v):
        index = tf.random.uniform((), 0, 4, dtype=tf.int32)
        drawn.append(int(index.numpy()))
        return v * tf.cast(tf.one_hot(index, 4), tf.float32)

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.recompute_grad(pick)(x))
    gradient = tape.gradient(y, x).numpy()
    assert len(drawn) == 2 and drawn[0] == drawn[1]
    assert gradient.tolist() == np.eye(4)[drawn[0]].tolist()
