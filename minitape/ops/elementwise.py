"""Elementwise ops: the op table's main rows, each forward rule beside its derivative.

One row declares one op: its name, its forward rule (computed with the array
namespace ``xp``), the VJP of each input (written with minitape's own ops), and
what the VJPs keep.  ``unary`` and ``binary`` turn a row into the public
function (it runs the op with ``fast_path.run``: ``apply``, spelled out); a
binary op's VJPs are summed back to their input's shape, since its inputs
broadcast (``unbroadcast``).

>>> import minitape as tf
>>> tf.tanh.op, tf.multiply.op
(Op('tanh', keep=('ans',)), Op('multiply', keep=(0, 1)))
"""
from __future__ import annotations

import sys

from collections.abc import Callable
from typing import Any

from minitape.core import backends, dtypes
from minitape.core.errors import InvalidArgumentError, UnimplementedError
from minitape.core.primitive import ANS, Op, apply
from minitape.core.tensor import Tensor
from minitape.ops.arguments import (ANY, DIVISIBLE, FLOATS, NUMBERS, SIGNED, Dtypes, as_operand, check_broadcast,
                                    nonzero_divisor, operands, pair, under_tfs_name)
from minitape.ops.broadcasting import unbroadcasting
from minitape.ops.creation import ones_like, zeros_like
from minitape.ops.fast_path import SAME_SHAPES, run, tanh_grad_forward


def public(function: Callable, name: str, op: Op, doc: str) -> Callable:
    """Give the function made for an op its name, docstring and module, and a link to its primitive (``.op``).

    Its module is the one that declares it, the caller of ``unary``, ``binary`` or ``reduction`` (as
    ``collections.namedtuple`` finds a new class's): there its docstring's example runs as a doctest,
    and the API reference finds it.
    """
    function.__name__ = function.__qualname__ = name
    function.__module__ = sys._getframe(2).f_globals.get("__name__", function.__module__)
    function.__doc__ = doc
    function.op = op
    return function


def unary(name: str, forward: Callable, vjp: Callable | None, keep: tuple = (),
          accepts: Dtypes = FLOATS, doc: str = "", argument: str = "x") -> Callable:
    """Declare a one-input elementwise op for the dtypes it ``accepts``, its input named ``argument`` as TF does.

    >>> from minitape.ops.elementwise import unary
    >>> cube = unary("cube", lambda xp, x: x ** 3, lambda g, ans, x: g * 3.0 * x * x, keep=(0,))
    >>> x = tf.constant(2.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = cube(x)
    >>> y.numpy(), tape.gradient(y, x).numpy()
    (np.float32(8.0), np.float32(12.0))
    """
    op = Op(name, forward, (vjp,) if vjp else (), keep)
    admitted = accepts.types

    def function(x: Any, name: str | None = None) -> Tensor:
        x = as_operand(x, op.name)
        value = x._value
        if type(value) not in admitted and type(value.dtype) not in admitted:
            accepts.check(op.name, x)                   # another backend's array, or a dtype refused
        return run(op, (x,))
    return public(under_tfs_name(function, argument), name, op, doc)


def binary(name: str, forward: Callable, vjp_x: Callable | None, vjp_y: Callable | None,
           keep: tuple = (), accepts: Dtypes = NUMBERS, doc: str = "") -> Callable:
    """Declare a two-input elementwise op whose inputs broadcast, for the dtypes it ``accepts``; returns its function.

    >>> from minitape.ops.elementwise import binary
    >>> hypot2 = binary("hypot2", lambda xp, x, y: x * x + y * y,
    ...                 lambda g, ans, x, y: 2.0 * g * x, lambda g, ans, x, y: 2.0 * g * y, keep=(0, 1))
    >>> x = tf.constant([1.0, 2.0])
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = hypot2(x, 3.0)
    >>> tape.gradient(y, x).numpy()
    array([2., 4.], dtype=float32)
    """
    vjps = tuple(unbroadcasting(v, k) if v else None for k, v in enumerate((vjp_x, vjp_y)))
    op = Op(name, forward, vjps if vjp_x or vjp_y else (), keep)
    if op.vjps and not op.checked:          # the table's VJPs give their input's shape when the shapes agree
        SAME_SHAPES[op] = Op(name, forward, (vjp_x, vjp_y), keep)
    admitted = accepts.types

    def function(x: Any, y: Any, name: str | None = None) -> Tensor:
        inputs = pair(op.name, x, y, accepts.error)
        value = inputs[0]._value                        # pair gave both one dtype: checking x is enough
        if type(value) not in admitted and type(value.dtype) not in admitted:
            accepts.check(op.name, inputs[0])           # another backend's array, or a dtype refused
        try:
            return run(op, inputs)
        except ValueError:                              # NumPy's "could not be broadcast": say it as TF does
            check_broadcast(op.name, *inputs)
            raise
    return public(function, name, op, doc)


