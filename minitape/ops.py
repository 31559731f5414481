"""The op table: every primitive's forward rule beside its derivative.

Each row below declares one primitive:

* a **forward** rule ``forward(xp, *arrays, **params)`` computing the output
  array with the array namespace ``xp`` (NumPy, or another backend);
* one **vector-Jacobian product** per input, ``vjp(g, ans, *inputs, **params)``:
  given ``g``, the gradient of the loss with respect to the output ``ans``, it
  returns the gradient with respect to that input.  VJPs are written with
  minitape's own ops, so when another tape is recording, the derivative is
  itself recorded and can be differentiated again;
* ``keep``: which values the VJP reads (``ANS`` and/or input positions).  The
  tape saves exactly those; every other input is replaced by a
  :class:`Discarded` record of its shape and dtype, so ``tanh`` keeps its
  output, and ``x @ W + b`` never keeps the product ``x @ W``;
* ``residual`` (rare): the forward rule returns ``(output, residual)``, a value
  it worked out on the way that the VJP reads, as TensorFlow's fused kernels
  do.  Sparse cross-entropy keeps ``softmax - one_hot`` this way.

Every op runs through :func:`apply`, the one dispatch point: compute, then
record onto the tapes that follow an input, then tell event listeners.

>>> import minitape as tf
>>> tf.ops.tanh.op
Op('tanh', keep=('ans',))
"""
from __future__ import annotations

import builtins
import collections
import math
import operator
import string
from collections.abc import Callable, Container, Sequence
from typing import Any

import numpy as np

from minitape import backends, dtypes
from minitape.errors import InvalidArgumentError
from minitape.backends import FLOATING, SCALARS, by_type
from minitape.tape import record, state
from minitape.tensor import Tensor, TensorShape, Variable, array_on, constant, next_id, wrap

_new = object.__new__
_value_of = operator.attrgetter("_value")
_id_of = operator.attrgetter("_id")

ANS = "ans"          # in ``keep``: the VJP reads the op's output
INPUTS = "inputs"    # in ``keep``: the VJP reads every input (ops of any arity)
_NO_PARAMS: dict[str, Any] = {}


class Op:
    """A primitive: its forward rule, its VJPs (one per input) and what those VJPs keep."""

    __slots__ = ("name", "forward", "vjps", "variadic", "keep", "keep_ans", "keep_all", "keep_none",
                 "broadcasts", "residual", "differentiable")

    def __init__(self, name: str, forward: Callable, vjps: Sequence[Callable | None] | Callable = (),
                 keep: tuple = (), broadcasts: bool = False, residual: bool = False) -> None:
        self.name = name
        self.forward = forward
        self.vjps = vjps             # a callable instead of a tuple: vjp(k, g, ans, *inputs) for any arity
        self.variadic = callable(vjps)
        self.keep = keep
        self.keep_ans = ANS in keep
        positions = {k for k in keep if k != ANS}
        arity = None if self.variadic else len(vjps)
        self.keep_all = INPUTS in keep or (arity is not None and positions >= set(builtins.range(arity)))
        self.keep_none = not positions
        self.broadcasts = broadcasts  # inputs broadcast against each other: reduce gradients back
        self.residual = residual      # the forward rule returns (output, residual); VJPs get it as `residual`
        self.differentiable = bool(vjps)

    def save(self, inputs: tuple[Tensor, ...]) -> tuple[Tensor | Discarded, ...]:
        """What an entry keeps of its inputs: the tensors the VJPs read, and a :class:`Discarded` for the rest."""
        if self.keep_all:
            return inputs
        if self.keep_none:
            return tuple([Discarded.of(t) for t in inputs])
        return tuple([t if k in self.keep else Discarded.of(t) for k, t in enumerate(inputs)])

    def __repr__(self) -> str:
        return f"Op({self.name!r}, keep={self.keep!r})"


class Discarded(tuple):
    """What a tape remembers of a value its VJP does not need: ``(shape, dtype)``, not the numbers.

    >>> tf.ops.Discarded.of(tf.zeros((2, 3)))
    Discarded(shape=(2, 3), dtype=float32)
    """

    __slots__ = ()

    @staticmethod
    def of(tensor: Tensor) -> "Discarded":
        # Immutable, so one record serves every value of a dtype and shape: recording allocates none.
        # A NumPy scalar's type says it all; arrays get one table per array type, so that dtypes
        # of two libraries never meet in one dict (see dtypes).
        value = tensor._value
        found = _DISCARDED_SCALAR.get(type(value))
        if found is not None:
            return found
        by_shape = _DISCARDED[type(value)][value.dtype]
        shape = value.shape
        found = by_shape.get(shape)
        if found is None:
            found = by_shape[shape] = Discarded((shape, value.dtype))
        return found

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self[0])

    @property
    def dtype(self) -> dtypes.DType:
        return dtypes.as_dtype(self[1])

    @property
    def ndim(self) -> int:
        return len(self[0])

    def __repr__(self) -> str:
        return f"Discarded(shape={self[0]}, dtype={self[1]})"


_DISCARDED: collections.defaultdict = collections.defaultdict(lambda: collections.defaultdict(dict))
_DISCARDED_SCALAR = {kind: Discarded(((), dtype)) for kind, dtype in SCALARS.items()}


class OpEntry(tuple):
    """The tape's record of one op: ``(op, input ids, output ids, ans, saved inputs, params)``.

    A tuple, because the tape makes one per recorded op: building it is a single C call.
    ``ans`` is the output if the VJPs keep it, else its :class:`Discarded` record.
    """

    __slots__ = ()
    op = property(operator.itemgetter(0))
    inputs = property(operator.itemgetter(1))
    outputs = property(operator.itemgetter(2))
    ans = property(operator.itemgetter(3))
    saved = property(operator.itemgetter(4))
    params = property(operator.itemgetter(5))

    @staticmethod
    def make(op: Op, inputs: tuple[Tensor, ...], output: Tensor, params: dict) -> "OpEntry":
        # One or two inputs, the common cases, without a loop: this runs for every recorded op.
        arity = len(inputs)
        if arity == 1:
            ids = (inputs[0]._id,)
            saved = inputs if op.keep_all else (Discarded.of(inputs[0]),)    # one input: kept or not
        elif arity == 2:
            a, b = inputs
            ids = (a._id, b._id)
            saved = inputs if op.keep_all else (Discarded.of(a), Discarded.of(b)) if op.keep_none else op.save(inputs)
        else:
            ids = tuple([t._id for t in inputs])
            saved = inputs if op.keep_all else op.save(inputs)
        return OpEntry((op, ids, (output._id,), output if op.keep_ans else Discarded.of(output), saved, params))

    def backward(self, output_grads: list[Tensor | None], needed: Container[int]) -> list[Tensor | None]:
        op, input_ids, _, ans, saved, params = self
        g, vjps, arity = output_grads[0], op.vjps, len(input_ids)
        if arity == 1 and not params and not op.variadic:      # sin, tanh, exp...: the common case, straight
            return [vjps[0](g, ans, saved[0]) if input_ids[0] in needed and vjps[0] is not None else None]
        grads: list[Tensor | None] = [None] * arity
        for k, i in enumerate(input_ids):
            if i not in needed:
                continue
            if op.variadic:
                grad = vjps(k, g, ans, *saved, **params)
            elif vjps[k] is None:
                continue
            elif params or arity > 2:
                grad = vjps[k](g, ans, *saved, **params)
            elif arity == 2:                # no parameters: no argument tuple to build (the common case)
                grad = vjps[k](g, ans, saved[0], saved[1])
            else:
                grad = vjps[k](g, ans, saved[0])
            if op.broadcasts:
                kept = saved[k]
                shape = kept[0] if type(kept) is Discarded else kept._value.shape
                if grad._value.shape != shape:
                    grad = unbroadcast(grad, shape)
            grads[k] = grad
        return grads

    def residuals(self) -> list[tuple[int | str, Tensor]]:
        op, _, _, ans, saved, params = self
        kept = [(k, t) for k, t in enumerate(saved) if type(t) is Tensor]
        if type(ans) is Tensor:
            kept.append(("output", ans))
        if op.residual:
            kept.append(("residual", params["residual"]))
        return kept

    def kept(self) -> Sequence[Tensor]:
        # Memory accounting reads this for every entry: the common cases build nothing.
        op, _, _, ans, saved, _ = self
        if op.residual:
            return [t for _, t in self.residuals()]
        if op.keep_all:
            return saved + (ans,) if op.keep_ans else saved
        if op.keep_none:
            return (ans,) if op.keep_ans else ()
        return [t for t in saved if type(t) is Tensor] + ([ans] if op.keep_ans else [])

    def __repr__(self) -> str:
        return f"OpEntry({self.op.name}, inputs={self.inputs}, outputs={self.outputs})"


