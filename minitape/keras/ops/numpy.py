"""``keras.ops``' arithmetic, math functions and reductions, in NumPy's names and Keras 3's dtypes.

Each is a minitape op (so the tape sees it) behind Keras 3's signature and dtype rules
([`promotion`][minitape.keras.ops.promotion]): ``mean``, ``sqrt``, ``exp``... of integers are
float32, ``int32 * 2.5`` is float32 where TensorFlow would refuse, ``argmax`` answers int32 and
``cumsum`` with no axis runs over the flattened array, as NumPy's does.

>>> from minitape.keras import ops
>>> ops.mean([1, 2])
<minitape.Tensor: shape=(), dtype=float32, numpy=1.5>
>>> ops.argmax([[1, 5], [7, 0]], axis=1)
<minitape.Tensor: shape=(2,), dtype=int32, numpy=array([1, 0], dtype=int32)>
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minitape import ops as tape_ops
from minitape.core.tensor import Tensor
from minitape.keras.ops import trig
from minitape.keras.ops.promotion import as_tensor, floating, promoted

Axis = int | tuple[int, ...] | list[int] | None


def _named(function: Callable, name: str, doc: str) -> Callable:
    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    return function


def _real(name: str, op: Callable, doc: str) -> Callable:
    """A function of reals: integers and booleans come in as float32."""
    return _named(lambda x: op(as_tensor(x, floating(x))), name, doc)


def _same(name: str, op: Callable, doc: str) -> Callable:
    """A function that keeps its input's dtype."""
    return _named(lambda x: op(as_tensor(x)), name, doc)


def _combining(name: str, op: Callable, doc: str) -> Callable:
    """A function of two inputs, brought to one dtype by Keras 3's promotion first."""
    return _named(lambda x1, x2: op(*promoted(x1, x2)), name, doc)


def _example(call: str, shown: str) -> str:
    return f"\n    >>> from minitape.keras import ops\n    >>> ops.{call}.numpy()\n    {shown}\n    "


# --------------------------------------------------------------------------- elementwise: reals
sqrt = _real("sqrt", tape_ops.sqrt,
             "Elementwise square root." + _example("sqrt([4, 9])", "array([2., 3.], dtype=float32)"))
exp = _real("exp", tape_ops.exp, "Elementwise ``e**x``." + _example("exp([0])", "array([1.], dtype=float32)"))
log = _real("log", tape_ops.log, "Elementwise natural logarithm." + _example("log([1])", "array([0.], dtype=float32)"))
log1p = _real("log1p", tape_ops.log1p,
              "Elementwise ``log(1 + x)``." + _example("log1p([0])", "array([0.], dtype=float32)"))
sin = _real("sin", tape_ops.sin, "Elementwise sine." + _example("sin([0])", "array([0.], dtype=float32)"))
cos = _real("cos", tape_ops.cos, "Elementwise cosine." + _example("cos([0])", "array([1.], dtype=float32)"))
tanh = _real("tanh", tape_ops.tanh,
             "Elementwise hyperbolic tangent." + _example("tanh([0])", "array([0.], dtype=float32)"))
tan = _real("tan", trig.tan, "Elementwise tangent." + _example("tan([0])", "array([0.], dtype=float32)"))
arccos = _real("arccos", trig.arccos,
               "Elementwise inverse cosine." + _example("arccos([1])", "array([0.], dtype=float32)"))
arcsin = _real("arcsin", trig.arcsin,
               "Elementwise inverse sine." + _example("arcsin([0])", "array([0.], dtype=float32)"))
arctan = _real("arctan", trig.arctan,
               "Elementwise inverse tangent." + _example("arctan([0])", "array([0.], dtype=float32)"))
sinh = _real("sinh", trig.sinh, "Elementwise hyperbolic sine." + _example("sinh([0])", "array([0.], dtype=float32)"))
cosh = _real("cosh", trig.cosh, "Elementwise hyperbolic cosine." + _example("cosh([0])", "array([1.], dtype=float32)"))

