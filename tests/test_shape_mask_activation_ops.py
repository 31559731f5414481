"""Ops that teaching code reaches for: shape/size/rank as tensors, cumsum, boolean_mask, matvec,
is_nan/is_inf/is_finite, relu/elu/selu/leaky_relu/relu6/gelu, and TF's texts for reshape and ragged lists.

The expected values are TensorFlow 2.21's, run on the same inputs (written here as literals).
Gradients against finite differences are in test_op_gradients.py.
"""
import numpy as np
import pytest

import minitape as tf


def test_shape_size_rank_are_int_tensors_as_tfs():
    x = tf.zeros([3, 2])
    assert repr(tf.shape(x)) == "<minitape.Tensor: shape=(2,), dtype=int32, numpy=array([3, 2], dtype=int32)>"
    assert repr(tf.size(x)) == "<minitape.Tensor: shape=(), dtype=int32, numpy=6>"
    assert repr(tf.rank(x)) == "<minitape.Tensor: shape=(), dtype=int32, numpy=2>"
    assert tf.shape(x, out_type=tf.int64).dtype.name == "int64"
    assert repr(tf.size(x, out_type=tf.float32)) == "<minitape.Tensor: shape=(), dtype=float32, numpy=6.0>"
    assert tf.shape(3.0).numpy().tolist() == [] and tf.shape(tf.Variable([1.0, 2.0])).numpy().tolist() == [2]
    assert tf.size([[1, 2]]).numpy() == 2


def test_shape_refuses_a_float_out_type_with_tfs_text():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'out_type' of float32 is not in the list"):
        tf.shape(tf.zeros([2]), out_type=tf.float32)


def test_cumsum_exclusive_and_reverse_as_tf():
    a = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    np.testing.assert_array_equal(tf.cumsum(a, axis=0).numpy(), [[1, 2, 3], [5, 7, 9]])
    np.testing.assert_array_equal(tf.cumsum(a, axis=1, exclusive=True, reverse=True).numpy(), [[5, 3, 0], [11, 6, 0]])
    np.testing.assert_array_equal(tf.cumsum(a, axis=-1, exclusive=True).numpy(), [[0, 1, 3], [0, 4, 9]])
    assert repr(tf.cumsum([1, 2, 3])) == "<minitape.Tensor: shape=(3,), dtype=int32, numpy=array([1, 3, 6], dtype=int32)>"
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = tf.cumsum(a, axis=1, exclusive=True) * tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    np.testing.assert_array_equal(tape.gradient(y, a).numpy(), [[5, 3, 0], [11, 6, 0]])     # TF 2.21's


@pytest.mark.parametrize("axis, text", [
    (2, "ScanOp: Expected scan axis in the range [-2, 2), but got 2 [Op:Cumsum] name: "),
    ([0], "ScanOp: axis must be a scalar, not [1] [Op:Cumsum]"),
])
def test_cumsum_axis_errors_are_tfs(axis, text):
    with pytest.raises(tf.errors.InvalidArgumentError) as raised:
        tf.cumsum(tf.ones((2, 3)), axis=axis)
    assert str(raised.value) == text


def test_boolean_mask_as_tf():
    a = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert tf.boolean_mask([1.0, 2.0, 3.0], [True, False, True]).numpy().tolist() == [1.0, 3.0]
    assert tf.boolean_mask(a, [True, False]).numpy().tolist() == [[1.0, 2.0, 3.0]]
    assert tf.boolean_mask(a, [[True, False, True], [False, True, True]]).numpy().tolist() == [1.0, 3.0, 5.0, 6.0]
    assert tf.boolean_mask(a, [False, True, True], axis=1).numpy().tolist() == [[2.0, 3.0], [5.0, 6.0]]
    assert tf.boolean_mask(a, [1, 0]).numpy().tolist() == [[1.0, 2.0, 3.0]]          # TF takes nonzero as True
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = tf.boolean_mask(a, [True, False])
    assert tape.gradient(y, a).numpy().tolist() == [[1, 1, 1], [0, 0, 0]]


@pytest.mark.parametrize("mask, text", [([True], "Shapes (2,) and (1,) are incompatible"), (True, "mask cannot be scalar.")])
def test_boolean_mask_errors_are_tfs(mask, text):
    with pytest.raises(ValueError) as raised:
        tf.boolean_mask(tf.ones((2, 3)), mask)
    assert str(raised.value) == text and raised.value.__notes__