def apply(op: Op, inputs: tuple[Tensor, ...], params: dict = _NO_PARAMS) -> Tensor:
    """Run ``op`` on tensors: the single dispatch point every op goes through."""
    first = inputs[0]._value
    xp = by_type.get(type(first)) or backends.namespace(first)
    # One or two inputs without building an argument tuple: every allocation here brings
    # the garbage collector's next pass closer, on the path every op takes.
    arity = len(inputs)
    if arity == 1:
        value = op.forward(xp, first, **params) if params else op.forward(xp, first)
    elif arity == 2:
        second = inputs[1]._value
        if type(second) is not type(first) and (by_type.get(type(second)) or backends.namespace(second)) is not xp:
            backends.check_same_device(op.name, (first, second))
        value = op.forward(xp, first, second, **params) if params else op.forward(xp, first, second)
    else:
        values = tuple(map(_value_of, inputs))
        if builtins.any(by_type.get(type(v)) is not xp for v in values):
            backends.check_same_device(op.name, values)
        value = op.forward(xp, *values, **params)
    if op.residual:
        value, residual = value
    out = _new(Tensor)                  # Tensor(value) without the call: this is the hot path
    out._value = value
    out._id = next_id()
    tapes = state.tapes
    if tapes and op.differentiable and (type(value) in FLOATING or type(value.dtype) in FLOATING
                                        or backends.is_floating(value)):
        if op.residual:
            params = {**params, "residual": wrap(residual)}
        record(OpEntry.make(op, inputs, out, params), tapes)
    return out


def unbroadcast(grad: Tensor, shape: Sequence[int]) -> Tensor:
    """Sum ``grad`` over the axes that broadcasting added or stretched, back to ``shape``."""
    grad_shape = grad._value.shape
    if grad_shape == shape:
        return grad
    extra = len(grad_shape) - len(shape)
    stretched = (tuple(extra + i for i, n in enumerate(shape) if n == 1 and grad_shape[extra + i] != 1)
                 if 1 in shape else ())
    axis = tuple(builtins.range(extra)) + stretched
    summed = apply(_REDUCTIONS["reduce_sum"], (grad,), {"axis": axis, "keepdims": False})
    return _reshaped(summed, shape) if stretched else summed


# --------------------------------------------------------------------------- operands

def as_operand(value: Any) -> Tensor:
    """A tensor for an op input: tensors pass, variables are read, anything else becomes a constant."""
    if type(value) is Tensor:
        return value
    if isinstance(value, Variable):
        return value.read_value()
    return constant(value)


def _like(value: Any, other: Tensor) -> Tensor:
    """Convert a non-tensor operand to the dtype and device of the tensor it meets (TF's rule)."""
    kind = type(value)
    if kind is Variable:
        return value.read_value()
    array = other._value
    if kind is float or kind is int:
        if by_type.get(type(array)) is np:
            if kind is int or type(array.dtype) in FLOATING:
                return wrap(array.dtype.type(value))    # NumPy's fast path: a scalar, no conversion rules
        elif kind is int or backends.is_floating(array):
            return wrap(backends.full_beside(array, (), value))
    if isinstance(value, Tensor | Variable):
        return as_operand(value)
    backend = backends.backend_of(array)
    try:
        return wrap(array_on(backend, value, dtype=other.dtype))
    except TypeError:
        return wrap(array_on(backend, value))           # then the dtype check names both dtypes


def operands(name: str, *values: Any) -> tuple[Tensor, ...]:
    """Tensors for an elementwise op: non-tensors take the dtype of the first tensor; dtypes must agree."""
    anchor = next((v for v in values if isinstance(v, Tensor | Variable)), None)
    anchor = as_operand(values[0] if anchor is None else anchor)
    tensors = tuple(v if type(v) is Tensor else _like(v, anchor) for v in values)
    if builtins.any(t._value.dtype is not tensors[0]._value.dtype for t in tensors[1:]):
        _agree(name, *tensors)
    return tensors


def pair(name: str, x: Any, y: Any) -> tuple[Tensor, Tensor]:
    """:func:`operands` for two values, the common case, without building generators."""
    if type(x) is Tensor:
        if type(y) is not Tensor:
            y = _like(y, x)
    elif type(y) is Tensor:
        x = _like(x, y)
    else:
        x, y = operands(name, x, y)
    xv, yv = x._value, y._value
    # Two NumPy scalars of one type share their dtype; anything else compares dtypes.
    if (type(xv) is not type(yv) or type(xv) not in SCALARS) and xv.dtype is not yv.dtype:
        _agree(name, x, y)
    return x, y


def _agree(name: str, *tensors: Tensor) -> None:
    """Raise unless the tensors share one device and one dtype: minitape converts neither silently."""
    backends.check_same_device(name, tuple(t._value for t in tensors))
    first = tensors[0].dtype
    k, other = next(((k, t.dtype) for k, t in enumerate(tensors) if t.dtype is not first), (None, None))
    if other is None:
        return
    raise InvalidArgumentError(f"{name}: input {k} is {other.name} but input 0 is {first.name}; minitape never "
                               f"converts silently. Use tf.cast(x, tf.{first.name}) on one of them.")


def _needs_floating(name: str, t: Tensor) -> None:
    if not backends.is_floating(t._value):
        raise InvalidArgumentError(f"{name} needs a floating-point tensor (float16/32/64), got {t.dtype.name}; "
                                   f"use tf.cast(x, tf.float32) first.")


def _quiet(forward: Callable) -> Callable:
    """Silence warnings for division by zero and logs of negatives: inf/nan, as TF gives."""
    def run(xp, *args, **params):
        with backends.quiet():
            return forward(xp, *args, **params)
    return run


# --------------------------------------------------------------------------- building the table

def _document(function: Callable, name: str, op: Op | None, doc: str) -> Callable:
    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    function.op = op
    return function


def unary(name: str, forward: Callable, vjp: Callable | None, keep: tuple = (),
          floating: bool = True, doc: str = "") -> Callable:
    """Declare a one-input elementwise op; returns its public function."""
    op = Op(name, forward, (vjp,) if vjp else (), keep)

    def function(x: Any, name: str | None = None) -> Tensor:
        x = x if type(x) is Tensor else as_operand(x)
        value = x._value
        if floating and type(value) not in FLOATING and type(value.dtype) not in FLOATING:
            _needs_floating(op.name, x)
        return apply(op, (x,))
    return _document(function, name, op, doc)


def binary(name: str, forward: Callable, vjp_x: Callable | None, vjp_y: Callable | None,
           keep: tuple = (), doc: str = "") -> Callable:
    """Declare a two-input elementwise (broadcasting) op; returns its public function."""
    op = Op(name, forward, (vjp_x, vjp_y) if vjp_x or vjp_y else (), keep, broadcasts=True)

    def function(x: Any, y: Any, name: str | None = None) -> Tensor:
        return apply(op, pair(op.name, x, y))
    return _document(function, name, op, doc)


def _zeros_like_grad(g: Tensor, *_: Any) -> Tensor:
    return zeros_like(g)


# --------------------------------------------------------------------------- the table: elementwise
#      name           forward                                  vjp, written with minitape ops          keeps

negative = unary("negative", lambda xp, x: -x,    lambda g, ans, x: -g,                    floating=False, doc="""
    Elementwise ``-x``.

    >>> tf.negative([1.0, -2.0]).numpy()
    array([-1.,  2.], dtype=float32)
    """)
abs = unary("abs",       lambda xp, x: xp.abs(x),             lambda g, ans, x: g * sign(x),           keep=(0,), floating=False, doc="""
    Elementwise ``|x|``; its derivative at 0 is 0, as TensorFlow's.

    >>> tf.abs([-1.5, 2.0]).numpy()
    array([1.5, 2. ], dtype=float32)
    """)
