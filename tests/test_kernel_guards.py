"""The backward step's guards for people writing ops: a VJP that reads what its op does not keep,
and a VJP that returns a gradient of the wrong shape or dtype, each get a named error that says
which op, which input and what to change."""
import numpy as np
import pytest

import minitape as tf
from minitape.core.primitive import Discarded, Joint, Op, apply
from minitape.ops.elementwise import _tanh_grad


def gradient_of(op: Op, *values):
    xs = [tf.constant(v) for v in values]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = apply(op, tuple(xs))
    return tape.gradient(y, xs)


# tanh as the op table declares it, but without keep=(ANS,)
TANH_WITHOUT_KEEP = Op("tanh", lambda xp, x: xp.tanh(x), (lambda g, ans, x: _tanh_grad(ans, g),))


def test_a_vjp_reading_what_its_op_did_not_keep_is_named():
    with pytest.raises(tf.errors.NotKeptError) as caught:
        gradient_of(TANH_WITHOUT_KEEP, [0.5, 1.0])
    assert str(caught.value) == ("tanh: the VJP of input 0 used the output, which tanh does not keep: the tape "
                                 "holds only a record of shape (2,) and dtype float32. Add ANS to tanh's keep=.")


def test_an_input_not_kept_is_named_by_position():
    product = Op("product", lambda xp, x, y: x * y, (lambda g, ans, x, y: g * y, lambda g, ans, x, y: g * x), keep=(1,))
    with pytest.raises(tf.errors.NotKeptError, match=r"product: the VJP of input 1 used input 0, which product does "
                                                     r"not keep: .* shape \(3,\) and dtype float64\. Add 0 to"):
        gradient_of(product, np.ones(3), np.ones(3))


def test_a_scalar_record_shared_by_input_and_output_names_both():
    # A NumPy scalar's record is shared: the input and the output of a scalar op are the same record.
    with pytest.raises(tf.errors.NotKeptError, match=r"used input 0 or the output, .* Add 0 or ANS to tanh's keep="):
        gradient_of(TANH_WITHOUT_KEEP, 0.5)


@pytest.mark.parametrize("use", [lambda d: d * 2, lambda d: 2 * d, lambda d: 2.0 + d, lambda d: -d,
                                 lambda d: tf.constant([1.0, 2.0]) * d, np.asarray])
def test_a_record_refuses_to_be_used_as_numbers_but_tells_its_shape(use):
    record = Discarded.of(tf.zeros((2,)))
    assert (record.shape, record.dtype, record.ndim) == (tf.TensorShape([2]), tf.float32, 1)
    with pytest.raises(tf.errors.NotKeptError, match=r"shape \(2,\) and dtype float32"):
        use(record)


def test_a_vjp_returning_a_gradient_of_another_shape_is_named():
    total = Op("total", lambda xp, x: xp.sum(x), (lambda g, ans, x: g,))      # forgot to broadcast g back
    with pytest.raises(tf.errors.GradientShapeError) as caught:
        gradient_of(total, [1.0, 2.0, 3.0])
    assert str(caught.value).startswith("total: the VJP of input 0 returned a gradient of shape () and dtype float32, "
                                        "but input 0 has shape (3,) and dtype float32. A gradient has its input's "
                                        "shape: sum it over the axes the input was broadcast along (unbroadcast)")


def test_a_vjp_returning_a_gradient_of_another_dtype_is_named():
    half = Op("half", lambda xp, x: x / 2, (lambda g, ans, x: tf.cast(g, tf.float64) / 2,))
    with pytest.raises(tf.errors.GradientShapeError, match=r"half: .* shape \(2,\) and dtype float64, but input 0 "
                                                           r"has shape \(2,\) and dtype float32"):
        gradient_of(half, [1.0, 2.0])
    with pytest.raises(tf.errors.GradientShapeError, match=r"dtype float64, but input 0 has shape \(\) and dtype float32"):
        gradient_of(half, 1.0)                                          # scalars: a NumPy scalar's type is checked


def test_a_vjp_returning_something_else_than_a_tensor_is_named():
    numpy_vjp = Op("numpy_vjp", lambda xp, x: x * 2, (lambda g, ans, x: g.numpy() * 2,))
    with pytest.raises(tf.errors.GradientShapeError, match="numpy_vjp: the VJP of input 0 returned a value of type ndarray, not a tensor"):
        gradient_of(numpy_vjp, [1.0])


def test_a_vjp_may_return_none_for_no_gradient():
    no_gradient = Op("no_gradient", lambda xp, x: x + 0, (lambda g, ans, x: None,))
    assert gradient_of(no_gradient, [1.0]) == [None]


# A joint VJP: one function for every input's gradient, told which are wanted.
def _joint_product(calls):
    def vjps(wanted, g, ans, x, y):
        calls.append(wanted)
        return g * y, g * x
    return Op("product", lambda xp, x, y: x * y, Joint(vjps), keep=(0, 1))


def test_a_joint_vjp_runs_once_and_is_told_which_gradients_are_wanted():
    calls = []
    x, y = tf.constant([1.0, 2.0]), tf.constant([3.0, 5.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        z = apply(_joint_product(calls), (x, y))
    dx, dy = tape.gradient(z, [x, y])
    assert calls == [(True, False)] and dy is None       # y is not watched: its gradient is dropped, not computed
    np.testing.assert_array_equal(dx.numpy(), [3.0, 5.0])
    tape.watch(y)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = apply(_joint_product(calls), (x, y))
    dx, dy = tape.gradient(z, [x, y])
    assert calls[-1] == (True, True)
    np.testing.assert_array_equal(dy.numpy(), [1.0, 2.0])


def test_a_joint_vjp_gives_second_derivatives_through_ops():
    x = tf.constant(3.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            z = apply(_joint_product([]), (x, x))           # x · x
        dz = inner.gradient(z, x)
    assert (float(dz), float(outer.gradient(dz, x))) == (6.0, 2.0)


def test_a_joint_vjp_returning_too_few_gradients_is_named():
    short = Op("short", lambda xp, x, y: x * y, Joint(lambda wanted, g, ans, x, y: (g * y,)), keep=(0, 1))
    with pytest.raises(tf.errors.GradientShapeError, match=r"short: its joint VJP returned 1 gradients for 2 inputs"):
        gradient_of(short, [1.0], [2.0])


def test_a_joint_vjp_reading_what_its_op_did_not_keep_is_named():
    product = Op("product", lambda xp, x, y: x * y, Joint(lambda wanted, g, ans, x, y: (g * y, g * x)), keep=(1,))
    with pytest.raises(tf.errors.NotKeptError, match=r"product: its VJP used input 0, which product does not keep"):
        gradient_of(product, np.ones(3), np.ones(3))


def test_a_joint_vjp_returning_a_gradient_of_another_shape_is_named():
    wrong = Op("wrong", lambda xp, x, y: x * y, Joint(lambda wanted, g, ans, x, y: (g * y, tf.reduce_sum(g * x))),
               keep=(0, 1))
    with pytest.raises(tf.errors.GradientShapeError, match=r"wrong: the VJP of input 1 returned a gradient of shape"):
        gradient_of(wrong, [1.0, 2.0], [2.0, 3.0])
