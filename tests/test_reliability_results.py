"""Wrong results found by a hostile but fair user (issue [reliability]), each pinned against TF 2.21.

Values and texts written here as "TF 2.21" were recorded from TensorFlow 2.21 (CPU).
"""
import warnings

import numpy as np
import pytest

import minitape as tf
from minitape.core import arrays
from minitape.checkpointing.schedules import in_order

on_every_backend = pytest.mark.usefixtures("backend")      # NumPy, array-api-strict, and CuPy where present


# --------------------------------------------------------------------------- variables passed to checkpoints

def chain_of(n, w=None):
    """Steps ``h -> tanh(1.3 h + 0.1 k)``, or ``tanh(w h + 0.1 k)`` when a variable ``w`` is given."""
    return [lambda h, k=k: tf.tanh(h * (1.3 if w is None else w) + 0.1 * k) for k in range(n)]


CHECKPOINTS = {
    "plain": lambda fs, x: in_order(fs)(x),
    "recompute_grad": lambda fs, x: tf.recompute_grad(in_order(fs))(x),
    "checkpoint_sequential": lambda fs, x: tf.checkpoint_sequential(fs, 2, x),
    "checkpoint_chain": lambda fs, x: tf.checkpoint_chain(fs, x, snapshots=2),
    "checkpoint_chain, 5 snapshots": lambda fs, x: tf.checkpoint_chain(fs, x, snapshots=5),
}


@on_every_backend
@pytest.mark.parametrize("form", CHECKPOINTS)
def test_a_variable_passed_in_gets_its_gradient(form):
    v = tf.Variable(np.array([0.5, -0.7]))
    with tf.GradientTape() as tape:                 # no watch: the tape sees the variable read
        y = tf.reduce_sum(CHECKPOINTS[form](chain_of(4), v))
    with tf.GradientTape() as plain:
        h = tf.identity(v)
        for f in chain_of(4):
            h = f(h)
        y_plain = tf.reduce_sum(h)
    expected = plain.gradient(y_plain, v)
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), expected.numpy(), rtol=1e-12)


@on_every_backend
@pytest.mark.parametrize("form", CHECKPOINTS)
def test_a_variable_passed_in_and_also_read_inside_gets_both_parts(form):
    # d/dw of the chain h -> tanh(w h + 0.1 k) started at h = w: the steps read w, and so does the input.
    # (TF 2.21's recompute_grad returns only the part through the argument; minitape returns the sum.)
    w = tf.Variable(np.float64(0.8))
    with tf.GradientTape() as tape:
        y = CHECKPOINTS[form](chain_of(3, w), w)
    eps, value = 1e-6, lambda a: float(in_order(chain_of(3, tf.constant(np.float64(a))))(tf.constant(np.float64(a))))
    np.testing.assert_allclose(float(tape.gradient(y, w)), (value(0.8 + eps) - value(0.8 - eps)) / (2 * eps),
                               rtol=1e-7)


@on_every_backend
def test_recompute_grad_variable_arguments_follow_tf_corners():
    square = tf.recompute_grad(lambda a: a * a)
    frozen, v = tf.Variable(2.0, trainable=False), tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y_frozen, y = square(frozen), square(v)
    assert tape.gradient(y_frozen, frozen) is None          # TF 2.21: None (not trainable, not watched)
    assert float(tape.gradient(y, v)) == 4.0                # TF 2.21: 4.0
    with tf.GradientTape() as tape:
        tape.watch(frozen)
        y = square(frozen)
    assert float(tape.gradient(y, frozen)) == 4.0           # TF 2.21: 4.0
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = square(v)
    assert tape.gradient(y, v) is None                      # TF 2.21: None


@on_every_backend
def test_recompute_grad_with_one_tensor_passed_twice():
    x, w = tf.constant(3.0), tf.Variable(1.0)
    f = tf.recompute_grad(lambda a, b: a * b * w)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x, x)
    assert [float(g) for g in tape.gradient(y, [x, w])] == [6.0, 9.0]       # TF 2.21: [6.0, 9.0]