# --------------------------------------------------------------------------- elementwise: any dtype
abs = _same("abs", tape_ops.abs, "Elementwise ``|x|``." + _example("abs([-2, 3])", "array([2, 3], dtype=int32)"))
absolute = _named(lambda x: abs(x), "absolute",
                  "Another name of ``abs``." + _example("absolute([-1.5])", "array([1.5], dtype=float32)"))
negative = _same("negative", tape_ops.negative,
                 "Elementwise ``-x``." + _example("negative([1])", "array([-1], dtype=int32)"))
sign = _same("sign", tape_ops.sign,
             "Elementwise -1, 0 or 1." + _example("sign([-2.0, 0.0])", "array([-1.,  0.], dtype=float32)"))


def square(x: Any) -> Tensor:
    """Elementwise ``x * x``; booleans are squared as int32.

    >>> from minitape.keras import ops
    >>> ops.square([2, 3]).numpy()
    array([4, 9], dtype=int32)
    """
    x = as_tensor(x)
    return tape_ops.square(tape_ops.cast(x, "int32") if x.dtype.name == "bool" else x)


def round(x: Any, decimals: int = 0) -> Tensor:  # noqa: A001
    """Elementwise rounding to ``decimals`` places, halves to even as NumPy does.

    >>> from minitape.keras import ops
    >>> ops.round([0.5, 1.5, 2.567], decimals=0).numpy()
    array([0., 2., 3.], dtype=float32)
    """
    x = as_tensor(x)
    if decimals == 0:
        return tape_ops.round(x)
    scale = 10.0 ** decimals
    return tape_ops.round(x * scale) / scale


def floor(x: Any) -> Tensor:
    """Elementwise the largest integer not above ``x``; integers come in as float32.

    >>> from minitape.keras import ops
    >>> ops.floor([-1.5, 1.5]).numpy()
    array([-2.,  1.], dtype=float32)
    """
    x = as_tensor(x, floating(x))
    return tape_ops.floordiv(x, tape_ops.ones_like(x))


def ceil(x: Any) -> Tensor:
    """Elementwise the smallest integer not below ``x``.

    >>> from minitape.keras import ops
    >>> ops.ceil([-1.5, 1.5]).numpy()
    array([-1.,  2.], dtype=float32)
    """
    return -floor(-as_tensor(x, floating(x)))


# --------------------------------------------------------------------------- two inputs
add = _combining("add", tape_ops.add,
                 "``x1 + x2``, promoted." + _example("add([1, 2], 0.5)", "array([1.5, 2.5], dtype=float32)"))
subtract = _combining("subtract", tape_ops.subtract,
                      "``x1 - x2``." + _example("subtract([3], 1)", "array([2], dtype=int32)"))
multiply = _combining("multiply", tape_ops.multiply,
                      "``x1 * x2``." + _example("multiply([3], 2.0)", "array([6.], dtype=float32)"))
maximum = _combining("maximum", tape_ops.maximum,
                     "The larger of two, elementwise." + _example("maximum([1, 5], 3)", "array([3, 5], dtype=int32)"))
minimum = _combining("minimum", tape_ops.minimum,
                     "The smaller of two, elementwise." + _example("minimum([1, 5], 3)", "array([1, 3], dtype=int32)"))
power = _combining("power", tape_ops.pow, "``x1 ** x2``." + _example("power([2, 3], 2)", "array([4, 9], dtype=int32)"))
mod = _combining("mod", tape_ops.mod,
                 "Remainder, with the divisor's sign." + _example("mod([5, -5], 3)", "array([2, 1], dtype=int32)"))
floor_divide = _combining("floor_divide", tape_ops.floordiv,
                          "``x1 // x2``." + _example("floor_divide([7], 2)", "array([3], dtype=int32)"))