def test_matvec_as_tf():
    m = [[1.0, 2.0], [3.0, 4.0]]
    assert tf.linalg.matvec(m, [1.0, 1.0]).numpy().tolist() == [3.0, 7.0]
    assert tf.linalg.matvec(m, [1.0, 1.0], transpose_a=True).numpy().tolist() == [4.0, 6.0]
    assert tf.linalg.matvec(m, [1.0, 1.0], adjoint_a=True).numpy().tolist() == [4.0, 6.0]
    assert tf.linalg.matvec(tf.ones([2, 3, 4]), tf.ones([4])).numpy().tolist() == [[4.0] * 3] * 2
    with pytest.raises(tf.errors.InvalidArgumentError, match="matvec"):
        tf.linalg.matvec(m, [1.0, 1.0, 1.0])


def test_is_nan_is_inf_is_finite_as_tf():
    f = tf.constant([1.0, np.nan, np.inf, -np.inf])
    assert tf.math.is_nan(f).numpy().tolist() == [False, True, False, False]
    assert tf.math.is_inf(f).numpy().tolist() == [False, False, True, True]
    assert tf.math.is_finite(f).numpy().tolist() == [True, False, False, False]
    with pytest.raises(tf.errors.InvalidArgumentError, match="is_nan"):
        tf.math.is_nan([1, 2])


