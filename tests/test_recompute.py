"""recompute_grad and custom_gradient: the seeds' semantics, TF's corners, and the memory promise."""

import numpy as np
import pytest

import minitape as tf
from minitape.checkpointing.schedules import in_order
from tracing import traced_forward

pytestmark = pytest.mark.usefixtures("backend")     # every test here runs on each backend

RNG = np.random.default_rng(0)


def running_lines(capsys):
    return capsys.readouterr().out.count("running\n")


# ---- the seeds' traces

def test_seed_function_trace(capsys):
    y = tf.Variable(1.0)

    def my_function(x):
        tf.print("running")
        return x * y

    g = tf.recompute_grad(my_function)
    with tf.GradientTape() as tape:
        r = tf.constant(1.0)
        for _ in range(4):
            r = g(r)
    assert running_lines(capsys) == 4
    (grad,) = tape.gradient(r, [y])
    assert running_lines(capsys) == 4 and grad.numpy() == 4.0
    with tf.GradientTape() as tape:
        r = tf.constant(1.0)
        for _ in range(4):
            r = my_function(r)
    assert running_lines(capsys) == 4
    assert tape.gradient(r, [y])[0].numpy() == 4.0 and running_lines(capsys) == 0


def test_seed_keras_trace_with_persistent_tape(capsys):
    model = tf.keras.Sequential([tf.keras.layers.Lambda(lambda x: (tf.print("running"), x)[1]),
                                 tf.keras.layers.Dense(2)])
    g = tf.recompute_grad(model)
    with tf.GradientTape(persistent=True) as tape:
        r = tf.constant([[1, 2]])
        for _ in range(4):
            r = g(r)
    assert running_lines(capsys) == 4
    first = tape.gradient(r, model.variables)
    assert running_lines(capsys) == 4
    second = tape.gradient(r, g.__wrapped__.variables)
    assert running_lines(capsys) == 4
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    with pytest.raises(AttributeError):
        g.variables  # noqa: B018 -- the seed: "not available on the returned function"


# ---- recomputed gradients equal plain ones

def gradients(f, args, sources, kwargs=None):
    with tf.GradientTape() as tape:
        tape.watch([a for a in args if isinstance(a, tf.Tensor)] + list((kwargs or {}).values()))
        out = f(*args, **(kwargs or {}))
        loss = tf.reduce_sum(out * out)
    return [g.numpy() for g in tape.gradient(loss, sources)]


def assert_same(a, b):
    for x, y in zip(a, b):
        np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-6)


def test_deep_chain_of_recomputed_blocks():
    w = tf.Variable(RNG.normal(size=(8, 8)) * 0.3)
    block = lambda x: tf.tanh(x @ w)   # noqa: E731
    checkpointed = tf.recompute_grad(block)
    x = tf.constant(RNG.normal(size=(4, 8)))

    def chain(f):
        def run(x):
            for _ in range(50):
                x = f(x)
            return x
        return run

    assert_same(gradients(chain(checkpointed), [x], [x, w]), gradients(chain(block), [x], [x, w]))


def test_several_args_and_kwargs_get_gradients():
    def f(a, b, scale=None, shift=None):
        return tf.sin(a * b) * scale + shift

    a, b = tf.constant([0.3, 0.7]), tf.constant([1.5, -0.5])
    scale, shift = tf.constant(2.0), tf.constant([0.1, 0.2])
    plain = gradients(f, [a, b], [a, b, scale, shift], {"scale": scale, "shift": shift})
    recomputed = gradients(tf.recompute_grad(f), [a, b], [a, b, scale, shift], {"scale": scale, "shift": shift})
    assert_same(recomputed, plain)


