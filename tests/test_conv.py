"""Images: conv2d, max_pool2d, avg_pool2d, moments and batch_normalization.

Forward values against a plain NumPy loop over output pixels; gradients and second derivatives
against float64 central finite differences, with hypothesis drawing shapes, strides, dilations
and paddings; TF's exceptions for bad arguments.  TF's own figures are in test_conv_tf.py.
"""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minitape as tf
from minitape.course.gradcheck import check_gradients

# --------------------------------------------------------------------------- a plain NumPy reference

def reference_pads(padding, image, reach, strides):
    if padding == "VALID":
        return [(0, 0), (0, 0)]
    if padding == "SAME":      # TF: ceil(n / s) outputs, the padding they need split with the odd one after
        totals = [max((math.ceil(n / s) - 1) * s + k - n, 0) for n, k, s in zip(image, reach, strides)]
        return [(t // 2, t - t // 2) for t in totals]
    return [tuple(p) for p in padding[1:3]]


def reference_conv(x, w, strides, dilations, padding):
    """The definition: each output pixel is its patch of the padded input, contracted with the filters."""
    (kh, kw), (sh, sw), (dh, dw) = w.shape[:2], strides, dilations
    pads = reference_pads(padding, x.shape[1:3], ((kh - 1) * dh + 1, (kw - 1) * dw + 1), strides)
    padded = np.pad(x, [(0, 0), *pads, (0, 0)])
    rows = (padded.shape[1] - (kh - 1) * dh - 1) // sh + 1
    cols = (padded.shape[2] - (kw - 1) * dw - 1) // sw + 1
    out = np.zeros((x.shape[0], rows, cols, w.shape[3]))
    for r in range(rows):
        for c in range(cols):
            patch = padded[:, r * sh:r * sh + (kh - 1) * dh + 1:dh, c * sw:c * sw + (kw - 1) * dw + 1:dw]
            out[:, r, c] = np.einsum("nijc,ijco->no", patch, w)
    return out


def reference_pool(x, ksize, strides, padding, reduce):
    """Each output pixel reduces the part of its window that lies inside the image."""
    pads = reference_pads(padding, x.shape[1:3], ksize, strides)
    sizes = [(n + before + after - k) // s + 1 for n, (before, after), k, s in zip(x.shape[1:3], pads, ksize, strides)]
    out = np.zeros((x.shape[0], *sizes, x.shape[3]))
    for r in range(sizes[0]):
        for c in range(sizes[1]):
            top, left = r * strides[0] - pads[0][0], c * strides[1] - pads[1][0]
            window = x[:, max(top, 0):top + ksize[0], max(left, 0):left + ksize[1]]
            out[:, r, c] = reduce(window, axis=(1, 2))
    return out


def tf_form(pair):
    """A (height, width) argument in one of TF's forms: n, [h, w] or [1, h, w, 1]."""
    return st.sampled_from([list(pair), [1, *pair, 1]] + ([pair[0]] if pair[0] == pair[1] else []))


@st.composite
def geometries(draw, dilate=True, explicit=True, max_side=3, wide_pads=False):
    """A window (kernel, strides, dilations, padding) and an image it fits (``wide_pads``: explicit pads up to
    the window's reach, past what a window that stays inside the image needs)."""
    kernel = (draw(st.integers(1, max_side)), draw(st.integers(1, max_side)))
    strides = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    dilations = (draw(st.integers(1, 2)), draw(st.integers(1, 2))) if dilate else (1, 1)
    padding = draw(st.sampled_from(["SAME", "VALID"] + (["explicit"] if explicit else [])))
    pads = [(0, 0), (0, 0)]
    if padding == "explicit":
        most = [(k - 1) * d + 1 if wide_pads else k - 1 for k, d in zip(kernel, dilations)]
        pads = [(draw(st.integers(0, m)), draw(st.integers(0, m))) for m in most]
        padding = [[0, 0], list(pads[0]), list(pads[1]), [0, 0]]
    reach = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
    image = tuple(draw(st.integers(max(1, r - sum(p)), r + 4)) for r, p in zip(reach, pads))
    return {"kernel": kernel, "strides": strides, "dilations": dilations, "padding": padding, "image": image,
            "strides_form": draw(tf_form(strides)), "dilations_form": draw(tf_form(dilations))}


def values(shape, seed):
    return np.random.default_rng(seed).uniform(-1, 1, shape)


@settings(max_examples=30, deadline=None)
@given(g=geometries(), channels=st.integers(1, 3), filters=st.integers(1, 3), seed=st.integers(0, 99))
def test_conv2d_equals_a_plain_numpy_loop(g, channels, filters, seed):
    x, w = values((2, *g["image"], channels), seed), values((*g["kernel"], channels, filters), seed + 1)
    out = tf.nn.conv2d(x, w, g["strides_form"], g["padding"], dilations=g["dilations_form"])
    expected = reference_conv(x, w, g["strides"], g["dilations"], g["padding"])
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(g=geometries(dilate=False), seed=st.integers(0, 99), ties=st.booleans())
def test_pools_equal_a_plain_numpy_loop(g, seed, ties):
    x = values((2, *g["image"], 2), seed)
    x = np.round(x * 2) if ties else x
    out = tf.nn.max_pool2d(x, g["kernel"], g["strides_form"], g["padding"])
    np.testing.assert_array_equal(out.numpy(), reference_pool(x, g["kernel"], g["strides"], g["padding"], np.max))
    if isinstance(g["padding"], str):           # TF's avg_pool2d takes no explicit padding
        out = tf.nn.avg_pool2d(x, g["kernel"], g["strides_form"], g["padding"])
        expected = reference_pool(x, g["kernel"], g["strides"], g["padding"], np.mean)
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12)


# --------------------------------------------------------------------------- finite differences

def first_derivatives(f):
    """``f``'s gradient, flattened, with respect to every input of ``sum(tanh(f) * w)``: to check second derivatives."""
    def gradient(*xs):
        with tf.GradientTape() as tape:
            tape.watch(xs)
            out = f(*xs)
            loss = tf.reduce_sum(tf.tanh(out) * tf.constant(values(out.shape, 7) + 1.5))
        return tf.concat([tf.reshape(d, [-1]) for d in tape.gradient(loss, list(xs))], axis=0)
    return gradient


def distinct(shape, seed):
    """Values at least 0.05 apart, so that no max-pool window ties (differences would jump)."""
    return np.random.default_rng(seed).permutation(math.prod(shape)).reshape(shape) * 0.05 - 1


@settings(max_examples=12, deadline=None)
@given(g=geometries(max_side=2), channels=st.integers(1, 2), seed=st.integers(0, 99))
def test_conv2d_gradients_and_second_derivatives(g, channels, seed):
    x, w = values((1, *g["image"], channels), seed), values((*g["kernel"], channels, 2), seed + 1)
    conv = lambda a, b: tf.nn.conv2d(a, b, g["strides_form"], g["padding"], dilations=g["dilations_form"])  # noqa: E731
    check_gradients(conv, x, w)
    check_gradients(first_derivatives(conv), x, w, rtol=1e-4, atol=1e-6)


@settings(max_examples=12, deadline=None)
@given(g=geometries(dilate=False), seed=st.integers(0, 99))
def test_pool_gradients_and_second_derivatives(g, seed):
    x = distinct((2, *g["image"], 2), seed)
    max_pool = lambda a: tf.nn.max_pool2d(a, g["kernel"], g["strides_form"], g["padding"])  # noqa: E731
    check_gradients(max_pool, x)
    check_gradients(first_derivatives(max_pool), x)
    if isinstance(g["padding"], str):
        avg_pool = lambda a: tf.nn.avg_pool2d(a, g["kernel"], g["strides_form"], g["padding"])  # noqa: E731
        check_gradients(avg_pool, x)
        check_gradients(first_derivatives(avg_pool), x)


@settings(max_examples=12, deadline=None)
@given(shape=st.lists(st.integers(1, 3), min_size=1, max_size=3), data=st.data())
def test_normalization_gradients_and_second_derivatives(shape, data):
    axes = data.draw(st.lists(st.integers(0, len(shape) - 1), min_size=1, unique=True))
    keepdims = data.draw(st.booleans())
    x = values(shape, 10 + len(shape)) + np.arange(math.prod(shape)).reshape(shape) * 0.3
    moments = lambda a: tf.stack(tf.nn.moments(a, axes, keepdims=keepdims))  # noqa: E731
    check_gradients(moments, x)
    check_gradients(first_derivatives(moments), x, rtol=1e-4)
    stats = [values(shape[-1:], 3), np.abs(values(shape[-1:], 4)) + 0.5, values(shape[-1:], 5), values(shape[-1:], 6)]
    normalized = lambda a, m, v, o, s: tf.nn.batch_normalization(a, m, v, o, s, 1e-3)  # noqa: E731
    check_gradients(normalized, x, *stats)
    check_gradients(first_derivatives(normalized), x, *stats, rtol=1e-4)


# --------------------------------------------------------------------------- arguments, errors, memory

def test_extra_batch_axes_and_argument_forms():
    x, w = values((2, 3, 5, 5, 2), 0), values((3, 3, 2, 4), 1)
    y = tf.nn.conv2d(x, w, strides=[1, 2, 2, 1], padding="SAME", dilations=1)
    assert y.shape == (2, 3, 3, 3, 4)
    np.testing.assert_allclose(y.numpy()[1, 2], tf.nn.conv2d(x[1, 2:], w, 2, "SAME").numpy()[0])
    assert tf.nn.max_pool2d(tf.ones((1, 4, 4, 1), tf.int32), 2, 2, "VALID").dtype == tf.int32


X4, W4 = np.ones((1, 5, 5, 3), np.float32), np.ones((3, 3, 3, 2), np.float32)
ERRORS = [   # the exception types are TF 2.21's; each message names the op and the argument
    (lambda: tf.nn.conv2d(X4, W4, [2, 2, 2], "SAME"), ValueError, "conv2d: strides should be of length 1, 2 or 4"),
    (lambda: tf.nn.conv2d(X4, W4, [2, 2, 2, 1], "SAME"), tf.errors.UnimplementedError, r"conv2d: strides=\[2, 2, 2, 1\]"),
    (lambda: tf.nn.conv2d(X4, W4, 0, "SAME"), tf.errors.InvalidArgumentError, "conv2d: strides must be > 0"),
    (lambda: tf.nn.conv2d(X4, W4, 1, "SAME", dilations=0), tf.errors.InvalidArgumentError, "conv2d: dilations must be"),
    (lambda: tf.nn.conv2d(X4, W4, 1, "same"), tf.errors.InvalidArgumentError, "conv2d: padding must be 'SAME' or 'VALID'"),
    (lambda: tf.nn.conv2d(X4, W4, 1, "EXPLICIT"), ValueError, "padding must be a list"),
    (lambda: tf.nn.conv2d(X4, W4, 1, None), TypeError, "conv2d: expected a string for padding"),
    (lambda: tf.nn.conv2d(X4, W4, 1, [[0, 0], [1, 1]]), ValueError, "conv2d: when padding is a list, it must be of size 4"),
    (lambda: tf.nn.conv2d(X4, W4, 1, [[1, 0], [1, 1], [1, 1], [0, 0]]), tf.errors.InvalidArgumentError,
     "batch or depth dimensions"),
    (lambda: tf.nn.conv2d(X4, W4, 1, [[0, 0], [-1, 1], [1, 1], [0, 0]]), tf.errors.InvalidArgumentError, "nonnegative"),
    (lambda: tf.nn.conv2d(X4, W4, 1, "SAME", data_format="NCHW"), tf.errors.UnimplementedError,
     "conv2d: data_format='NCHW' is not supported"),
    (lambda: tf.nn.conv2d(X4, W4, 1, "SAME", data_format="NHCW"), tf.errors.InvalidArgumentError, "conv2d: data_format"),
    (lambda: tf.nn.conv2d(X4, W4[..., :2, :], 1, "SAME"), tf.errors.InvalidArgumentError,
     "conv2d: input depth must be evenly divisible by filter depth: 3 vs 2"),
    (lambda: tf.nn.conv2d(X4, W4[..., :1, :], 1, "SAME"), tf.errors.UnimplementedError, "conv2d: grouped convolution"),
    (lambda: tf.nn.conv2d(X4, W4[0], 1, "SAME"), tf.errors.InvalidArgumentError, "conv2d: filters must be 4-dimensional"),
    (lambda: tf.nn.conv2d(X4[0], W4, 1, "SAME"), tf.errors.InvalidArgumentError, "conv2d: input must be at least 4-dim"),
    (lambda: tf.nn.conv2d(X4, np.ones((7, 7, 3, 2), np.float32), 1, "VALID"), tf.errors.InvalidArgumentError,
     r"conv2d: Computed output size would be negative: -1 \[input_size: 5, effective_filter_size: 7, stride: 1\]"),
    (lambda: tf.nn.conv2d(tf.constant(X4), tf.constant(W4, tf.float64), 1, "SAME"), tf.errors.InvalidArgumentError,
     r"cannot compute Conv2D as input #1\(zero-based\) was expected to be a float tensor but is a double tensor"),
    (lambda: tf.nn.conv2d(X4 > 0, W4 > 0, 1, "SAME"), tf.errors.InvalidArgumentError, "conv2d: input must be float16"),
    (lambda: tf.nn.max_pool2d(X4, [2, 2, 2], 1, "VALID"), ValueError, "max_pool2d: ksize should be of length 1, 2 or 4"),
    (lambda: tf.nn.max_pool2d(X4, [2, 2, 2, 1], 1, "VALID"), tf.errors.UnimplementedError, "max_pool2d: ksize="),
    (lambda: tf.nn.max_pool2d(X4, 0, 1, "VALID"), tf.errors.InvalidArgumentError, "max_pool2d: ksize must be > 0"),
    (lambda: tf.nn.max_pool2d(X4, 2, 1, [[0, 0], [2, 2], [1, 1], [0, 0]]), tf.errors.InvalidArgumentError,
     "max_pool2d: Top padding 2 needs to be smaller than the window size 2"),
    (lambda: tf.nn.max_pool2d(X4[0], 2, 1, "VALID"), tf.errors.InvalidArgumentError, "max_pool2d: input must be 4-dim"),
    (lambda: tf.nn.max_pool2d(X4, 7, 1, "VALID"), tf.errors.InvalidArgumentError, "max_pool2d: Computed output size"),
    (lambda: tf.nn.avg_pool2d(X4, 2, 1, [[0, 0], [1, 1], [1, 1], [0, 0]]), TypeError,
     "avg_pool2d: expected a string for padding"),
    (lambda: tf.nn.avg_pool2d(X4.astype(np.int32), 2, 1, "VALID"), tf.errors.InvalidArgumentError,
     "avg_pool2d: input must be float16, float32, float64, got int32"),
    (lambda: tf.nn.moments(X4, [4]), tf.errors.InvalidArgumentError, "moments: axis 4 is out of range"),
    (lambda: tf.nn.batch_normalization(X4, np.ones(2), np.ones(3), None, None, 1e-3), tf.errors.InvalidArgumentError,
     r"batch_normalization: mean of shape \(2,\) does not broadcast against x of shape \(1, 5, 5, 3\)"),
]


@pytest.mark.parametrize("call,error,message", ERRORS, ids=[e[2][:40] for e in ERRORS])
def test_bad_arguments_raise_tensorflows_exceptions(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_each_op_keeps_what_its_derivative_reads():
    """conv2d keeps its input and filters (as TF's Conv2D), max-pool its input, average-pool nothing."""
    x, w = tf.constant(values((2, 6, 6, 3), 0)), tf.constant(values((3, 3, 3, 4), 1))
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        h = tf.nn.conv2d(x, w, 1, "SAME")
        tf.nn.avg_pool2d(tf.nn.max_pool2d(h, 2, 2, "SAME"), 2, 2, "SAME")
    rows = [(r["name"], r["role"]) for r in tape.saved()]
    assert rows == [("conv2d", "input 0"), ("conv2d", "input 1"), ("max_pool2d", "input 0")]
    assert tape.memory_info()["current"] == h.numpy().nbytes          # x and w are the user's


def conv2d_and_gradients(x, w, strides, padding, dilations, seed=2):
    """``conv2d``'s output and its gradients with respect to ``x`` and ``w``, for a random upstream gradient."""
    x, w = tf.constant(x), tf.constant(w)
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = tf.nn.conv2d(x, w, strides, padding, dilations=dilations)
    upstream = values(y.shape, seed).astype(y.numpy().dtype)
    return [t.numpy() for t in (y, *tape.gradient(y, [x, w], output_gradients=upstream))]


@pytest.mark.parametrize("strides, dilations, padding", [(1, 1, "SAME"), (2, 1, "SAME"), (1, 2, "VALID"),
                                                         (3, 1, [[0, 0], [2, 1], [0, 3], [0, 0]])])
def test_conv2d_takes_rows_a_block_at_a_time(monkeypatch, strides, dilations, padding):
    """On NumPy the products run over blocks (fast paths): any block size gives the same numbers, on either path."""
    from minitape.ops import convolution, im2col
    x, w = values((3, 9, 11, 3), 0), values((3, 2, 3, 4), 1)
    whole = conv2d_and_gradients(x, w, strides, padding, dilations)
    np.testing.assert_allclose(whole[0], reference_conv(x, w, (strides,) * 2, (dilations,) * 2, padding),
                               rtol=1e-12, atol=1e-12)
    monkeypatch.setattr(im2col, "BLOCK", 1)                         # one image a block
    monkeypatch.setattr(im2col, "SUB_BLOCK", 1)                     # one row a product
    for a, b in zip(conv2d_and_gradients(x, w, strides, padding, dilations), whole):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    monkeypatch.setattr(im2col, "applies", lambda xp, *arrays: False)   # the per-tap products
    monkeypatch.setattr(convolution, "_BLOCK_ROWS", 7)              # many blocks, the last one short
    for a, b in zip(conv2d_and_gradients(x, w, strides, padding, dilations), whole):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(g=geometries(wide_pads=True), channels=st.integers(1, 3), filters=st.integers(1, 3),
       dtype=st.sampled_from([np.float32, np.float64]), seed=st.integers(0, 99))
def test_the_numpy_fast_path_gives_the_per_tap_products_numbers(g, channels, filters, dtype, seed):
    """im2col (NumPy, float32 and float64) against the per-tap products, on every window: strides, dilations,
    explicit pads past the window's reach (whose input gradient, as a strided one, im2col leaves to the products)."""
    from minitape.ops import im2col
    x, w = values((2, *g["image"], channels), seed).astype(dtype), values((*g["kernel"], channels, filters), seed + 1)
    args = (x, w.astype(dtype), g["strides_form"], g["padding"], g["dilations_form"])
    fast = conv2d_and_gradients(*args)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(im2col, "applies", lambda xp, *arrays: False)
        products = conv2d_and_gradients(*args)
    tolerance = 1e-12 if dtype == np.float64 else 1e-5
    for a, b in zip(fast, products):
        assert a.dtype == b.dtype == dtype
        np.testing.assert_allclose(a, b, rtol=tolerance, atol=tolerance)


def test_the_numpy_fast_path_declines_what_it_does_not_take():
    """im2col takes NumPy float32 and float64, not empty; its input gradient takes stride 1 with pads up to reach - 1."""
    from minitape.ops import im2col
    from minitape.ops.windows import Window
    assert im2col.applies(np, np.ones((1, 2, 2, 1), np.float32), np.ones((1, 1, 1, 1)))
    assert not im2col.applies(np, np.ones((1, 2, 2, 1), np.int32), np.ones((1, 1, 1, 1), np.int32))
    assert not im2col.applies(np, np.ones((1, 2, 2, 1), np.float16), np.ones((1, 1, 1, 1), np.float16))
    assert not im2col.applies(np, np.ones((0, 2, 2, 1)), np.ones((1, 1, 1, 1)))
    same = Window.sliding("conv2d", (5, 5), (3, 3), (1, 1), "SAME")
    assert im2col.transposed(same, (1, 5, 5, 1)).pads == ((1, 1), (1, 1))
    assert im2col.transposed(Window.sliding("conv2d", (5, 5), (3, 3), (2, 2), "SAME"), (1, 5, 5, 1)) is None
    wide = Window.sliding("conv2d", (5, 5), (3, 3), (1, 1), [[0, 0], [0, 3], [1, 1], [0, 0]])
    assert im2col.transposed(wide, (1, 5, 5, 1)) is None         # 3 > reach - 1 = 2 on one side only
    x = values((2, 5, 6, 4), 3).transpose(0, 2, 1, 3)[:, :, :, ::2]       # strides of every kind, no copy
    w = values((3, 2, 2, 3), 4)
    np.testing.assert_allclose(im2col.conv2d(x, w, Window.sliding("conv2d", (6, 5), (3, 2), (1, 2), "SAME")),
                               reference_conv(x, w, (1, 2), (1, 1), "SAME"), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("strides, padding", [(1, "SAME"), (2, "SAME"), (2, "VALID")])
def test_conv2d_and_its_derivatives_on_a_backend_with_only_the_array_api(strides, padding):
    """array-api-strict has no views and no NumPy habits: the same numbers as on NumPy, to second order."""
    def derivatives():
        x, w = tf.constant(values((2, 7, 6, 3), 0)), tf.constant(values((3, 2, 3, 4), 1))
        with tf.GradientTape() as outer:
            outer.watch([x, w])
            with tf.GradientTape() as inner:
                inner.watch([x, w])
                y = tf.nn.conv2d(x, w, strides, padding)
                loss = tf.reduce_sum(y * y)
            dx, dw = inner.gradient(loss, [x, w])
            total = tf.reduce_sum(dx * dx) + tf.reduce_sum(dw * dw)
        return [y, dx, dw, *outer.gradient(total, [x, w])]

    on_numpy = derivatives()
    with tf.backends.use("array_api_strict") as strict:
        on_strict = derivatives()
    for a, b in zip(on_strict, on_numpy):
        assert tf.backends.backend_of(a._value) is strict
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("watched", [(0, 1), (0,), (1,), (0, 1, 2, 3), (1, 2), (0, 3)])
def test_the_input_gradient_hands_the_filters_theirs_and_each_convolution_keeps_its_own(watched):
    """At first order on NumPy, x's VJP works out the filters' gradient too and hands it over: two convolutions
    fed one upstream gradient (a sum), any of their inputs watched, get the per-tap products' gradients."""
    from minitape.ops import im2col
    x1, w1, x2, w2 = (tf.constant(values(shape, seed)) for seed, shape in
                      enumerate([(2, 6, 5, 3), (3, 3, 3, 2), (2, 6, 5, 3), (1, 3, 3, 2)]))

    def gradients():
        sources = [(x1, w1, x2, w2)[k] for k in watched]
        with tf.GradientTape() as tape:
            tape.watch(sources)
            y = tf.nn.conv2d(x1, w1, 1, "SAME") + tf.nn.conv2d(x2, w2, 1, "SAME")
            loss = tf.reduce_sum(y * tf.constant(values(y.shape, 9)))
        return tape.gradient(loss, sources)

    fast = gradients()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(im2col, "applies", lambda xp, *arrays: False)
        products = gradients()
    for a, b in zip(fast, products):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12, atol=1e-12)