equal = _combining("equal", tape_ops.equal, "``x1 == x2``." + _example("equal([1, 2], 2)", "array([False,  True])"))
not_equal = _combining("not_equal", tape_ops.not_equal,
                       "``x1 != x2``." + _example("not_equal([1, 2], 2)", "array([ True, False])"))
greater = _combining("greater", tape_ops.greater,
                     "``x1 > x2``." + _example("greater([1, 2], 1)", "array([False,  True])"))
greater_equal = _combining("greater_equal", tape_ops.greater_equal,
                           "``x1 >= x2``." + _example("greater_equal([1, 2], 2)", "array([False,  True])"))
less = _combining("less", tape_ops.less, "``x1 < x2``." + _example("less([1, 2], 2)", "array([ True, False])"))
less_equal = _combining("less_equal", tape_ops.less_equal,
                        "``x1 <= x2``." + _example("less_equal([1, 2], 1)", "array([ True, False])"))


def divide(x1: Any, x2: Any) -> Tensor:
    """``x1 / x2``: integers divide to float32, as in Python 3.

    >>> from minitape.keras import ops
    >>> ops.divide([1, 3], 2).numpy()
    array([0.5, 1.5], dtype=float32)
    """
    x1, x2 = promoted(x1, x2)
    kind = floating(x1)
    return tape_ops.divide(as_tensor(x1, kind), as_tensor(x2, kind))


true_divide = _named(lambda x1, x2: divide(x1, x2), "true_divide",
                     "Another name of ``divide``." + _example("true_divide([1], 4)", "array([0.25], dtype=float32)"))


def divide_no_nan(x1: Any, x2: Any) -> Tensor:
    """``x1 / x2``, and 0 where ``x2`` is 0 (its gradient there is 0 too).

    >>> from minitape.keras import ops
    >>> ops.divide_no_nan([1.0, 2.0], [0.0, 4.0]).numpy()
    array([0. , 0.5], dtype=float32)
    """
    x1, x2 = promoted(x1, x2)
    zero = tape_ops.equal(x2, tape_ops.zeros_like(x2))
    safe = tape_ops.where(zero, tape_ops.ones_like(x2), x2)
    quotient = divide(x1, safe)
    return tape_ops.where(zero, tape_ops.zeros_like(quotient), quotient)


def logical_and(x1: Any, x2: Any) -> Tensor:
    """Elementwise ``and`` of truth values (numbers count as true where non-zero).

    >>> from minitape.keras import ops
    >>> ops.logical_and([True, True], [1, 0]).numpy()
    array([ True, False])
    """
    return tape_ops.logical_and(as_tensor(x1, "bool"), as_tensor(x2, "bool"))


def logical_or(x1: Any, x2: Any) -> Tensor:
    """Elementwise ``or`` of truth values.

    >>> from minitape.keras import ops
    >>> ops.logical_or([False, False], [1, 0]).numpy()
    array([ True, False])
    """
    return tape_ops.logical_or(as_tensor(x1, "bool"), as_tensor(x2, "bool"))


def logical_not(x: Any) -> Tensor:
    """Elementwise ``not``.

    >>> from minitape.keras import ops
    >>> ops.logical_not([True, False]).numpy()
    array([False,  True])
    """
    return tape_ops.logical_not(as_tensor(x, "bool"))


def isnan(x: Any) -> Tensor:
    """Where ``x`` is NaN (never, for integers).

    >>> from minitape.keras import ops
    >>> ops.isnan([1.0, float("nan")]).numpy()
    array([False,  True])
    """
    return tape_ops.is_nan(as_tensor(x, floating(x)))


def isfinite(x: Any) -> Tensor:
    """Where ``x`` is neither infinite nor NaN.

    >>> from minitape.keras import ops
    >>> ops.isfinite([1.0, float("inf")]).numpy()
    array([ True, False])
    """
    return tape_ops.is_finite(as_tensor(x, floating(x)))