sign = unary("sign",     lambda xp, x: xp.sign(x),            _zeros_like_grad,                        floating=False, doc="""
    Elementwise sign: -1, 0 or 1.  Its gradient is zero.

    >>> tf.sign([-3.0, 0.0, 2.0]).numpy()
    array([-1.,  0.,  1.], dtype=float32)
    """)
square = unary("square", lambda xp, x: xp.square(x),          lambda g, ans, x: g * (2 * x),           keep=(0,), floating=False, doc="""
    Elementwise ``x * x``.

    >>> tf.square([3.0]).numpy()
    array([9.], dtype=float32)
    """)
sqrt = unary("sqrt",     _quiet(lambda xp, x: xp.sqrt(x)),   lambda g, ans, x: _zero_where_g_is_zero(g, 0.5 * g / ans), keep=(ANS,), doc="""
    Elementwise square root.  Where the upstream gradient is 0 the gradient is 0
    (not ``0 * inf``), so ``tf.where(x > 0, tf.sqrt(x), 0.)`` differentiates at 0.

    >>> tf.sqrt([4.0, 9.0]).numpy()
    array([2., 3.], dtype=float32)
    """)
exp = unary("exp",       _quiet(lambda xp, x: xp.exp(x)),    lambda g, ans, x: g * ans,               keep=(ANS,), doc="""
    Elementwise ``e**x``; its derivative is its own output.

    >>> tf.exp([0.0]).numpy()
    array([1.], dtype=float32)
    """)
log = unary("log",       _quiet(lambda xp, x: xp.log(x)),    lambda g, ans, x: g / x,                 keep=(0,), doc="""
    Elementwise natural logarithm.

    >>> tf.math.log([1.0]).numpy()
    array([0.], dtype=float32)
    """)
log1p = unary("log1p",   _quiet(lambda xp, x: xp.log1p(x)),  lambda g, ans, x: g / (1 + x),           keep=(0,), doc="""
    Elementwise ``log(1 + x)``, accurate for small ``x``.

    >>> tf.math.log1p([0.0]).numpy()
    array([0.], dtype=float32)
    """)
sin = unary("sin",       lambda xp, x: xp.sin(x),             lambda g, ans, x: g * cos(x),            keep=(0,), doc="""
    Elementwise sine.

    >>> tf.sin([0.0]).numpy()
    array([0.], dtype=float32)
    """)
cos = unary("cos",       lambda xp, x: xp.cos(x),             lambda g, ans, x: -(g * sin(x)),         keep=(0,), doc="""
    Elementwise cosine.

    >>> tf.cos([0.0]).numpy()
    array([1.], dtype=float32)
    """)
tanh = unary("tanh",     lambda xp, x: xp.tanh(x),            lambda g, ans, x: _tanh_grad(ans, g),    keep=(ANS,), doc="""
    Elementwise hyperbolic tangent; its derivative needs only its output.

    >>> tf.tanh([0.0]).numpy()
    array([0.], dtype=float32)
    """)
sigmoid = unary("sigmoid", _quiet(lambda xp, x: 1 / (1 + xp.exp(-x))), lambda g, ans, x: _sigmoid_grad(ans, g), keep=(ANS,), doc="""
    Elementwise logistic function ``1 / (1 + exp(-x))``.

    >>> tf.sigmoid([0.0]).numpy()
    array([0.5], dtype=float32)
    """)
softplus = unary("softplus", lambda xp, x: xp.logaddexp(0.0, x), lambda g, ans, x: g * sigmoid(x), keep=(0,), doc="""
    Elementwise ``log(1 + exp(x))``, computed without overflow.

    >>> tf.math.softplus([0.0]).numpy()
    array([0.6931472], dtype=float32)
    """)
relu = unary("relu",     lambda xp, x: xp.maximum(x, 0), lambda g, ans, x: where(ans > 0, g, zeros_like(g)), keep=(ANS,), floating=False, doc="""
    Elementwise ``max(x, 0)``; its derivative at 0 is 0.

    >>> tf.nn.relu([-1.0, 2.0]).numpy()
    array([0., 2.], dtype=float32)
    """)
identity = unary("identity", lambda xp, x: x,                 lambda g, ans, x: g,                     floating=False, doc="""
    The same value, as a new tensor (gradients pass straight through).

    >>> tf.identity([1.0]).numpy()
    array([1.], dtype=float32)
    """)