def _zeros_like_grad(g: Tensor, *_: Any) -> Tensor:
    return zeros_like(g)


# --------------------------------------------------------------------------- the table
#      name           forward                                  vjp, written with minitape ops          keeps

negative = unary("negative", lambda xp, x: -x,    lambda g, ans, x: -g,                    accepts=SIGNED, doc="""
    Elementwise ``-x``.

    >>> tf.negative([1.0, -2.0]).numpy()
    array([-1.,  2.], dtype=float32)
    """)
abs = unary("abs",       lambda xp, x: xp.abs(x),             lambda g, ans, x: g * sign(x),           keep=(0,), accepts=SIGNED, doc="""
    Elementwise ``|x|``; its derivative at 0 is 0, as TensorFlow's.

    >>> tf.abs([-1.5, 2.0]).numpy()
    array([1.5, 2. ], dtype=float32)
    """)
sign = unary("sign",     lambda xp, x: xp.sign(x),            _zeros_like_grad,                        accepts=SIGNED, doc="""
    Elementwise sign: -1, 0 or 1.  Its gradient is zero.

    >>> tf.sign([-3.0, 0.0, 2.0]).numpy()
    array([-1.,  0.,  1.], dtype=float32)
    """)
square = unary("square", lambda xp, x: xp.square(x),          lambda g, ans, x: g * (2 * x),           keep=(0,), accepts=NUMBERS, doc="""
    Elementwise ``x * x``.

    >>> tf.square([3.0]).numpy()
    array([9.], dtype=float32)
    """)
sqrt = unary("sqrt",     lambda xp, x: xp.sqrt(x),            lambda g, ans, x: apply(_SQRT_GRAD, (ans, g)), keep=(ANS,), doc="""
    Elementwise square root.  Where the upstream gradient is 0 the gradient is 0
    (not ``0 * inf``), so ``tf.where(x > 0, tf.sqrt(x), 0.)`` differentiates at 0;
    its derivative with respect to that upstream gradient is still ``0.5 / sqrt(x)``.

    >>> tf.sqrt([4.0, 9.0]).numpy()
    array([2., 3.], dtype=float32)
    """)
exp = unary("exp",       lambda xp, x: xp.exp(x),             lambda g, ans, x: g * ans,               keep=(ANS,), doc="""
    Elementwise ``e**x``; its derivative is its own output.

    >>> tf.exp([0.0]).numpy()
    array([1.], dtype=float32)
    """)
log = unary("log",       lambda xp, x: xp.log(x),             lambda g, ans, x: g / x,                 keep=(0,), doc="""
    Elementwise natural logarithm.

    >>> tf.math.log([1.0]).numpy()
    array([0.], dtype=float32)
    """)
log1p = unary("log1p",   lambda xp, x: xp.log1p(x),           lambda g, ans, x: g / (1 + x),           keep=(0,), doc="""
    Elementwise ``log(1 + x)``, accurate for small ``x``.

    >>> tf.math.log1p([0.0]).numpy()
    array([0.], dtype=float32)
    """)
sin = unary("sin",       lambda xp, x: xp.sin(x),             lambda g, ans, x: run(_SIN_GRAD, (x, g)), keep=(0,), doc="""
    Elementwise sine.

    >>> tf.sin([0.0]).numpy()
    array([0.], dtype=float32)
    """)
cos = unary("cos",       lambda xp, x: xp.cos(x),             lambda g, ans, x: run(_COS_GRAD, (x, g)), keep=(0,), doc="""
    Elementwise cosine.

    >>> tf.cos([0.0]).numpy()
    array([1.], dtype=float32)
    """)