def test_captured_variables_and_nested_recompute(capsys):
    w1, w2 = tf.Variable([[0.5, -0.3], [0.2, 0.9]]), tf.Variable([1.5, -0.7])

    def inner(x):
        tf.print("inner")
        return tf.tanh(x @ w1)

    def outer_with(inner_f):
        def outer(x):
            tf.print("outer")
            return inner_f(inner_f(x)) * w2
        return outer

    x = tf.constant([[1.0, 2.0]])
    plain = gradients(outer_with(inner), [x], [x, w1, w2])
    capsys.readouterr()
    nested = tf.recompute_grad(outer_with(tf.recompute_grad(inner)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(nested(x) ** 2)
    assert capsys.readouterr().out.split() == ["outer", "inner", "inner"]
    grads = tape.gradient(loss, [x, w1, w2])
    # backward: outer is recomputed (its inner calls are recorded, not run twice), then each inner.
    assert capsys.readouterr().out.split() == ["outer", "inner", "inner", "inner", "inner"]
    assert_same([g.numpy() for g in grads], plain)


def test_keras_sequential_under_recompute_grad():
    tf.random.set_seed(1)
    model = tf.keras.Sequential([tf.keras.layers.Dense(5, activation="tanh"), tf.keras.layers.Dense(3)])
    x = tf.constant(RNG.normal(size=(4, 6)).astype(np.float32))
    model(x)                                     # build the weights first
    plain = gradients(model, [x], model.trainable_variables)
    recomputed = gradients(tf.recompute_grad(model), [x], model.trainable_variables)
    assert_same(recomputed, plain)


def test_dropout_is_replayed_so_the_gradient_matches_the_plain_one():
    w = tf.Variable(RNG.normal(size=(200,)).astype(np.float32))
    x = tf.constant(RNG.normal(size=(200,)).astype(np.float32))
    f = tf.recompute_grad(lambda t: tf.nn.dropout(t * w, rate=0.5), check_values=True)
    with tf.GradientTape() as tape:
        out = f(x)
        loss = tf.reduce_sum(out * out)
    grad = tape.gradient(loss, w).numpy()
    mask = (out.numpy() != 0).astype(np.float32)        # the forward pass's mask
    plain = 2 * out.numpy() * mask * 2 * x.numpy()        # d/dw of sum((x*w*mask*2)^2)
    np.testing.assert_allclose(grad, plain, rtol=1e-5)
    assert 0.3 < mask.mean() < 0.7


def test_keras_dropout_inside_recomputed_model():
    model = tf.keras.Sequential([tf.keras.layers.Dense(50), tf.keras.layers.Dropout(0.5)])
    g = tf.recompute_grad(lambda x: model(x, training=True), check_values=True)
    with tf.GradientTape() as tape:
        out = g(tf.ones((8, 4)))
    assert len(tape.gradient(out, model.trainable_variables)) == 2     # no mismatch raised


def test_second_derivative_through_a_recomputed_function():
    f = tf.recompute_grad(lambda t: tf.sin(t) * t)
    x = tf.constant(0.8, tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        dy = inner.gradient(y, x)
    np.testing.assert_allclose(dy.numpy(), np.cos(0.8) * 0.8 + np.sin(0.8))
    np.testing.assert_allclose(outer.gradient(dy, x).numpy(), -np.sin(0.8) * 0.8 + 2 * np.cos(0.8))


# ---- TF's corners

def test_tf_corners_unused_arg_nontrainable_variable_and_reassignment():
    v = tf.Variable(2.0, trainable=False)
    w = tf.Variable(3.0)
    f = tf.recompute_grad(lambda x, unused: x * v * w)
    x, unused = tf.constant(1.0), tf.constant(5.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, unused])
        z = f(x, unused)
    gx, gu, gv, gw = tape.gradient(z, [x, unused, v, w])
    assert (gx.numpy(), gu.numpy(), gv, gw.numpy()) == (6.0, 0.0, None, 2.0)
    w.assign(10.0)                         # recomputation re-reads variables, as TF does
    assert tape.gradient(z, x).numpy() == 20.0


def test_multiple_outputs_and_metadata():
    def pair(x):
        """Two things."""
        return x * 2.0, x * 3.0

    g = tf.recompute_grad(pair)
    assert (g.__name__, g.__doc__, g.__wrapped__) == ("pair", "Two things.", pair)
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        a, b = g(x)
    assert isinstance(g(x), tuple) and tape.gradient(a, x).numpy() == 2.0


def test_is_recomputing_flag():
    calls = []
    g = tf.recompute_grad(lambda x, is_recomputing=False: (calls.append(is_recomputing), x * x)[1])
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = g(x)
    assert tape.gradient(y, x).numpy() == 4.0 and calls == [False, True]


# ---- errors

def test_non_callable():
    with pytest.raises(TypeError, match="recompute_grad expects a callable .* got int 3"):
        tf.recompute_grad(3)


@pytest.mark.parametrize("result", [None, {"a": object()}])
def test_function_returning_a_non_tensor(result):
    def bad(x):
        return result
    with pytest.raises(TypeError, match="bad must return a Tensor"):
        tf.recompute_grad(bad)(tf.constant(1.0))


def test_numbers_returned_convert_like_tf():
    assert tf.recompute_grad(lambda x: 3)(tf.constant(1.0)).dtype == tf.int32
    if tf.backends.current().name == "numpy":          # strings live on the host, as TF keeps them on the CPU
        assert tf.recompute_grad(lambda x: "text")(tf.constant(1.0)).numpy() == b"text"     # TF 2.21: a string tensor


def test_recomputation_that_changes_shape_is_named():
    state = {"n": 2}

    def grows(x):
        state["n"] += 1
        return tf.tile(x, [state["n"]])

    g = tf.recompute_grad(grows)
    x = tf.constant([1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = g(x)
    with pytest.raises(tf.RecomputeMismatchError, match=r"recomputing .*grows gave outputs \[float32\[4\]\], but the forward pass gave \[float32\[3\]\]"):
        tape.gradient(y, x)


def test_opt_in_value_check():
    state = {"offset": 0.0}

    def drifting(x):
        state["offset"] += 1.0
        return x + state["offset"]

    x = tf.constant(1.0)
    for check, raises in ((False, False), (True, True)):
        g = tf.recompute_grad(drifting, check_values=check)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = g(x)
        if raises:
            with pytest.raises(tf.RecomputeMismatchError, match="changed the values of output 0"):
                tape.gradient(y, x)
        else:
            assert tape.gradient(y, x).numpy() == 1.0


# ---- custom_gradient

def test_custom_gradient_with_variables_and_tf_errors():
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def scaled(x):
        def grad(dy, variables=None):
            return dy * v, [dy * x]
        return x * v, grad

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scaled(x)
    gx, gv = tape.gradient(y, [x, v])
    assert (gx.numpy(), gv.numpy()) == (2.0, 3.0)

    @tf.custom_gradient
    def forgets_variables(x):
        return x * v, lambda dy: dy * v

    with pytest.raises(TypeError, match="grad_fn must accept keyword argument 'variables', since function uses variables"):
        forgets_variables(x)

    @tf.custom_gradient
    def too_few(x, y):
        return x * y, lambda dy: dy

    with tf.GradientTape() as tape:
        tape.watch(x)
        z = too_few(x, tf.constant(1.0))
    with pytest.raises(ValueError, match="custom_gradient function expected to return 2 gradients, but returned 1 instead."):
        tape.gradient(z, x)


def test_custom_gradient_hands_zeros_to_unused_outputs():
    seen = []

    @tf.custom_gradient
    def two(x):
        def grad(d1, d2):
            seen.append(d2.numpy())
            return d1 + d2
        return (x * 2.0, x * 3.0), grad

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        a, _ = two(x)
    assert tape.gradient(a, x).numpy() == 1.0 and seen == [0.0]


# ---- the memory promise, measured by tracemalloc

BATCH, WIDTH, DEPTH = 256, 256, 32
ACTIVATION = BATCH * WIDTH * 4          # bytes of one float32 activation


def held_after_forward(forward, x):
    """Bytes allocated during the forward pass and still alive after it (tape + output)."""
    tape, out, held = traced_forward(forward, x)
    return held, tape, out


@pytest.fixture(scope="module")
def chain():
    rng = np.random.default_rng(0)
    weights = [(tf.Variable(rng.normal(size=(WIDTH, WIDTH)).astype(np.float32) / 16),
                tf.Variable(np.zeros(WIDTH, np.float32))) for _ in range(DEPTH)]
    blocks = [lambda x, W=W, b=b: tf.tanh(x @ W + b) for W, b in weights]
    return blocks, tf.constant(rng.normal(size=(BATCH, WIDTH)).astype(np.float32))


def test_plain_tape_holds_one_activation_per_block(chain):
    blocks, x = chain
    held, _, _ = held_after_forward(in_order(blocks), x)
    assert held == pytest.approx(DEPTH * ACTIVATION, rel=0.03)     # tanh keeps its output, nothing else


def test_checkpointed_blocks_hold_only_their_inputs(chain):
    blocks, x = chain
    per_block = [tf.recompute_grad(b) for b in blocks]
    held, _, _ = held_after_forward(in_order(per_block), x)
    # Held: the inputs of blocks 2..32 (block 1's input is the user's) plus the returned output.
    assert held == pytest.approx((DEPTH - 1) * ACTIVATION + ACTIVATION, rel=0.03)
    segments = [tf.recompute_grad(in_order(blocks[i:i + 8])) for i in range(0, DEPTH, 8)]
    held, _, _ = held_after_forward(in_order(segments), x)
    assert held == pytest.approx(3 * ACTIVATION + ACTIVATION, rel=0.05)      # 3 segment inputs + output
    plain_grads = gradients(in_order(blocks), [x], [v for b in blocks for v in (b.__defaults__)])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(in_order(segments)(x) ** 2)
    assert_same([g.numpy() for g in tape.gradient(loss, [v for b in blocks for v in b.__defaults__])], plain_grads)