stop_gradient = unary("stop_gradient", lambda xp, x: x,      None,                                    floating=False, doc="""
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
multiply = binary("multiply", lambda xp, x, y: x * y,   lambda g, ans, x, y: g * y,  lambda g, ans, x, y: g * x, keep=(0, 1), doc="""
    Elementwise ``x * y``.

    >>> tf.multiply([1.0, 2.0], [3.0, 4.0]).numpy()
    array([3., 8.], dtype=float32)
    """)
def _true_divide(xp, x, y):
    if not backends.is_floating(x):         # integers divide to float64, as in TensorFlow
        x, y = xp.astype(x, xp.float64), xp.astype(y, xp.float64)
    return x / y


divide = binary("divide", _quiet(_true_divide), lambda g, ans, x, y: g / y, lambda g, ans, x, y: g * (-x / y / y), keep=(0, 1), doc="""
    Elementwise ``x / y``.  Integers divide to float64, as in TensorFlow.

    >>> tf.divide([1.0], [4.0]).numpy()
    array([0.25], dtype=float32)
    """)
pow = binary("pow",  _quiet(lambda xp, x, y: xp.pow(x, y)),
             lambda g, ans, x, y: g * y * x ** (y - 1),
             lambda g, ans, x, y: g * ans * where(x > 0, log(x), zeros_like(x)), keep=(ANS, 0, 1), doc="""
    Elementwise ``x ** y``.

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
floordiv = binary("floordiv", _quiet(lambda xp, x, y: xp.floor_divide(x, y)), None, None, doc="""
    Elementwise ``x // y`` (rounding down).  Not differentiable.

    >>> tf.math.floordiv([7.0, -7.0], 2.0).numpy()
    array([ 3., -4.], dtype=float32)
    """)
mod = binary("mod", _quiet(lambda xp, x, y: xp.remainder(x, y)),
             lambda g, ans, x, y: g, lambda g, ans, x, y: -g * floordiv(x, y), keep=(0, 1), doc="""
    Elementwise remainder of ``x // y``, with the sign of ``y``.

    >>> tf.math.mod([7.0, -7.0], 3.0).numpy()
    array([1., 2.], dtype=float32)
    """)

# Comparisons and logic produce booleans: no gradient, never recorded.
equal = binary("equal", lambda xp, x, y: xp.equal(x, y), None, None, doc="""
    Elementwise ``x == y``.

    >>> tf.equal([1.0, 2.0], 2.0).numpy()
    array([False,  True])
    """)
not_equal = binary("not_equal", lambda xp, x, y: xp.not_equal(x, y), None, None, doc="""
    Elementwise ``x != y``.

    >>> tf.not_equal([1.0, 2.0], 2.0).numpy()
    array([ True, False])
    """)
less = binary("less", lambda xp, x, y: xp.less(x, y), None, None, doc="""
    Elementwise ``x < y``.

    >>> tf.less([1.0, 2.0], 2.0).numpy()
    array([ True, False])
    """)
less_equal = binary("less_equal", lambda xp, x, y: xp.less_equal(x, y), None, None, doc="""
    Elementwise ``x <= y``.

    >>> tf.less_equal([1.0, 2.0], 2.0).numpy()
    array([ True,  True])
    """)
greater = binary("greater", lambda xp, x, y: xp.greater(x, y), None, None, doc="""
    Elementwise ``x > y``.

    >>> tf.greater([1.0, 2.0], 1.0).numpy()
    array([False,  True])
    """)
greater_equal = binary("greater_equal", lambda xp, x, y: xp.greater_equal(x, y), None, None, doc="""
    Elementwise ``x >= y``.

    >>> tf.greater_equal([1.0, 2.0], 2.0).numpy()
    array([False,  True])
    """)
logical_and = binary("logical_and", lambda xp, x, y: xp.logical_and(x, y), None, None, doc="""
    Elementwise ``x and y`` of booleans.

    >>> tf.math.logical_and([True, True], [True, False]).numpy()
    array([ True, False])
    """)
logical_or = binary("logical_or", lambda xp, x, y: xp.logical_or(x, y), None, None, doc="""
    Elementwise ``x or y`` of booleans.

    >>> tf.math.logical_or([False, True], [False, False]).numpy()
    array([False,  True])
    """)
logical_not = unary("logical_not", lambda xp, x: xp.logical_not(x), None, floating=False, doc="""
    Elementwise ``not x`` of booleans.

    >>> tf.math.logical_not([True]).numpy()
    array([False])
    """)


# Derivatives that read only the output get an op of their own, as TensorFlow's TanhGrad and
# SigmoidGrad: one step in the backward pass instead of three.  Each is a primitive with its own
# VJPs, so a second tape can still differentiate it.
_TANH_GRAD = Op("tanh_grad", lambda xp, y, g: g * (1 - y * y),
                (lambda gg, ans, y, g: -2 * gg * g * y, lambda gg, ans, y, g: _tanh_grad(y, gg)), keep=(0, 1))
_SIGMOID_GRAD = Op("sigmoid_grad", lambda xp, y, g: g * y * (1 - y),
                   (lambda gg, ans, y, g: gg * g * (1 - 2 * y), lambda gg, ans, y, g: _sigmoid_grad(y, gg)), keep=(0, 1))


def _tanh_grad(y: Tensor, g: Tensor) -> Tensor:
    """``g * (1 - y²)``: the VJP of tanh, given its output ``y``."""
    return apply(_TANH_GRAD, (y, g))


def _sigmoid_grad(y: Tensor, g: Tensor) -> Tensor:
    """``g * y * (1 - y)``: the VJP of sigmoid, given its output ``y``."""
    return apply(_SIGMOID_GRAD, (y, g))


def _zero_where_g_is_zero(g: Tensor, grad: Tensor) -> Tensor:
    # TF's sqrt gradient is 0 wherever the upstream gradient is 0, even where 1/sqrt(x) is inf.
    return where(g == 0, zeros_like(grad), grad)


# --------------------------------------------------------------------------- ops with parameters

_WHERE = Op("where", lambda xp, c, x, y: xp.where(c, x, y),
            (None,
             lambda g, ans, c, x, y: where(c, g, zeros_like(g)),
             lambda g, ans, c, x, y: where(c, zeros_like(g), g)), keep=(0,), broadcasts=True)


def where(condition: Any, x: Any = None, y: Any = None, name: str | None = None) -> Tensor:
    """``x`` where ``condition`` holds, else ``y`` (broadcasting).  With only a condition, the indices of True.

    The gradient is routed, never multiplied: masked-out positions get exactly 0,
    even where the other branch is ``inf`` or ``nan``.

    >>> tf.where([True, False], [1.0, 2.0], [10.0, 20.0]).numpy()
    array([ 1., 20.], dtype=float32)
    """
    condition = as_operand(condition)
    if condition.dtype is not dtypes.bool_:
        raise InvalidArgumentError(f"where: condition must be bool, got {condition.dtype.name}.")
    if x is None and y is None:
        return apply(_WHERE_INDICES, (condition,))
    if x is None or y is None:
        raise ValueError("where: give both x and y, or neither.")
    x, y = operands("where", x, y)
    return apply(_WHERE, (condition, x, y))


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
    x = as_operand(x)
    target = dtypes.as_dtype(dtype)
    if x.dtype is target:
        return identity(x)
    return apply(_CAST, (x,), {"dtype": target})


def _matmul_forward(xp, a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        a = a.mT                    # the standard's matrix transpose: a view, not a copy
    if transpose_b:
        b = b.mT
    return xp.matmul(a, b)


def _matmul_vjp_a(g, ans, a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        return _product(b, g, transpose_a=transpose_b, transpose_b=True)
    return _product(g, b, transpose_b=not transpose_b)


def _matmul_vjp_b(g, ans, a, b, transpose_a=False, transpose_b=False):
    if transpose_b:
        return _product(g, a, transpose_a=True, transpose_b=transpose_a)
    return _product(a, g, transpose_a=not transpose_a)


_MATMUL = Op("matmul", _matmul_forward, (_matmul_vjp_a, _matmul_vjp_b), keep=(0, 1), broadcasts=True)


def matmul(a: Any, b: Any, transpose_a: bool = False, transpose_b: bool = False, name: str | None = None) -> Tensor:
    """Matrix product of the last two axes (leading axes broadcast as batch axes).

    >>> tf.matmul([[1.0, 2.0]], [[3.0], [4.0]]).numpy()
    array([[11.]], dtype=float32)
    """
    a, b = pair("matmul", a, b)
    shape_a, shape_b = a._value.shape, b._value.shape
    for k, shape in enumerate((shape_a, shape_b)):
        if len(shape) < 2:
            raise InvalidArgumentError(f"matmul: input {k} must have rank >= 2, got shape {tuple(shape)}; "
                                       f"use tf.reshape or tf.expand_dims to make it a matrix.")
    inner_a = shape_a[-2] if transpose_a else shape_a[-1]
    inner_b = shape_b[-1] if transpose_b else shape_b[-2]
    if inner_a != inner_b:
        raise InvalidArgumentError(f"matmul: shapes {tuple(shape_a)} and {tuple(shape_b)} do not match "
                                   f"(inner dimensions {inner_a} vs {inner_b}).")
    return _product(a, b, transpose_a, transpose_b)


def _product(a: Tensor, b: Tensor, transpose_a: bool = False, transpose_b: bool = False) -> Tensor:
    """The matmul primitive on tensors known to fit: what ``matmul`` runs once it has checked, and VJPs run."""
    # Plain products, the common case, carry no parameters: the rules' defaults say "no transpose".
    flags = {"transpose_a": transpose_a, "transpose_b": transpose_b} if transpose_a or transpose_b else _NO_PARAMS
    return apply(_MATMUL, (a, b), flags)


# ---- shapes

_RESHAPE = Op("reshape", lambda xp, x, shape: xp.reshape(x, shape), (lambda g, ans, x, shape: _reshaped(g, x.shape),))


def _reshaped(x: Tensor, shape: Sequence[int]) -> Tensor:
    """The reshape primitive for a shape known to fit (derivatives use it: no checks to pay)."""
    return apply(_RESHAPE, (x,), {"shape": tuple(shape)})


def reshape(tensor: Any, shape: Any, name: str | None = None) -> Tensor:
    """The same values in a new shape (one dimension may be -1).

    >>> tf.reshape(tf.range(6), (2, 3)).shape
    TensorShape([2, 3])
    """
    x = as_operand(tensor)
    shape = _shape(shape)
    size = _count(x, builtins.range(x.ndim))
    known = math.prod(n for n in shape if n != -1)
    unknown = shape.count(-1)
    fits = (unknown == 0 and known == size) or (unknown == 1 and known > 0 and size % known == 0)
    if not fits:
        raise InvalidArgumentError(f"reshape: cannot reshape a tensor of shape {tuple(x.shape)} "
                                   f"({size} values) to {shape}.")
    return apply(_RESHAPE, (x,), {"shape": shape})


def _inverse(perm: tuple[int, ...]) -> tuple[int, ...]:
    """The permutation that undoes ``perm``."""
    return tuple(sorted(builtins.range(len(perm)), key=perm.__getitem__))


_TRANSPOSE = Op("transpose", lambda xp, x, perm: xp.permute_dims(x, perm),
                (lambda g, ans, x, perm: transpose(g, _inverse(perm)),))


def transpose(a: Any, perm: Any = None, name: str | None = None) -> Tensor:
    """Permute the axes (default: reverse them).

    >>> tf.transpose([[1.0, 2.0]]).shape
    TensorShape([2, 1])
    """
    x = as_operand(a)
    perm = tuple(reversed(builtins.range(x.ndim))) if perm is None else tuple(int(p) for p in _plain(perm))
    if sorted(perm) != list(builtins.range(x.ndim)):
        raise InvalidArgumentError(f"transpose: perm {perm} is not a permutation of the {x.ndim} axes.")
    return apply(_TRANSPOSE, (x,), {"perm": perm})


def squeeze(input: Any, axis: Any = None, name: str | None = None) -> Tensor:
    """Remove axes of length 1 (all of them, or those in ``axis``).

    >>> tf.squeeze(tf.ones((1, 2, 1))).shape
    TensorShape([2])
    """
    x = as_operand(input)
    axes = builtins.range(x.ndim) if axis is None else _axes(axis, x.ndim, "squeeze")
    if axis is not None and any(x.shape[a] != 1 for a in axes):
        raise InvalidArgumentError(f"squeeze: cannot squeeze axis {axis} of shape {tuple(x.shape)}: its size is not 1.")
    return reshape(x, tuple(n for a, n in enumerate(x.shape) if not (a in axes and n == 1)))


def expand_dims(input: Any, axis: int, name: str | None = None) -> Tensor:
    """Insert an axis of length 1 at ``axis``.

    >>> tf.expand_dims([1.0, 2.0], 0).shape
    TensorShape([1, 2])
    """
    x = as_operand(input)
    (position,) = _axes(axis, x.ndim + 1, "expand_dims")
    shape = list(x.shape)
    shape.insert(position, 1)
    return reshape(x, shape)


_BROADCAST_TO = Op("broadcast_to", lambda xp, x, shape: xp.broadcast_to(x, shape),
                   (lambda g, ans, x, shape: unbroadcast(g, x.shape),))


def broadcast_to(input: Any, shape: Any, name: str | None = None) -> Tensor:
    """``input`` repeated along new or length-1 axes to ``shape``.

    >>> tf.broadcast_to([1.0, 2.0], (3, 2)).shape
    TensorShape([3, 2])
    """
    x = as_operand(input)
    shape = _shape(shape)
    try:
        np.broadcast_shapes(tuple(x.shape), shape)
    except ValueError:
        raise InvalidArgumentError(f"broadcast_to: cannot broadcast shape {tuple(x.shape)} to {shape}.") from None
    return apply(_BROADCAST_TO, (x,), {"shape": shape})


def _tile_vjp(g, ans, x, multiples):
    interleaved = [n for pair in zip(multiples, x.shape) for n in pair]
    return reduce_sum(reshape(g, interleaved), axis=tuple(builtins.range(0, 2 * len(multiples), 2)))


_TILE = Op("tile", lambda xp, x, multiples: xp.tile(x, multiples), (_tile_vjp,))


def tile(input: Any, multiples: Any, name: str | None = None) -> Tensor:
    """Repeat ``input`` ``multiples[i]`` times along axis ``i``.

    >>> tf.tile([[1.0, 2.0]], [2, 1]).numpy()
    array([[1., 2.],
           [1., 2.]], dtype=float32)
    """
    x = as_operand(input)
    multiples = tuple(int(m) for m in _plain(multiples))
    if len(multiples) != x.ndim:
        raise InvalidArgumentError(f"tile: multiples has length {len(multiples)} but the input has rank {x.ndim}.")
    return apply(_TILE, (x,), {"multiples": multiples})


def _concat_vjp(k, g, ans, *values, axis):
    start = builtins.sum(v.shape[axis] for v in values[:k])
    return _slice_along(g, axis, start, start + values[k].shape[axis])


_CONCAT = Op("concat", lambda xp, *values, axis: xp.concat(values, axis=axis), _concat_vjp)


def concat(values: Sequence[Any], axis: int, name: str | None = None) -> Tensor:
    """Join tensors along an existing axis.

    >>> tf.concat([[1.0], [2.0, 3.0]], axis=0).numpy()
    array([1., 2., 3.], dtype=float32)
    """
    tensors = operands("concat", *values)
    (axis,) = _axes(axis, tensors[0].ndim, "concat")
    return apply(_CONCAT, tensors, {"axis": axis})


_STACK = Op("stack", lambda xp, *values, axis: xp.stack(values, axis=axis),
            lambda k, g, ans, *values, axis: getitem(g, (slice(None),) * axis + (k,)))


def stack(values: Sequence[Any], axis: int = 0, name: str | None = None) -> Tensor:
    """Join same-shaped tensors along a new axis.

    >>> tf.stack([[1.0, 2.0], [3.0, 4.0]], axis=1).numpy()
    array([[1., 3.],
           [2., 4.]], dtype=float32)
    """
    tensors = operands("stack", *values)
    shapes = {tuple(t.shape) for t in tensors}
    if len(shapes) > 1:
        raise InvalidArgumentError(f"stack: all values must have the same shape, got {sorted(shapes)}.")
    (axis,) = _axes(axis, tensors[0].ndim + 1, "stack")
    return apply(_STACK, tensors, {"axis": axis})


# ---- indexing

def _gather_forward(xp, x, indices, axis):
    # The standard's take wants 1-d indices: take them flat, then give them their shape back.
    taken = xp.take(x, backends.asarray_beside(x, indices.reshape(-1)), axis=axis)
    return xp.reshape(taken, x.shape[:axis] + indices.shape + x.shape[axis + 1:])


def _scatter_forward(xp, g, indices, shape, axis):
    """Zeros of ``shape`` plus the slices of ``g`` at ``indices`` along ``axis``; repeated indices add up."""
    flat = indices.reshape(-1)
    rows = xp.reshape(g, (math.prod(shape[:axis]), flat.size, math.prod(shape[axis + 1:])))
    if hasattr(getattr(xp, "add", None), "at"):         # NumPy and CuPy sum repeated indices in place
        out = backends.full_beside(g, (rows.shape[0], shape[axis], rows.shape[2]), 0)
        xp.add.at(out, (slice(None), backends.asarray_beside(g, flat)), rows)
    else:                                               # the standard has no scatter: a one-hot product
        hits = backends.asarray_beside(g, flat[:, None] == np.arange(shape[axis]))
        out = xp.matmul(xp.matrix_transpose(xp.astype(hits, g.dtype)), rows)
    return xp.reshape(out, shape)


_GATHER = Op("gather", _gather_forward,
             (lambda g, ans, x, indices, axis: _apply_scatter(g, indices, x.shape, axis),))
_SCATTER = Op("scatter_add", _scatter_forward,
              (lambda g, ans, u, indices, shape, axis: apply(_GATHER, (g,), {"indices": indices, "axis": axis}),))


def _apply_scatter(g: Tensor, indices: Any, shape: tuple, axis: int) -> Tensor:
    return apply(_SCATTER, (g,), {"indices": indices, "shape": tuple(shape), "axis": axis})


def gather(params: Any, indices: Any, axis: int = 0, name: str | None = None) -> Tensor:
    """The slices of ``params`` at ``indices`` along ``axis``; repeated indices sum their gradients.

    >>> tf.gather([10.0, 20.0, 30.0], [2, 0]).numpy()
    array([30., 10.], dtype=float32)
    """
    x = as_operand(params)
    (axis,) = _axes(axis, x.ndim, "gather")
    index_array = np.asarray(_plain(indices))      # indices are kept on the host, checked there
    if index_array.dtype.kind not in "iu":
        raise InvalidArgumentError(f"gather: indices must be integers, got {index_array.dtype}.")
    if index_array.size and (index_array.min() < 0 or index_array.max() >= x.shape[axis]):
        raise InvalidArgumentError(f"gather: indices {index_array.tolist()} out of range [0, {x.shape[axis]}) "
                                   f"for axis {axis} of shape {tuple(x.shape)}.")
    return apply(_GATHER, (x,), {"indices": index_array, "axis": axis})


def _ungetitem_forward(xp, g, key, shape):
    """Zeros of ``shape`` with ``g`` written where ``x[key]`` read (a basic key reads each place once)."""
    out = backends.full_beside(g, shape, 0)
    place = tuple(k for k in key if k is not None)      # None adds an axis to g that out does not have
    out[place] = xp.reshape(g, out[place].shape)
    return out


_GETITEM = Op("getitem", lambda xp, x, key: x[key],
              (lambda g, ans, x, key: apply(_UNGETITEM, (g,), {"key": key, "shape": tuple(x.shape)}),))
_UNGETITEM = Op("ungetitem", _ungetitem_forward, (lambda g, ans, u, key, shape: getitem(g, key),))


def getitem(tensor: Any, key: Any) -> Tensor:
    """``tensor[key]`` with ints, slices, ``...`` and ``None``; the gradient flows back into the slice.

    >>> tf.constant([[1.0, 2.0], [3.0, 4.0]])[:, 1].numpy()
    array([2., 4.], dtype=float32)
    >>> tf.constant([1.0, 2.0])[[0, 1]]
    Traceback (most recent call last):
    ...
    TypeError: Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar tf.int32/tf.int64 tensors are valid indices, got [0, 1]; use tf.gather to pick by a list of indices.
    """
    x = as_operand(tensor)
    parts = tuple(_index(k) for k in (key if isinstance(key, tuple) else (key,)))
    if not builtins.any(k is Ellipsis for k in parts):
        parts += (Ellipsis,)        # the standard does not fill in the trailing axes by itself
    try:
        x._value[parts]
    except (IndexError, TypeError, ValueError) as error:
        raise InvalidArgumentError(f"Index {key!r} is not valid for a tensor of shape {tuple(x.shape)}: {error}") from None
    return apply(_GETITEM, (x,), {"key": parts})


def _index(k: Any) -> Any:
    """One part of a key, as plain Python: TF's basic indices only (no lists, no masks)."""
    if k is None or k is Ellipsis:
        return k
    if isinstance(k, slice):
        return slice(*(None if v is None else _index(v) for v in (k.start, k.stop, k.step)))
    k = _plain(k)
    if isinstance(k, bool | np.bool_) or not (isinstance(k, int | np.integer) or
                                                (isinstance(k, np.ndarray) and k.ndim == 0 and k.dtype.kind in "iu")):
        raise TypeError(f"Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
                        f"tf.int32/tf.int64 tensors are valid indices, got {k!r}; use tf.gather to pick by a "
                        f"list of indices.")
    return int(k)


def _slice_along(x: Tensor, axis: int, start: int, stop: int) -> Tensor:
    return getitem(x, (slice(None),) * axis + (slice(start, stop),))


# ---- reductions

def _keepdims_shape(shape: tuple, axis: tuple) -> tuple:
    return tuple(1 if a in axis else n for a, n in enumerate(shape))


def _spread(g: Tensor, x: Any, axis: tuple) -> Tensor:
    """A reduced gradient broadcast back over the reduced axes of ``x``."""
    shape = tuple(x.shape)
    # Broadcasting puts missing axes in front, so only reduced axes after a kept one need their 1s back.
    if g._value.ndim != len(shape) and axis != tuple(builtins.range(len(axis))):
        g = _reshaped(g, _keepdims_shape(shape, axis))
    return apply(_BROADCAST_TO, (g,), {"shape": shape})


def _mean_forward(xp, x, axis, keepdims):
    if backends.is_floating(x):
        return xp.mean(x, axis=axis, keepdims=keepdims)
    return xp.sum(x, axis=axis, keepdims=keepdims) // builtins.max(1, _count(x.shape, axis))


def _extreme_vjp(g, ans, x, axis, keepdims):
    hits = cast(equal(x, _spread(ans, x, axis)), g.dtype)       # ties share the gradient equally
    return _spread(g, x, axis) * hits / _spread(reduce_sum(hits, axis=axis), x, axis)


def _prod_vjp(g, ans, x, axis, keepdims):
    # d(prod)/dx_i is the product of the *other* entries: computed exactly, without dividing by x_i.
    rest = tuple(a for a in builtins.range(x.ndim) if a not in axis)
    moved = transpose(x, rest + axis)
    n = _count(x, axis)
    flat = reshape(moved, tuple(x.shape[a] for a in rest) + (1, n))
    others = reduce_prod(where(eye(n, dtype=dtypes.bool_), ones_like(flat), flat), axis=-1)
    others = transpose(reshape(others, tuple(moved.shape)), _inverse(rest + axis))
    return _spread(g, x, axis) * others


_REDUCTIONS = {
    "reduce_sum": Op("reduce_sum", lambda xp, x, axis, keepdims: xp.sum(x, axis=axis, keepdims=keepdims),
                     (lambda g, ans, x, axis, keepdims: _spread(g, x, axis),)),
    "reduce_mean": Op("reduce_mean", _mean_forward,
                      (lambda g, ans, x, axis, keepdims: _spread(g / _count(x, axis), x, axis),)),
    "reduce_max": Op("reduce_max", lambda xp, x, axis, keepdims: xp.max(x, axis=axis, keepdims=keepdims),
                     (_extreme_vjp,), keep=(ANS, 0)),
    "reduce_min": Op("reduce_min", lambda xp, x, axis, keepdims: xp.min(x, axis=axis, keepdims=keepdims),
                     (_extreme_vjp,), keep=(ANS, 0)),
    "reduce_prod": Op("reduce_prod", lambda xp, x, axis, keepdims: xp.prod(x, axis=axis, keepdims=keepdims),
                      (_prod_vjp,), keep=(0,)),
}


def _count(x: Any, axis: Sequence[int]) -> int:
    """How many values the ``axis`` of ``x`` (a tensor, or a plain shape) hold together."""
    shape = tuple(x.shape) if hasattr(x, "shape") else x
    return math.prod(shape[a] for a in axis)


def _reduce(name: str, input_tensor: Any, axis: Any, keepdims: bool) -> Tensor:
    x = as_operand(input_tensor)
    axes = tuple(builtins.range(x.ndim)) if axis is None else tuple(sorted(set(_axes(axis, x.ndim, name))))
    if name in ("reduce_max", "reduce_min") and 0 in [x.shape[a] for a in axes]:
        raise InvalidArgumentError(f"{name}: cannot reduce an empty axis of shape {tuple(x.shape)}.")
    return apply(_REDUCTIONS[name], (x,), {"axis": axes, "keepdims": bool(keepdims)})


def reduce_sum(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None) -> Tensor:
    """Sum over ``axis`` (all axes by default).

    >>> tf.reduce_sum([[1.0, 2.0], [3.0, 4.0]], axis=0).numpy()
    array([4., 6.], dtype=float32)
    """
    return _reduce("reduce_sum", input_tensor, axis, keepdims)


def reduce_mean(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None) -> Tensor:
    """Mean over ``axis`` (integers give the truncated integer mean, as TF).

    >>> tf.reduce_mean([[1.0, 2.0], [3.0, 4.0]], axis=1, keepdims=True).numpy()
    array([[1.5],
           [3.5]], dtype=float32)
    """
    return _reduce("reduce_mean", input_tensor, axis, keepdims)


def reduce_max(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None) -> Tensor:
    """Maximum over ``axis``; tied maxima share the gradient equally.

    >>> tf.reduce_max([1.0, 3.0, 3.0]).numpy()
    np.float32(3.0)
    """
    return _reduce("reduce_max", input_tensor, axis, keepdims)


def reduce_min(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None) -> Tensor:
    """Minimum over ``axis``; tied minima share the gradient equally.

    >>> tf.reduce_min([[1.0, 3.0]], axis=1).numpy()
    array([1.], dtype=float32)
    """
    return _reduce("reduce_min", input_tensor, axis, keepdims)


def reduce_prod(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None) -> Tensor:
    """Product over ``axis``; the gradient is exact even where entries are 0.

    >>> tf.reduce_prod([2.0, 3.0, 4.0]).numpy()
    np.float32(24.0)
    """
    return _reduce("reduce_prod", input_tensor, axis, keepdims)


# ---- softmax: the normalised exponential and its logarithm

def _softmax_forward(xp, x, axis):
    e = xp.exp(x - xp.max(x, axis=axis, keepdims=True))
    return e / xp.sum(e, axis=axis, keepdims=True)


def _log_softmax_forward(xp, x, axis):
    shifted = x - xp.max(x, axis=axis, keepdims=True)
    return shifted - xp.log(xp.sum(xp.exp(shifted), axis=axis, keepdims=True))


def _softmax_vjp(g: Tensor, probabilities: Tensor, axis: Any) -> Tensor:
    """``s · (g - sum(g · s))``: the VJP of softmax, given its output ``s``."""
    return probabilities * (g - reduce_sum(g * probabilities, axis=axis, keepdims=True))


_SOFTMAX = Op("softmax", _softmax_forward, (lambda g, ans, x, axis: _softmax_vjp(g, ans, axis),), keep=(ANS,))
_LOG_SOFTMAX = Op("log_softmax", _log_softmax_forward,
                  (lambda g, ans, x, axis: g - exp(ans) * reduce_sum(g, axis=axis, keepdims=True),), keep=(ANS,))


def softmax(logits: Any, axis: int = -1, name: str | None = None) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``axis``, computed without overflow.

    >>> tf.nn.softmax([0.0, 0.0]).numpy()
    array([0.5, 0.5], dtype=float32)
    """
    x = as_operand(logits)
    _needs_floating("softmax", x)
    return apply(_SOFTMAX, (x,), {"axis": _axes(axis, x.ndim, "softmax")})


def log_softmax(logits: Any, axis: int = -1, name: str | None = None) -> Tensor:
    """``log(softmax(x))`` along ``axis``, computed stably.

    >>> tf.nn.log_softmax([0.0, 0.0]).numpy()
    array([-0.6931472, -0.6931472], dtype=float32)
    """
    x = as_operand(logits)
    _needs_floating("log_softmax", x)
    return apply(_LOG_SOFTMAX, (x,), {"axis": _axes(axis, x.ndim, "log_softmax")})


# d/dlogits of -log softmax(logits)[label] is softmax(logits) - one_hot(label).  As TF's fused
# kernel does, the forward rule works that out on its way to the loss and leaves it as its residual,
# the "backprop": the backward step is then one multiplication, an op of its own.
def _sparse_xent_forward(xp, logits, labels):
    # -log softmax(logits)[label] = log(sum(exp(shifted))) - shifted[label], shifted by the row's max.
    shifted = logits - xp.max(logits, axis=-1, keepdims=True)
    exp = xp.exp(shifted)
    total = xp.sum(exp, axis=-1, keepdims=True)
    loss = xp.log(total[..., 0]) - xp.take_along_axis(shifted, labels[..., None], axis=-1)[..., 0]
    return loss, exp / total - xp.astype(_hot(xp, labels, logits.shape[-1]), logits.dtype)


def _sparse_xent_vjp(g, ans, logits, labels, residual):
    return apply(_SPARSE_XENT_GRAD, (logits, g, residual), {"labels": labels})


_SPARSE_XENT = Op("sparse_softmax_cross_entropy", _sparse_xent_forward, (_sparse_xent_vjp,), keep=(0,),
                  residual=True)


# g · backprop, with the logits beside it: a second tape differentiates it through the logits.
# Its VJPs rebuild softmax - one_hot from the logits with minitape ops rather than read the
# backprop, a bare value: a third tape must see how that, too, depends on the logits.
def _sparse_xent_grad_vjp_logits(gg, ans, logits, g, backprop, labels):
    return _softmax_vjp(gg * expand_dims(g, -1), softmax(logits), -1)


def _sparse_xent_grad_vjp_g(gg, ans, logits, g, backprop, labels):
    return reduce_sum(gg * (softmax(logits) - one_hot(wrap(labels), logits.shape[-1], dtype=logits.dtype)), axis=-1)


_SPARSE_XENT_GRAD = Op("sparse_softmax_cross_entropy_grad",
                       lambda xp, logits, g, backprop, labels: g[..., None] * backprop,
                       (_sparse_xent_grad_vjp_logits, _sparse_xent_grad_vjp_g, None), keep=(0, 1))


def sparse_softmax_cross_entropy(logits: Tensor, labels: Any) -> Tensor:
    """``-log softmax(logits)[labels]`` per example, as one primitive (see :mod:`minitape.nn`).

    ``labels`` is an integer array of the logits' backend, checked by the caller.
    """
    return apply(_SPARSE_XENT, (logits,), {"labels": labels})


def _hot(xp, indices, depth):
    """True where a position of the new last axis equals the index: a boolean one-hot."""
    classes = xp.arange(depth, dtype=indices.dtype, device=backends.device_of(indices))
    return indices[..., None] == classes


def _one_hot_forward(xp, indices, depth, dtype):
    return xp.astype(_hot(xp, indices, depth), getattr(xp, dtype.name))


_ONE_HOT = Op("one_hot", _one_hot_forward)


def one_hot(indices: Any, depth: int, on_value: Any = None, off_value: Any = None, axis: int | None = None,
            dtype: Any = None, name: str | None = None) -> Tensor:
    """Each index as a row of ``depth`` values: ``on_value`` (1) at the index, ``off_value`` (0) elsewhere.

    Indices outside ``[0, depth)`` give a row of ``off_value``, as TensorFlow's.

    >>> tf.one_hot([2, 0, 5], 3).numpy()
    array([[0., 0., 1.],
           [1., 0., 0.],
           [0., 0., 0.]], dtype=float32)
    """
    indices = as_operand(indices)
    if not indices.dtype.is_integer:
        raise InvalidArgumentError(f"one_hot: indices must be integers, got {indices.dtype.name}.")
    given = next((v for v in (on_value, off_value) if v is not None), None)
    target = dtypes.as_dtype(dtype or (constant(given).dtype if given is not None else dtypes.float32))
    hot = apply(_ONE_HOT, (indices,), {"depth": int(depth), "dtype": target})
    if given is not None:
        on, off = (_like(v if v is not None else default, hot) for v, default in ((on_value, 1), (off_value, 0)))
        hot = where(cast(hot, dtypes.bool_), on, off)
    if axis is not None and axis not in (-1, hot.ndim - 1):
        (position,) = _axes(axis, hot.ndim, "one_hot")
        hot = transpose(hot, tuple(builtins.range(position)) + (hot.ndim - 1,) + tuple(builtins.range(position, hot.ndim - 1)))
    return hot


# ---- a few composites, differentiated through their parts

def clip_by_value(t: Any, clip_value_min: Any, clip_value_max: Any, name: str | None = None) -> Tensor:
    """``t`` limited to ``[clip_value_min, clip_value_max]``; the gradient passes where it is inside.

    >>> tf.clip_by_value([1.0, 5.0], 2.0, 4.0).numpy()
    array([2., 4.], dtype=float32)
    """
    t, lo, hi = operands("clip_by_value", t, clip_value_min, clip_value_max)
    return minimum(maximum(t, lo), hi)


def einsum(equation: str, *inputs: Any, name: str | None = None) -> Tensor:
    """Einstein summation in explicit-output form, e.g. ``"ij,jk->ik"``.

    >>> tf.einsum("ij,j->i", [[1.0, 2.0]], [3.0, 4.0]).numpy()
    array([11.], dtype=float32)
    """
    tensors = operands("einsum", *inputs)
    terms, output = _parse_einsum(equation, tensors)
    return apply(_EINSUM, tensors, {"terms": terms, "output": output})


def _parse_einsum(equation: str, tensors: Sequence[Tensor]) -> tuple[tuple[str, ...], str]:
    equation = equation.replace(" ", "")
    if "->" not in equation or "." in equation:
        raise ValueError(f"einsum: minitape needs the explicit-output form without '...', e.g. 'ij,jk->ik'; "
                         f"got {equation!r}.")
    left, output = equation.split("->")
    terms = tuple(left.split(","))
    if len(terms) != len(tensors):
        raise ValueError(f"einsum: {equation!r} names {len(terms)} inputs but {len(tensors)} were given.")
    for term, t in zip(terms, tensors):
        if len(term) != t.ndim or len(set(term)) != len(term) or not set(term) <= set(string.ascii_letters):
            raise ValueError(f"einsum: term {term!r} does not fit an input of shape {tuple(t.shape)} "
                             f"(one distinct letter per axis).")
    return terms, output


def _einsum_vjp(k, g, ans, *inputs, terms, output):
    # Contract the upstream gradient with the other inputs back to input k's letters;
    # letters only input k has are summed in the forward pass, so they are broadcast back.
    others = [(t, x) for j, (t, x) in enumerate(zip(terms, inputs)) if j != k]
    available = set(output).union(*[t for t, _ in others])
    kept = "".join(c for c in terms[k] if c in available)
    spec = ",".join([output] + [t for t, _ in others]) + "->" + kept
    grad = apply(_EINSUM, (g, *[x for _, x in others]), {"terms": tuple(spec.split("->")[0].split(",")), "output": kept})
    shape = tuple(n if c in available else 1 for c, n in zip(terms[k], inputs[k].shape))
    return broadcast_to(reshape(grad, shape), inputs[k].shape)


def _einsum_forward(xp, *xs, terms, output):
    if hasattr(xp, "einsum"):
        return xp.einsum(",".join(terms) + "->" + output, *xs)
    # The standard has no einsum: line every input up on all the letters (length 1 where it lacks
    # one), multiply them together, and sum away the letters the output does not keep.
    letters = output + "".join(sorted(set("".join(terms)) - set(output)))
    product = None
    for term, x in zip(terms, xs):
        order = tuple(sorted(builtins.range(len(term)), key=lambda i: letters.index(term[i])))
        shape = tuple(x.shape[term.index(c)] if c in term else 1 for c in letters)
        aligned = xp.reshape(xp.permute_dims(x, order), shape)
        product = aligned if product is None else product * aligned
    return xp.sum(product, axis=tuple(builtins.range(len(output), len(letters))))


_EINSUM = Op("einsum", _einsum_forward, _einsum_vjp, keep=(INPUTS,))


# ---- creation (not differentiable: nothing to differentiate).  New tensors go to the current
# device (``tf.device``); the ``_like`` ones go where their model tensor is.

def _filled(shape: tuple[int, ...], value: float | int | bool, dtype: Any, backend: backends.Backend) -> Tensor:
    native = backend.dtype(dtypes.as_dtype(dtype))
    return wrap(backend.xp.full(shape, value, dtype=native, device=backend.device))


def _place_of(x: Tensor | Discarded) -> backends.Backend:
    # A Discarded record has no array, hence no device: its zeros go to the current one.
    return backends.backend_of(x._value) if type(x) is Tensor else backends.current()


def zeros(shape: Any, dtype: Any = dtypes.float32, name: str | None = None) -> Tensor:
    """A tensor of zeros.

    >>> tf.zeros((2,)).numpy()
    array([0., 0.], dtype=float32)
    """
    return _filled(_shape(shape), 0, dtype, backends.current())


def ones(shape: Any, dtype: Any = dtypes.float32, name: str | None = None) -> Tensor:
    """A tensor of ones.

    >>> tf.ones((2,), tf.int32).numpy()
    array([1, 1], dtype=int32)
    """
    return _filled(_shape(shape), 1, dtype, backends.current())


def zeros_like(input: Any, dtype: Any = None, name: str | None = None) -> Tensor:
    """Zeros with the shape (and dtype) of ``input``, on its device.

    >>> tf.zeros_like([1.0, 2.0]).numpy()
    array([0., 0.], dtype=float32)
    """
    x = input if isinstance(input, Tensor | Discarded) else as_operand(input)
    return _filled(tuple(x.shape), 0, dtype or x.dtype, _place_of(x))


def ones_like(input: Any, dtype: Any = None, name: str | None = None) -> Tensor:
    """Ones with the shape (and dtype) of ``input``, on its device.

    >>> tf.ones_like([1, 2]).numpy()
    array([1, 1], dtype=int32)
    """
    x = input if isinstance(input, Tensor | Discarded) else as_operand(input)
    return _filled(tuple(x.shape), 1, dtype or x.dtype, _place_of(x))


def fill(dims: Any, value: Any, name: str | None = None) -> Tensor:
    """A tensor of shape ``dims`` filled with ``value`` (whose dtype it takes).

    >>> tf.fill([2], 3).numpy()
    array([3, 3], dtype=int32)
    """
    scalar = constant(value)
    return _filled(_shape(dims), scalar.numpy().item(), scalar.dtype, backends.current())


def range(start: Any, limit: Any = None, delta: Any = 1, dtype: Any = None, name: str = "range") -> Tensor:
    # This op shadows Python's range inside this module: code here says builtins.range.
    """Evenly spaced values in ``[start, limit)``: int32 for ints, float32 if any bound is a float.

    >>> tf.range(0, 1, 0.25).numpy()
    array([0.  , 0.25, 0.5 , 0.75], dtype=float32)
    """
    if limit is None:
        start, limit = 0, start
    bounds = [_plain(v) for v in (start, limit, delta)]
    if dtype is None:
        is_float = builtins.any(isinstance(b, float) or np.asarray(b).dtype.kind == "f" for b in bounds)
        dtype = dtypes.float32 if is_float else dtypes.int32
    # Computed on the host, where NumPy's rules for the count of steps are TensorFlow's.
    return wrap(backends.current().from_numpy(np.arange(*bounds, dtype=_np_dtype(dtype))))


def eye(num_rows: int, num_columns: int | None = None, dtype: Any = dtypes.float32, name: str | None = None) -> Tensor:
    """The identity matrix.

    >>> tf.eye(2).numpy()
    array([[1., 0.],
           [0., 1.]], dtype=float32)
    """
    backend = backends.current()
    native = backend.dtype(dtypes.as_dtype(dtype))
    return wrap(backend.xp.eye(num_rows, num_columns, dtype=native, device=backend.device))


def linspace(start: Any, stop: Any, num: int, name: str | None = None, axis: int = 0) -> Tensor:
    """``num`` evenly spaced values from ``start`` to ``stop`` inclusive.

    >>> tf.linspace(0.0, 1.0, 3).numpy()
    array([0. , 0.5, 1. ], dtype=float32)
    """
    start, stop = operands("linspace", start, stop)
    _needs_floating("linspace", start)
    values = np.linspace(start.numpy(), stop.numpy(), int(num), axis=axis, dtype=_np_dtype(start.dtype))
    return wrap(backends.backend_of(start._value).from_numpy(values))


def _np_dtype(dtype: Any) -> np.dtype:
    return dtypes.as_dtype(dtype).as_numpy_dtype_


_TO_DEVICE = Op("to_device", lambda xp, x, source, target: x if source is target else backends.transfer(x, target),
                (lambda g, ans, x, source, target: apply(_TO_DEVICE, (g,), {"source": target, "target": source}),))


def to_device(x: Any, device: str | backends.Backend) -> Tensor:
    """A copy of ``x`` on ``device`` (``"CPU:0"``, ``"GPU:0"``...); its gradient is copied back.

    minitape never moves a tensor by itself: this is how to.  (TensorFlow copies
    silently; this is JAX's ``device_put`` and PyTorch's ``.to``.)

    >>> tf.to_device(tf.constant([1.0]), "CPU:0").device
    '/job:localhost/replica:0/task:0/device:CPU:0'
    """
    x = as_operand(x)
    return apply(_TO_DEVICE, (x,), {"source": backends.backend_of(x._value), "target": backends.parse_device(device)})


# ---- argument helpers

def _plain(value: Any) -> Any:
    """Tensors given as arguments (shapes, axes, indices) become plain NumPy values."""
    if isinstance(value, Tensor | Variable):
        return value.numpy()
    if isinstance(value, list | tuple):
        return type(value)(_plain(v) for v in value)
    return value


def _ints(value: Any) -> tuple[int, ...]:
    """An int, a list or tuple of ints, or a tensor of them, as a tuple of Python ints."""
    if type(value) is int:
        return (value,)
    if type(value) in (tuple, list) and all(type(n) is int for n in value):
        return tuple(value)         # the common case, checked without building NumPy arrays
    return tuple(int(n) for n in np.asarray(_plain(value), dtype=np.int64).reshape(-1))


def _shape(shape: Any) -> tuple[int, ...]:
    """A shape given as an int, list, tuple or tensor, as a tuple of ints."""
    return _ints(shape)


def _axes(axis: Any, ndim: int, name: str) -> tuple[int, ...]:
    axes = _ints(axis)
    for a in axes:
        if ndim == 0:
            raise InvalidArgumentError(f"{name}: axis {a} given, but a scalar has no axes.")
        if not -ndim <= a < ndim:
            raise InvalidArgumentError(f"{name}: axis {a} is out of range for a tensor of rank {ndim} "
                                       f"(valid: {-ndim} to {ndim - 1}).")
    return tuple(a % ndim for a in axes)
