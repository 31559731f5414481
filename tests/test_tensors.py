"""Tensors, variables and dtypes: TensorFlow's rules and reprs."""
import numpy as np
import pytest

import minitape as tf


@pytest.mark.parametrize("value,dtype", [
    (1.5, tf.float32), (2, tf.int32), (True, tf.bool), ([1, 2.5], tf.float32), (2**40, tf.int64),
    (np.zeros(2), tf.float64), (np.zeros(2, np.int64), tf.int64), (np.float32(1), tf.float32),
])
def test_constant_dtypes_follow_tf(value, dtype):
    assert tf.constant(value).dtype == dtype


def test_python_and_numpy_operands_take_the_tensors_dtype():
    x = tf.constant(1.0)
    for result in (x + 2, x + 2.5, x + np.array(2.0), np.array(2.0) + x, np.float64(2.0) * x, x * np.float64(2.0)):
        assert isinstance(result, tf.Tensor) and result.dtype == tf.float32


def test_numpy_on_the_left_still_gives_a_tensor():
    result = np.array([1.0, 2.0]) * tf.constant([3.0, 4.0])
    assert isinstance(result, tf.Tensor)
    np.testing.assert_array_equal(result.numpy(), [3.0, 8.0])


def test_integer_division_gives_float64_like_tf():
    assert (tf.constant(7) / 2).dtype == tf.float64
    assert (tf.constant(7) // 2).numpy() == 3


def test_reprs():
    assert repr(tf.constant(4.0)) == "<minitape.Tensor: shape=(), dtype=float32, numpy=4.0>"
    assert repr(tf.constant([True, False])) == "<minitape.Tensor: shape=(2,), dtype=bool, numpy=array([ True, False])>"
    assert repr(tf.eye(2)) == ("<minitape.Tensor: shape=(2, 2), dtype=float32, numpy=\n"
                               "array([[1., 0.],\n       [0., 1.]], dtype=float32)>")
    assert str(tf.constant(4.0)) == "minitape.Tensor(4.0, shape=(), dtype=float32)"
    assert repr(tf.Variable(1.0)) == "<minitape.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>"
    assert repr(tf.float32) == "tf.float32"
    assert repr(tf.zeros((1, 2)).shape) == "TensorShape([1, 2])"


def test_scalar_repr_does_not_use_numpy_scalar_repr():
    assert "np.float32" not in repr(tf.constant(0.1)) and "numpy=0.1>" in repr(tf.constant(0.1))


def test_numpy_interop():
    x = tf.constant([[1.0, 2.0]])
    assert np.asarray(x).shape == (1, 2)
    assert np.sin(x).dtype == np.float32            # NumPy functions read tensors
    assert isinstance(x.numpy(), np.ndarray) and isinstance(tf.constant(1.0).numpy(), np.float32)
    assert float(tf.constant(2.5)) == 2.5 and int(tf.constant(3)) == 3
    assert [float(v) for v in tf.constant([1.0, 2.0])] == [1.0, 2.0]
    assert len(x) == 1
    with pytest.raises(TypeError, match="Scalar tensor has no `len\\(\\)`"):
        len(tf.constant(1.0))
    with pytest.raises(TypeError, match="Tensor is unhashable"):
        hash(x)


def test_comparisons_are_elementwise_and_not_recorded():
    x = tf.constant([1.0, 2.0])
    np.testing.assert_array_equal((x == 2.0).numpy(), [False, True])
    np.testing.assert_array_equal((x >= 1.5).numpy(), [False, True])


def test_dtype_objects():
    assert tf.float32 == np.float32 and tf.float32 == "float32" and tf.as_dtype(np.dtype("int64")) is tf.int64
    assert tf.float16.is_floating and not tf.int32.is_floating and tf.bool.is_bool
    with pytest.raises(TypeError, match="Cannot convert 'complex64'"):
        tf.as_dtype("complex64")


def test_variable_assign_checks_shape_and_keeps_dtype():
    v = tf.Variable([1.0, 2.0])
    v.assign([3, 4])
    assert v.dtype == tf.float32
    with pytest.raises(ValueError, match="Shape mismatch.The variable shape \\(2,\\), and the assigned value shape \\(3,\\)"):
        v.assign([1.0, 2.0, 3.0])
    v.assign_sub([1.0, 1.0])
    np.testing.assert_array_equal(v.numpy(), [2.0, 3.0])


def test_creation_ops():
    assert tf.range(5).dtype == tf.int32 and tf.range(0, 1, 0.25).dtype == tf.float32
    np.testing.assert_array_equal(tf.linspace(0.0, 1.0, 5).numpy(), [0, 0.25, 0.5, 0.75, 1])
    assert tf.fill([2], 3).dtype == tf.int32
    assert tf.zeros_like(tf.constant([1, 2])).dtype == tf.int32
    np.testing.assert_array_equal(tf.ones((2, 2), tf.int64).numpy(), np.ones((2, 2)))


def test_float_only_ops_reject_integers():
    with pytest.raises(tf.errors.InvalidArgumentError, match="exp needs a floating-point tensor"):
        tf.exp(tf.constant(1))


@pytest.mark.parametrize("call,message", [
    (lambda: tf.matmul(tf.constant([1.0]), tf.constant([[1.0]])), "matmul: input 0 must have rank >= 2"),
    (lambda: tf.matmul(tf.ones((2, 3)), tf.ones((2, 3))), "inner dimensions 3 vs 2"),
    (lambda: tf.reduce_sum(tf.ones((2, 2)), axis=3), "axis 3 is out of range for a tensor of rank 2"),
    (lambda: tf.reshape(tf.ones((2, 3)), (4, 2)), r"a tensor of shape \(2, 3\) cannot take the shape \(4, 2\)"),
    (lambda: tf.gather(tf.ones(3), [3]), r"indices \[3\] out of range"),
    (lambda: tf.broadcast_to(tf.ones(3), (2, 2)), "cannot broadcast shape"),
    (lambda: tf.ones((2,))[5], "Index 5 is not valid for a tensor of shape"),
    (lambda: tf.stack([tf.ones(2), tf.ones(3)]), "must have the same shape"),
])
def test_bad_shapes_and_axes_are_named(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        call()


def test_assigning_an_array_takes_a_copy_of_it():
    """The fast path for an array already of the variable's dtype and shape copies it, as the general one does."""
    v, update = tf.Variable(np.zeros(3, np.float32)), np.ones(3, np.float32)
    v.assign(update)
    update[0] = 7.0
    assert v.numpy().tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(ValueError, match="Shape mismatch"):
        v.assign(np.ones(2, np.float32))
    v.assign(np.full(3, 2.0))                           # an array of another dtype is converted, as TF does
    assert v.dtype == tf.float32 and v.numpy().tolist() == [2.0, 2.0, 2.0]


def test_cast_to_the_same_dtype_is_the_tensor_itself():
    """As TF's cast (math_ops.cast returns x when its dtype is the target already): no op is run or recorded."""
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(x, tf.float32)
    assert y is x and not tape.entries()
    assert tf.cast(x, tf.float64).dtype == tf.float64