def gradient_op(name: str, forward: Callable, of_first: Callable, keep: tuple = (0, 1)) -> Op:
    """A gradient op ``(first, g) -> the gradient``, linear in ``g``, as TF's ``TanhGrad``, ``ReluGrad``...

    ``first`` is what the gradient is computed from (the op's output or input).  The op's VJP for
    ``g`` is the op again, applied to the incoming ``gg``; ``of_first(gg, first, g, **params)`` is
    its VJP for ``first``.  So a second tape differentiates the gradient too.

    >>> from minitape.ops.elementwise import gradient_op
    >>> double = gradient_op("double_grad", lambda xp, y, g: 2 * g, lambda gg, y, g: zeros_like(y))
    >>> apply(double, (tf.constant(1.0), tf.constant(3.0))).numpy()
    np.float32(6.0)
    """
    op = Op(name, forward, (lambda gg, ans, first, g, **params: of_first(gg, first, g, **params),
                            lambda gg, ans, first, g, **params: apply(op, (first, gg), params)), keep=keep)
    return op


# Derivatives that read one value get an op of their own, as TensorFlow's TanhGrad and SigmoidGrad: one
# step in the backward pass instead of two or three.  sin's and cos's too, where TF runs two ops (cos(x),
# then the product): that saves 5% of the scalar chain's instructions per op (callgrind, collector off).
_TANH_GRAD = gradient_op("tanh_grad", tanh_grad_forward, lambda gg, y, g: -2 * gg * g * y)     # g * (1 - y * y)
_SIN_GRAD = gradient_op("sin_grad", lambda xp, x, g: g * xp.cos(x), lambda gg, x, g: -(gg * g * sin(x)))
_COS_GRAD = gradient_op("cos_grad", lambda xp, x, g: -(g * xp.sin(x)), lambda gg, x, g: -(gg * g * cos(x)))
_SIGMOID_GRAD = gradient_op("sigmoid_grad", lambda xp, y, g: g * y * (1 - y), lambda gg, y, g: gg * g * (1 - 2 * y))
# sqrt's, as TF's SqrtGrad: 0 wherever the upstream gradient is 0, even where 0.5 / y is inf.  That
# guard is in the value only: the derivative with respect to g is 0.5 / y everywhere (TF's SqrtGradGrad),
# so d/dc of the gradient of c * sqrt(x) at c = 0 is not lost.
_SQRT_GRAD = Op("sqrt_grad", lambda xp, y, g: xp.where(g == 0, xp.zeros_like(g), 0.5 * g / y),
                (lambda gg, ans, y, g: -(gg / y) * ans, lambda gg, ans, y, g: 0.5 * gg / y), keep=(ANS, 0))


def _tanh_grad(y: Tensor, g: Tensor) -> Tensor:
    """``g * (1 - y²)``: the VJP of tanh, given its output ``y``."""
    return run(_TANH_GRAD, (y, g))


def _sigmoid_grad(y: Tensor, g: Tensor) -> Tensor:
    """``g * y * (1 - y)``: the VJP of sigmoid, given its output ``y``."""
    return run(_SIGMOID_GRAD, (y, g))


tanh = unary("tanh",     lambda xp, x: xp.tanh(x),            lambda g, ans, x: _tanh_grad(ans, g),    keep=(ANS,), doc="""
    Elementwise hyperbolic tangent; its derivative needs only its output.

    >>> tf.tanh([0.0]).numpy()
    array([0.], dtype=float32)
    """)
sigmoid = unary("sigmoid", lambda xp, x: 1 / (1 + xp.exp(-x)), lambda g, ans, x: _sigmoid_grad(ans, g), keep=(ANS,), doc="""
    Elementwise logistic function ``1 / (1 + exp(-x))``.

    >>> tf.sigmoid([0.0]).numpy()
    array([0.5], dtype=float32)
    """)
softplus = unary("softplus", lambda xp, x: xp.logaddexp(0.0, x), lambda g, ans, x: g * sigmoid(x), keep=(0,), argument="features", doc="""
    Elementwise ``log(1 + exp(x))``, computed without overflow.

    >>> tf.math.softplus([0.0]).numpy()
    array([0.6931472], dtype=float32)
    """)