# --------------------------------------------------------------------------- second derivatives through checkpoints

def squared_gradient_and_its_gradient(run, x, w):
    """``s = Σ (dy/dx)²`` for ``y = Σ run(chain, x)``, and ``ds/dx``, ``ds/dw``: a derivative of a derivative."""
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(run(chain_of(5, w), x))
        g = inner.gradient(y, x)
        s = tf.reduce_sum(g * g)
    return outer.gradient(s, [x, w])


def numeric_gradient_of_squared_gradient(x0, w0, eps=1e-5):
    def s(x, w):
        x = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(in_order(chain_of(5, tf.constant(np.float64(w))))(x))
        return float(tf.reduce_sum(tape.gradient(y, x) ** 2))
    dx = [(s(x0 + e, w0) - s(x0 - e, w0)) / (2 * eps) for e in np.eye(len(x0)) * eps]
    return np.array(dx), (s(x0, w0 + eps) - s(x0, w0 - eps)) / (2 * eps)


@on_every_backend
@pytest.mark.parametrize("form", CHECKPOINTS)
def test_second_derivatives_through_every_checkpoint_match_plain_and_finite_differences(form):
    x0, w0 = np.array([0.1, 0.2]), np.float64(0.9)
    dx, dw = squared_gradient_and_its_gradient(CHECKPOINTS[form], tf.constant(x0), tf.Variable(w0))
    plain_dx, plain_dw = squared_gradient_and_its_gradient(CHECKPOINTS["plain"], tf.constant(x0), tf.Variable(w0))
    np.testing.assert_allclose(dx.numpy(), plain_dx.numpy(), rtol=1e-12)
    np.testing.assert_allclose(float(dw), float(plain_dw), rtol=1e-12)
    numeric_dx, numeric_dw = numeric_gradient_of_squared_gradient(x0, w0)
    np.testing.assert_allclose(dx.numpy(), numeric_dx, rtol=1e-6)
    np.testing.assert_allclose(float(dw), numeric_dw, rtol=1e-6)


@on_every_backend
@pytest.mark.parametrize("form", CHECKPOINTS)
def test_hessians_through_every_checkpoint(form):
    x = tf.constant([0.1, 0.2, -0.3])
    hessians = []
    for run in (CHECKPOINTS[form], CHECKPOINTS["plain"]):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(run(chain_of(4), x) ** 2)
            g = inner.gradient(y, x)
        hessians.append(outer.jacobian(g, x).numpy())
    np.testing.assert_allclose(*hessians, rtol=1e-5, atol=1e-6)


# --------------------------------------------------------------------------- differentiating a chain more than once

@on_every_backend
@pytest.mark.parametrize("snapshots", [1, 2, 5])
def test_checkpoint_chain_differentiates_again_on_a_persistent_tape(snapshots):
    w, x = tf.Variable(0.9), tf.constant([0.1, 0.2])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.checkpoint_chain(chain_of(5, w), x, snapshots=snapshots)
    first = tape.gradient(y, [x, w])
    second = tape.gradient(y, [x, w])
    with tf.GradientTape() as plain:
        plain.watch(x)
        expected = plain.gradient(in_order(chain_of(5, w))(x), [x, w])
    for a, b, c in zip(first, second, expected):
        np.testing.assert_allclose(a.numpy(), c.numpy(), rtol=1e-6)
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    ((_, kept),) = tape.entries()[0].kept()
    assert kept is x                                                    # what was stored is let go


@on_every_backend
@pytest.mark.parametrize("snapshots", [1, 2, 5])
def test_jacobian_of_a_checkpoint_chain(snapshots):
    x = tf.constant([0.1, 0.2, -0.3])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.checkpoint_chain(chain_of(5), x, snapshots=snapshots)
    with tf.GradientTape() as plain:
        plain.watch(x)
        expected = plain.jacobian(in_order(chain_of(5))(x), x)
    np.testing.assert_allclose(tape.jacobian(y, x).numpy(), expected.numpy(), rtol=1e-6)