# TF 2.21 on x = [-2, -0.5, 0.5, 3, 7]: value, first and second derivative (float32)
ACTIVATIONS = {
    "elu": (tf.nn.elu, [-0.86466473, -0.39346933, 0.5, 3.0, 7.0], [0.13533527, 0.60653067, 1, 1, 1],
            [0.13533527, 0.60653067, 0, 0, 0]),
    "selu": (tf.nn.selu, [-1.5201665, -0.69175816, 0.5253505, 3.152103, 7.354907],
             [0.2379328, 1.0663412, 1.050701, 1.050701, 1.050701], [0.2379328, 1.0663412, 0, 0, 0]),
    "relu6": (tf.nn.relu6, [0, 0, 0.5, 3, 6], [0, 0, 1, 1, 0], [0, 0, 0, 0, 0]),
    "leaky_relu": (tf.nn.leaky_relu, [-0.4, -0.1, 0.5, 3, 7], [0.2, 0.2, 1, 1, 1], [0, 0, 0, 0, 0]),
    "gelu": (tf.nn.gelu, [-0.04550026, -0.15426877, 0.34573123, 2.9959502, 7.0],
             [-0.08523182, 0.13250488, 0.8674951, 1.0119456, 1.0],
             [-1.07981935e-01, 6.16114318e-01, 6.16114318e-01, -3.10229473e-02, -4.29331876e-10]),
    "gelu approximate": (lambda x: tf.nn.gelu(x, approximate=True),
                         [-0.04540223, -0.154286, 0.345714, 2.9963627, 7.0],
                         [-0.0860991, 0.1326301, 0.86736995, 1.0115842, 1.0],
                         [-0.10787492, 0.61550695, 0.61550695, -0.03176788, 0.0]),
}


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activations_and_their_derivatives_are_tfs(name):
    f, value, first, second = ACTIVATIONS[name]
    x = tf.constant([-2.0, -0.5, 0.5, 3.0, 7.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        dy = inner.gradient(y, x)
    d2y = outer.gradient(dy, x)
    assert d2y is not None                    # zeros, not None, for the piecewise-linear ones (as TF)
    for got, want in ((y, value), (dy, first), (d2y, second)):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)


def test_activation_gradients_at_their_kinks_are_tfs():
    for f, at, want in ((tf.nn.relu6, 0.0, 0.0), (tf.nn.relu6, 6.0, 0.0), (tf.nn.leaky_relu, 0.0, 0.2),
                        (tf.nn.elu, 0.0, 1.0)):
        x = tf.constant(at)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        assert tape.gradient(y, x).numpy() == np.float32(want)


def test_activation_dtypes_and_arguments_as_tf():
    assert tf.nn.relu6([1, 8]).numpy().tolist() == [1, 6] and tf.nn.relu6([1, 8]).dtype.name == "int32"
    assert tf.nn.leaky_relu([1, -2]).numpy().tolist() == [1.0, np.float32(-0.4)]      # ints become float32
    assert tf.nn.leaky_relu([-1.0, 1.0], alpha=2.0).numpy().tolist() == [-2.0, 1.0]
    with pytest.raises(TypeError, match="Expected float for argument 'alpha' not 'a'."):
        tf.nn.leaky_relu([1.0], alpha="a")
    with pytest.raises(ValueError, match="`features.dtype` must be a floating point tensor"):
        tf.nn.gelu([1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="elu"):
        tf.nn.elu([1, 2])
    assert tf.math.erf(0.5).numpy() == np.float32(0.5204999)


@pytest.mark.parametrize("shape, text", [
    ([7, -1], "Input to reshape is a tensor with 30 values, but the requested shape requires a multiple of 7"),
    ([7, 5], "Input to reshape is a tensor with 30 values, but the requested shape has 35"),
    ([-1, -1], "Only one input size may be -1, not both 0 and 1"),
    ([0, -1], "Input to reshape is a tensor with 30 values, but the requested shape has 0"),
])
def test_reshape_errors_are_tfs(shape, text):
    with pytest.raises(tf.errors.InvalidArgumentError) as raised:
        tf.reshape(tf.zeros([3, 2, 5]), shape)
    assert str(raised.value) == text + " [Op:Reshape]"
    assert "reshape" in raised.value.__notes__[0]


def test_reshape_works_out_minus_one_beside_a_zero_as_tf():
    assert tf.reshape(tf.zeros([0]), [0, -1]).shape.as_list() == [0, 1]
    assert tf.reshape(tf.zeros([0, 3]), [-1, 0]).shape.as_list() == [3, 0]


@pytest.mark.parametrize("value, text", [
    ([[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]], "Can't convert non-rectangular Python sequence to Tensor."),
    ([[1.0], 2.0], "Can't convert non-rectangular Python sequence to Tensor."),
    ([1, [2]], "Can't convert Python sequence with mixed types to Tensor."),
])
def test_ragged_lists_are_refused_with_tfs_text(value, text):
    for make in (tf.constant, tf.Variable, tf.convert_to_tensor, lambda v: tf.add(v, 1)):
        with pytest.raises(ValueError) as raised:
            make(value)
        assert str(raised.value).endswith(text)


def test_pad_modes_as_tf():
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert tf.pad(x, [[1, 1], [2, 2]]).numpy().tolist() == [
        [0, 0, 0, 0, 0, 0, 0], [0, 0, 1, 2, 3, 0, 0], [0, 0, 4, 5, 6, 0, 0], [0, 0, 0, 0, 0, 0, 0]]
    assert tf.pad(x, [[1, 1], [2, 2]], "REFLECT").numpy().tolist() == [
        [6, 5, 4, 5, 6, 5, 4], [3, 2, 1, 2, 3, 2, 1], [6, 5, 4, 5, 6, 5, 4], [3, 2, 1, 2, 3, 2, 1]]
    assert tf.pad(x, [[1, 1], [2, 2]], "symmetric").numpy().tolist() == [
        [2, 1, 1, 2, 3, 3, 2], [2, 1, 1, 2, 3, 3, 2], [5, 4, 4, 5, 6, 6, 5], [5, 4, 4, 5, 6, 6, 5]]
    assert tf.pad(x, [[0, 0], [1, 0]], constant_values=7).numpy().tolist() == [[7, 1, 2, 3], [7, 4, 5, 6]]
    assert tf.pad(tf.constant([1, 2]), [[1, 2]]).dtype == tf.int32


def test_pad_gradients_as_tf():
    """A mirrored value's share goes back to the value it copies; the fill value gets None, as TF's PadV2."""
    x, c = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, c])
        mirrored = tf.pad(x, [[1, 1], [2, 2]], "REFLECT") * tf.reshape(tf.range(28.0), (4, 7))
        filled = tf.pad(x, [[1, 1]] * 2, constant_values=c)
    assert tape.gradient(mirrored, x).numpy().tolist() == [[72, 102, 64], [44, 60, 36]]
    assert tape.gradient(filled, c) is None


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32])
def test_relu_of_a_batch_is_numpys_maximum_with_zero(dtype):
    """A large batch takes relu's NumPy fast path (a row of zeros): the same values, -0, nan and infinities alike."""
    x = np.random.default_rng(0).standard_normal((8, 3, 5, 64)) * 10
    if dtype != np.int32:
        x[0, 0, 0, :5] = [-0.0, np.nan, -np.nan, np.inf, -np.inf]
    x = x.astype(dtype)
    for value in (x, x[:, :, ::2], x[0, 0]):                  # a batch, a strided batch, one too small
        y = tf.nn.relu(value).numpy()
        assert y.dtype == dtype and y.tobytes() == np.maximum(value, 0).tobytes()