identity = unary("identity", lambda xp, x: x,                 lambda g, ans, x: g,    accepts=Dtypes(dtypes.EVERY, "", ""), argument="input", doc="""
    The same value, as a new tensor (gradients pass straight through).

    >>> tf.identity([1.0]).numpy()
    array([1.], dtype=float32)
    """)
stop_gradient = unary("stop_gradient", lambda xp, x: x,      None,                                    accepts=ANY, argument="input", doc="""
    The same value, but the tape stops here: nothing flows back through it.

    >>> x = tf.constant(2.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = x * tf.stop_gradient(x)
    >>> tape.gradient(y, x).numpy()
    np.float32(2.0)
    """)

add = binary("add",           lambda xp, x, y: x + y,        lambda g, ans, x, y: g,      lambda g, ans, x, y: g, doc="""
    Elementwise ``x + y`` with NumPy broadcasting.

    >>> tf.add([1.0, 2.0], 10.0).numpy()
    array([11., 12.], dtype=float32)
    """)
subtract = binary("subtract", lambda xp, x, y: x - y,   lambda g, ans, x, y: g,      lambda g, ans, x, y: -g, doc="""
    Elementwise ``x - y``.

    >>> tf.subtract(5.0, [1.0, 2.0]).numpy()
    array([4., 3.], dtype=float32)
    """)
multiply = binary("multiply", lambda xp, x, y: x * y,   lambda g, ans, x, y: g * y,  lambda g, ans, x, y: g * x, keep=(0, 1), accepts=ANY, doc="""
    Elementwise ``x * y``.

    >>> tf.multiply([1.0, 2.0], [3.0, 4.0]).numpy()
    array([3., 8.], dtype=float32)
    """)
def _true_divide(xp, x, y):
    if not backends.is_floating(x):         # integers divide as floats, as in TensorFlow
        wide = xp.float32 if x.dtype.itemsize <= 2 else xp.float64
        x, y = xp.astype(x, wide), xp.astype(y, wide)
    return x / y


divide = binary("divide", _true_divide, lambda g, ans, x, y: g / y, lambda g, ans, x, y: g * (-x / y / y), keep=(0, 1),
                accepts=DIVISIBLE, doc="""
    Elementwise ``x / y``.  Integers divide as floats, as in TensorFlow: 8- and 16-bit ones to float32,
    int32 and int64 to float64.

    >>> tf.divide([1.0], [4.0]).numpy()
    array([0.25], dtype=float32)
    """)
pow = binary("pow",  lambda xp, x, y: xp.pow(x, y),
             lambda g, ans, x, y: g * y * x ** (y - 1),
             lambda g, ans, x, y: g * ans * where(x > 0, log(where(x > 0, x, ones_like(x))), zeros_like(x)), keep=(ANS, 0, 1),
             accepts=SIGNED, doc="""
    Elementwise ``x ** y``.  Where ``x <= 0`` its y-gradient is 0 and log sees 1, not x (TF's safe_x): no 0/0 comes back.

    >>> tf.pow([2.0, 3.0], 2.0).numpy()
    array([4., 9.], dtype=float32)
    """)
maximum = binary("maximum", lambda xp, x, y: xp.maximum(x, y),
                 lambda g, ans, x, y: where(x >= y, g, zeros_like(g)),
                 lambda g, ans, x, y: where(x >= y, zeros_like(g), g), keep=(0, 1), doc="""
    Elementwise maximum; on a tie the gradient goes to ``x``.

    >>> tf.maximum([1.0, 5.0], 3.0).numpy()
    array([3., 5.], dtype=float32)
    """)
minimum = binary("minimum", lambda xp, x, y: xp.minimum(x, y),
                 lambda g, ans, x, y: where(x <= y, g, zeros_like(g)),
                 lambda g, ans, x, y: where(x <= y, zeros_like(g), g), keep=(0, 1), doc="""
    Elementwise minimum; on a tie the gradient goes to ``x``.

    >>> tf.minimum([1.0, 5.0], 3.0).numpy()
    array([1., 3.], dtype=float32)
    """)