# --------------------------------------------------------------------------- values the tape keeps are its own

def test_gather_keeps_its_own_copy_of_the_indices():
    x, indices = tf.constant([1.0, 2.0, 3.0]), np.array([0, 0, 2])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.gather(x, indices)
    indices[:] = 1                                          # the caller reuses its array
    assert tape.gradient(y, x).numpy().tolist() == [2.0, 0.0, 1.0]


def test_numpy_views_of_a_tensor_cannot_be_made_writeable():
    x = tf.constant([0.5, -1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(x)                                      # the tape keeps y for the gradient
    view = np.asarray(y)
    assert not view.flags.writeable and np.shares_memory(view, y._value)
    with pytest.raises(ValueError, match="cannot set WRITEABLE flag"):   # TF 2.21: the same ValueError
        view.flags.writeable = True
    expected = 1 - np.tanh(np.array([0.5, -1.0], np.float32)) ** 2
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), expected, rtol=1e-6)
    assert np.asarray(y, dtype=np.float64).flags.writeable                # a converted copy is the caller's


# --------------------------------------------------------------------------- pow at x = 0

def pow_second_derivatives(x, y):
    """d/dx and d/dy of dz/dx and of dz/dy, for z = x ** y."""
    with tf.GradientTape(persistent=True) as outer:
        outer.watch([x, y])
        with tf.GradientTape() as inner:
            inner.watch([x, y])
            z = tf.pow(x, y)
        dz_dx, dz_dy = inner.gradient(z, [x, y])
    return [g.numpy() for g in outer.gradient(dz_dx, [x, y]) + outer.gradient(dz_dy, [x, y])]


@on_every_backend
def test_pow_second_derivatives_at_zero_are_finite_as_tf():
    dxx, dxy, dyx, dyy = pow_second_derivatives(tf.constant([0.0, 2.0]), tf.constant([2.0, 3.0]))
    np.testing.assert_allclose(dxy, [0.0, 12.317766], rtol=1e-6)        # TF 2.21
    np.testing.assert_allclose(dyx, [0.0, 12.317766], rtol=1e-6)        # TF 2.21
    np.testing.assert_allclose(dyy, [0.0, 3.843624], rtol=1e-6)         # TF 2.21
    np.testing.assert_allclose(dxx, [2.0, 12.0], rtol=1e-6)


@on_every_backend
def test_pow_second_derivatives_match_finite_differences_away_from_zero():
    x0, y0, eps = np.array([0.7, 1.9]), np.array([2.5, -1.2]), 1e-6
    dxx, dxy, dyx, dyy = pow_second_derivatives(tf.constant(x0), tf.constant(y0))
    d_dx = lambda f: (f(x0 + eps, y0) - f(x0 - eps, y0)) / (2 * eps)        # noqa: E731
    d_dy = lambda f: (f(x0, y0 + eps) - f(x0, y0 - eps)) / (2 * eps)        # noqa: E731
    dz_dx, dz_dy = (lambda x, y: y * x ** (y - 1)), (lambda x, y: x ** y * np.log(x))
    for got, expected in [(dxx, d_dx(dz_dx)), (dxy, d_dy(dz_dx)), (dyx, d_dx(dz_dy)), (dyy, d_dy(dz_dy))]:
        np.testing.assert_allclose(got, expected, rtol=1e-6)


# --------------------------------------------------------------------------- reductions

INT_REDUCTIONS = [  # (function, input, TF 2.21's value); TF keeps the input's integer dtype
    (tf.reduce_sum, [-1, -2], -3), (tf.reduce_prod, [-1, -2], 2), (tf.reduce_mean, [-1, -2], -1),
    (tf.reduce_max, [-1, -2], -1), (tf.reduce_min, [-1, -2], -2),
    (tf.reduce_mean, [7, -8], 0), (tf.reduce_mean, [-7, -8, 0], -5), (tf.reduce_mean, [1, 2, 3, 4], 2),
    (tf.reduce_sum, [2**31 - 1, 2**31 - 1], -2),                    # int32 wraps around, as TF
    (tf.reduce_prod, [2**16, 2**16], 0),
    (tf.reduce_mean, [2**31 - 1, 2**31 - 1], 2**31 - 1),             # but a mean sums in int64 first
    (tf.reduce_mean, [-2**31, -2**31, 5], -1431655763),
]


@on_every_backend
@pytest.mark.parametrize("reduce,values,expected", INT_REDUCTIONS)
def test_integer_reductions_keep_the_dtype_and_truncate_toward_zero(reduce, values, expected):
    result = reduce(tf.constant(values))
    assert result.dtype is tf.int32 and int(result) == expected


@on_every_backend
@pytest.mark.parametrize("reduce,values,expected", [row for row in INT_REDUCTIONS if abs(row[2]) < 2**20][:8])
def test_int64_reductions_stay_int64(reduce, values, expected):
    result = reduce(tf.constant(values, dtype=tf.int64))
    assert result.dtype is tf.int64 and int(result) == expected


@on_every_backend
def test_an_int64_mean_wraps_around_as_tf():
    assert int(tf.reduce_mean(tf.constant([2**62] * 3, dtype=tf.int64))) == -1537228672809129301     # TF 2.21


@on_every_backend
def test_an_integer_sum_adds_to_an_integer_constant():
    total = tf.reduce_sum(tf.constant([1, 2])) + tf.constant(1)
    assert total.dtype is tf.int32 and int(total) == 4
    rows = tf.reduce_mean(tf.constant([[-1, -2], [2**31 - 1, 2**31 - 1]]), axis=1)
    assert rows.numpy().tolist() == [-1, 2**31 - 1] and rows.dtype is tf.int32        # TF 2.21


@on_every_backend
@pytest.mark.parametrize("reduce", [tf.reduce_sum, tf.reduce_prod, tf.reduce_mean, tf.reduce_max, tf.reduce_min])
def test_reductions_of_bool_raise_as_tf(reduce):
    with pytest.raises(tf.errors.InvalidArgumentError, match=f"{reduce.__name__}: input_tensor is bool"):
        reduce(tf.constant([True, False]))


EMPTY = {  # TF 2.21's reduction of nothing, by dtype
    "float32": {"reduce_max": -np.inf, "reduce_min": np.inf, "reduce_sum": 0.0, "reduce_prod": 1.0, "reduce_mean": np.nan},
    "float64": {"reduce_max": -np.inf, "reduce_min": np.inf, "reduce_sum": 0.0, "reduce_prod": 1.0, "reduce_mean": np.nan},
    "int32": {"reduce_max": -2**31, "reduce_min": 2**31 - 1, "reduce_sum": 0, "reduce_prod": 1, "reduce_mean": 0},
    "int64": {"reduce_max": -2**63, "reduce_min": 2**63 - 1, "reduce_sum": 0, "reduce_prod": 1, "reduce_mean": 0},
}


@on_every_backend
@pytest.mark.parametrize("dtype", EMPTY)
@pytest.mark.parametrize("name", EMPTY["int32"])
def test_reducing_nothing_gives_the_identity_as_tf(dtype, name):
    result = getattr(tf, name)(tf.zeros((0,), dtype=dtype))
    assert result.dtype.name == dtype and result.shape == ()
    np.testing.assert_array_equal(result.numpy(), np.array(EMPTY[dtype][name], dtype=dtype))


@on_every_backend
def test_reduce_max_over_an_empty_axis_keeps_the_other_axes_and_differentiates():
    x = tf.zeros((2, 0))
    assert tf.reduce_max(x, axis=1).numpy().tolist() == [-np.inf, -np.inf]
    assert tf.reduce_min(x, axis=1, keepdims=True).shape == (2, 1)
    assert tf.reduce_max(x, axis=0).shape == (0,)
    x = tf.zeros((0, 3))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_max(x, axis=0)
    assert y.numpy().tolist() == [-np.inf] * 3
    grad = tape.gradient(y, x)                       # TF 2.21: an empty gradient of x's shape
    assert grad.shape == (0, 3) and grad.dtype is tf.float32