floordiv = binary("floordiv", nonzero_divisor("floordiv", lambda xp, x, y: xp.floor_divide(x, y)), None, None, doc="""
    Elementwise ``x // y`` (rounding down).  Not differentiable.

    >>> tf.math.floordiv([7.0, -7.0], 2.0).numpy()
    array([ 3., -4.], dtype=float32)
    """)
mod = binary("mod", nonzero_divisor("mod", lambda xp, x, y: xp.remainder(x, y)),
             lambda g, ans, x, y: g, lambda g, ans, x, y: -g * floordiv(x, y), keep=(0, 1), doc="""
    Elementwise remainder of ``x // y``, with the sign of ``y``.

    >>> tf.math.mod([7.0, -7.0], 3.0).numpy()
    array([1., 2.], dtype=float32)
    """)

# --------------------------------------------------------------------------- routing and converting

_WHERE = Op("where", lambda xp, c, x, y: xp.where(c, x, y),
            (None,
             unbroadcasting(lambda g, ans, c, x, y: where(c, g, zeros_like(g)), 1),
             unbroadcasting(lambda g, ans, c, x, y: where(c, zeros_like(g), g), 2)), keep=(0,))


def where(condition: Any, x: Any = None, y: Any = None, name: str | None = None) -> Tensor:
    """``x`` where ``condition`` holds, else ``y`` (broadcasting).  With only a condition, the indices of True.

    The gradient is routed, never multiplied: masked-out positions get exactly 0,
    even where the other branch is ``inf`` or ``nan``.

    >>> tf.where([True, False], [1.0, 2.0], [10.0, 20.0]).numpy()
    array([ 1., 20.], dtype=float32)
    """
    condition = as_operand(condition, "where")
    if condition.dtype is not dtypes.bool_:
        raise InvalidArgumentError(f"where: condition must be bool, got {condition.dtype.name}.")
    if x is None and y is None:
        return apply(_WHERE_INDICES, (condition,))
    if x is None or y is None:
        raise ValueError("where: give both x and y, or neither.")
    x, y = operands("where", x, y)
    try:
        return apply(_WHERE, (condition, x, y))
    except ValueError:
        check_broadcast("where", condition, x, y)
        raise


def _where_indices(xp, condition):
    flat = xp.reshape(condition, (-1,)) if condition.ndim == 0 else condition
    found = xp.stack(xp.nonzero(flat), axis=-1)[:, :condition.ndim]
    return xp.astype(found, xp.int64)


_WHERE_INDICES = Op("where_indices", _where_indices)

_CAST = Op("cast", lambda xp, x, dtype: xp.astype(x, getattr(xp, dtype.name)),
           (lambda g, ans, x, dtype: cast(g, x.dtype) if x.dtype.is_floating else None,))


def cast(x: Any, dtype: Any, name: str | None = None) -> Tensor:
    """``x`` converted to ``dtype``; floats become ints by truncation toward zero.

    >>> tf.cast([1.7, -1.7], tf.int32).numpy()
    array([ 1, -1], dtype=int32)
    """
    x = as_operand(x, "cast")
    target = dtypes.as_dtype(dtype)
    if x.dtype is target:
        return x                    # as TF's cast: the tensor itself, no op (optimizers cast every gradient)
    if dtypes.string in (x.dtype, target):          # TF parses text with tf.strings.to_number, not a cast
        raise UnimplementedError(f"Cast {x.dtype.name} to {target.name} is not supported [Op:Cast]")
    return apply(_CAST, (x,), {"dtype": target})


# A composite, differentiated through its parts

def clip_by_value(t: Any, clip_value_min: Any, clip_value_max: Any, name: str | None = None) -> Tensor:
    """``t`` limited to ``[clip_value_min, clip_value_max]``; the gradient passes where it is inside.

    As TensorFlow, it takes the minimum with the upper bound first, so a lower bound
    above the upper one wins.

    >>> tf.clip_by_value([1.0, 5.0], 2.0, 4.0).numpy()
    array([2., 4.], dtype=float32)
    """
    return maximum(minimum(t, clip_value_max), clip_value_min)     # so each dtype error is TF's, too