@on_every_backend
@pytest.mark.parametrize("reduce", [tf.reduce_sum, tf.reduce_prod, tf.reduce_mean, tf.reduce_max, tf.reduce_min])
@pytest.mark.parametrize("axis,duplicate", [([0, 0], 0), ([0, -2], 0), ([1, 1, 0], 1), ((0, 0), 0)])
def test_a_reduction_axis_named_twice_is_rejected_as_tf(reduce, axis, duplicate):
    # TF 2.21: InvalidArgumentError "Invalid reduction arguments: Axes contains duplicate dimension: 0"
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=f"{reduce.__name__}: Invalid reduction arguments: Axes contains duplicate dimension: "
                             f"{duplicate} "):
        reduce(tf.ones((2, 3)), axis=axis)


# --------------------------------------------------------------------------- ops never warn (TF's kernels don't)

def f32(values):
    return tf.constant(np.array(values, np.float32))


def inf_times_zero_gradient():
    x, y = f32([np.inf]), f32([0.0])
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = x * y
    return tape.gradient(z, [x, y])


SPECIAL_VALUES = {   # each gives inf or nan, and made NumPy warn before
    "multiply": lambda: tf.multiply(f32([np.inf]), f32([0.0])),
    "multiply scalars": lambda: f32(np.inf) * f32(0.0),
    "multiply overflow": lambda: f32(3e38) * f32(10.0),
    "add": lambda: f32([np.inf]) + f32([-np.inf]),
    "add scalars": lambda: f32(np.inf) + f32(-np.inf),
    "subtract": lambda: f32([np.inf]) - f32([np.inf]),
    "square overflow": lambda: tf.square(f32([1e30])),
    "sin of inf": lambda: tf.sin(f32([np.inf])),
    "cos of inf": lambda: tf.cos(f32([np.inf])),
    "divide by zero": lambda: f32([0.0, 1.0]) / f32([0.0, 0.0]),
    "log of 0 and -1": lambda: tf.math.log(f32([0.0, -1.0])),
    "reduce_sum": lambda: tf.reduce_sum(f32([np.inf, -np.inf])),
    "reduce_mean overflow": lambda: tf.reduce_mean(f32([3e38, 3e38])),
    "reduce_mean of nothing": lambda: tf.reduce_mean(tf.zeros((2, 0)), axis=1),
    "reduce_prod": lambda: tf.reduce_prod(f32([np.inf, 0.0])),
    "matmul": lambda: tf.matmul(f32([[np.inf]]), f32([[0.0]])),
    "softmax": lambda: tf.nn.softmax(f32([np.inf, 1.0])),
    "cast nan to int": lambda: tf.cast(f32([np.nan]), tf.int32),
    "gradient of inf * 0": inf_times_zero_gradient,
}


@on_every_backend
@pytest.mark.parametrize("case", SPECIAL_VALUES)
def test_ops_give_inf_and_nan_without_warnings(case, recwarn):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        SPECIAL_VALUES[case]()
    assert not recwarn.list


def test_inf_times_zero_is_nan_and_numpy_still_warns_outside_ops(monkeypatch):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(float(f32(np.inf) * f32(0.0))) and float(f32(np.inf) - f32(np.inf)) != 0
        monkeypatch.setattr(arrays, "NUMPY_ERRSTATE", None)              # a NumPy without the context variable
        monkeypatch.setattr(tf.ops.fast_path, "NUMPY_ERRSTATE", None)
        assert np.isnan(float(f32(np.inf) * f32(0.0)))
        monkeypatch.undo()
    with pytest.warns(RuntimeWarning, match="invalid value"):          # the caller's own NumPy is left alone
        np.float32(np.inf) * np.float32(0.0)
    with pytest.raises(ZeroDivisionError), warnings.catch_warnings():
        warnings.simplefilter("error")
        arrays.quietly(lambda: 1 / 0)
    with pytest.warns(RuntimeWarning, match="invalid value"):          # restored after an error too
        np.float32(np.inf) * np.float32(0.0)
