"""Arguments: how the values users pass become the tensors, shapes and axes ops run on.

TensorFlow converts a Python number or list to a tensor of the dtype of the
tensor it meets (``x + 1`` is float32 when ``x`` is), and never mixes two
dtypes silently.  These helpers are those rules, in one place.

>>> import minitape as tf
>>> from minitape.ops.arguments import pair, as_axes
>>> x, one = pair("add", tf.constant([1.0, 2.0]), 1)
>>> one.dtype, as_axes(-1, 2, "reduce_sum")
(tf.float32, (1,))
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from minitape.core import arrays, backends, dtypes, messages
from minitape.core.backends import FLOATING, SCALARS, by_type
from minitape.core.errors import InvalidArgumentError
from minitape.core.tensor import Tensor, Variable, array_on, constant, wrap


def as_operand(value: Any, name: str = "") -> Tensor:
    """A tensor for an input of the op ``name``: tensors pass, variables are read, anything else becomes a constant.

    A value that cannot become one (None, a string) is TF's error, naming the op.

    >>> from minitape.ops.arguments import as_operand
    >>> as_operand(None, "exp")
    Traceback (most recent call last):
    ...
    ValueError: exp: Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor.
    """
    if type(value) is Tensor:
        return value
    if isinstance(value, Variable):
        return value.read_value()
    try:
        return constant(value)
    except (TypeError, ValueError) as error:
        raise _naming(name, error) from None


def _naming(name: str, error: Exception) -> Exception:
    """A conversion error again, its message led by the op's name (TF's own names no op)."""
    return type(error)(f"{name}: {error}") if name else error


_FITS_ALL = 65504.0     # float16's largest: a number within it converts to any dtype without an overflow warning


def like(value: Any, other: Tensor, name: str = "") -> Tensor:
    """Convert a non-tensor operand of the op ``name`` to the dtype and device of the tensor it meets (TF's rule)."""
    kind = type(value)
    if kind is Variable:
        return value.read_value()
    array = other._value
    if (kind is int and other.dtype is dtypes.bool_ and name != "multiply") or (
            kind is bool and other.dtype in _NO_PYTHON_BOOLS):
        return _refused_number(value, other, name)      # 3 is not True, nor True an int8, to TF
    if kind is float or kind is int:
        if by_type.get(type(array)) is np:
            if (kind is int and array.dtype.kind != "O") or type(array.dtype) in FLOATING:     # "O": strings
                try:
                    if -_FITS_ALL <= value <= _FITS_ALL:    # NumPy's fast path: a scalar, no conversion rules
                        return wrap(array.dtype.type(value))
                    return wrap(arrays.quietly(array.dtype.type, value))    # 1e40 in float32: inf, no warning
                except OverflowError:                       # too big for a narrow int: TF wraps it (or refuses)
                    return wrap(array_on(backends.backend_of(array), value, dtype=other.dtype))
        elif kind is int or backends.is_floating(array):
            return wrap(arrays.full_beside(array, (), value))
        if kind is float and not backends.is_floating(array):
            return _refused_number(value, other, name)
    if isinstance(value, Tensor | Variable):
        return as_operand(value)
    backend = backends.backend_of(array)
    try:
        try:
            return wrap(array_on(backend, value, dtype=other.dtype))
        except TypeError:
            return wrap(array_on(backend, value))       # then the dtype check names both dtypes
    except (TypeError, ValueError) as error:            # None, strings: TF's errors, naming the op
        raise _naming(name, error) from None


#: The dtypes TF will not convert a Python bool to (``tf.constant(True, tf.int8)`` is a TypeError).
_NO_PYTHON_BOOLS = (dtypes.int8, dtypes.int16, dtypes.uint8, dtypes.uint16)


def _refused_number(value: float | int | bool, other: Tensor, name: str) -> Tensor:
    """A Python number TF will not convert to the tensor's dtype: never truncated (``[1, 5] * 2.5``),
    never made a bool (``mask == 3``).  As in TF, ``add`` lets its kernel name both dtypes, and the
    other ops refuse to convert the number."""
    if name == "add":
        return wrap(array_on(backends.backend_of(other._value), value))
    raise messages.with_hint(TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {other.dtype.name}"),
                    f"{name}: the tensor holds {other.dtype.name}; write the number in that kind (an int, a "
                    f"bool), or tf.cast the tensor first.")


def operands(name: str, *values: Any) -> tuple[Tensor, ...]:
    """Tensors for an elementwise op: non-tensors take the dtype of the first tensor; dtypes must agree."""
    if not values:
        raise InvalidArgumentError(f"{name}: needs at least one tensor, got none; pass a non-empty list.")
    anchor = next((v for v in values if isinstance(v, Tensor | Variable)), None)
    anchor = as_operand(values[0] if anchor is None else anchor, name)
    tensors = tuple(v if type(v) is Tensor else like(v, anchor, name) for v in values)
    if any(t._value.dtype is not tensors[0]._value.dtype for t in tensors[1:]):
        _agree(name, *tensors)
    return tensors


def pair(name: str, x: Any, y: Any, error: type[Exception] = InvalidArgumentError) -> tuple[Tensor, Tensor]:
    """``operands`` for two values, the common case, without building generators.

    Two dtypes are TF's ``error``: its kernels' ``InvalidArgumentError``, or the ``TypeError`` of
    the ops it checks in Python (``divide``).
    """
    if type(x) is Tensor:
        if type(y) is not Tensor:
            y = like(y, x, name)
    elif type(y) is Tensor:
        x = like(x, y, name)
    else:
        x, y = operands(name, x, y)
    xv, yv = x._value, y._value
    # Two NumPy scalars of one type share their dtype; anything else compares dtypes.
    if (type(xv) is not type(yv) or type(xv) not in SCALARS) and xv.dtype is not yv.dtype:
        _agree(name, x, y, error=error)
    return x, y


#: The kernel TF 2.21 runs for each op (its dtype errors name it): ``op: (kernel, inputs before
#: the first tensor, what TF prints after "name:", None for nothing)``.
KERNELS: dict[str, tuple[str, int, str | None]] = {
    **{op: (kernel, 0, "") for op, kernel in (
        ("add", "AddV2"), ("subtract", "Sub"), ("multiply", "Mul"), ("maximum", "Maximum"), ("minimum", "Minimum"),
        ("pow", "Pow"), ("floordiv", "FloorDiv"), ("mod", "FloorMod"), ("less", "Less"), ("less_equal", "LessEqual"),
        ("greater", "Greater"), ("greater_equal", "GreaterEqual"), ("equal", "Equal"), ("not_equal", "NotEqual"),
        ("matmul", "MatMul"), ("einsum", "Einsum"), ("conv2d", "Conv2D"), ("add_n", "AddN"))},
    "concat": ("ConcatV2", 0, "concat"), "stack": ("Pack", 0, "stack"), "where": ("SelectV2", 1, None),
}


def _agree(name: str, *tensors: Tensor, error: type[Exception] = InvalidArgumentError) -> None:
    """Raise unless the tensors share one device and one dtype: minitape converts neither silently.

    The message is TF's (its kernel's, or for ``divide`` its Python check's); what to do is a note.
    """
    arrays.check_same_device(name, tuple(t._value for t in tensors))
    first = tensors[0].dtype
    k, other = next(((k, t.dtype) for k, t in enumerate(tensors) if t.dtype is not first), (None, None))
    if other is None:
        return
    hint = f"{name}: minitape never converts dtypes silently; use tf.cast(x, tf.{first.name}) on one of the inputs."
    if error is TypeError:                              # divide: TF checks in Python, before any kernel
        text = f"`x` and `y` must have the same dtype, got tf.{first.name} != tf.{other.name}."
    elif name in KERNELS:
        kernel, before, node = KERNELS[name]
        text = messages.mixed_dtypes_text(kernel, k + before, first.name, other.name, node)
    else:
        text = f"{name}: input {k} is {other.name} but input 0 is {first.name}"
    raise messages.with_hint(error(text), hint)


class Dtypes:
    """The dtypes an op is declared for: TensorFlow registers each kernel for some dtypes only.

    >>> from minitape.ops.arguments import NUMBERS
    >>> NUMBERS.check("add", tf.constant([True]))
    Traceback (most recent call last):
    ...
    minitape.core.errors.InvalidArgumentError: add needs numbers (float16/32/64, int8/16/32/64 or uint8/16), got bool; use tf.cast(x, tf.float32) first, or tf.math.logical_and/logical_or for booleans.
    """

    __slots__ = ("members", "types", "words", "advice", "error")

    def __init__(self, members: tuple[dtypes.DType, ...], words: str, advice: str,
                 error: type[Exception] = InvalidArgumentError) -> None:
        self.members = frozenset(members)
        #: What ``type(value)`` is for a NumPy scalar of a member, and ``type(value.dtype)`` for an
        #: array: asking whether a value is admitted is then one or two set lookups.
        self.types = frozenset(t for d in members for t in (d.as_numpy_dtype_.type, type(d.as_numpy_dtype_)))
        self.words, self.advice, self.error = words, advice, error

    def check(self, name: str, t: Tensor) -> None:
        """Raise TF's error (its kernels': ``InvalidArgumentError``) unless ``t`` has one of these dtypes.

        Ops on the hot path test ``type(value)`` and ``type(value.dtype)`` against ``types``
        themselves (a NumPy scalar's type, or a NumPy or CuPy array's dtype's, says it in one set
        lookup) and call this only when both miss.
        """
        value, types = t._value, self.types
        if type(value) not in types and type(value.dtype) not in types and t.dtype not in self.members:
            raise self.error(f"{name} needs {self.words}, got {t.dtype.name}; {'no math op takes text.' if t.dtype.name == 'string' else self.advice}")


_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)
_SIGNED_INTS = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64)
FLOATS = Dtypes(_FLOATS, "a floating-point tensor (float16/32/64)", "use tf.cast(x, tf.float32) first.")
NUMBERS = Dtypes(_FLOATS + _SIGNED_INTS + (dtypes.uint8, dtypes.uint16),
                 "numbers (float16/32/64, int8/16/32/64 or uint8/16)",
                 "use tf.cast(x, tf.float32) first, or tf.math.logical_and/logical_or for booleans.")
#: What has a sign to flip (``negative``, ``abs``, ``sign``, ``pow``): TF registers no unsigned kernel for them.
SIGNED = Dtypes(_FLOATS + _SIGNED_INTS, "signed numbers (float16/32/64 or int8/16/32/64)",
                "use tf.cast(x, tf.int32) or tf.cast(x, tf.float32) first.")
#: What TF's matrix kernels (``MatMul``) are registered for.
MATRIX = Dtypes(_FLOATS + (dtypes.int32, dtypes.int64), "numbers (float16/32/64 or int32/64)",
                "use tf.cast(x, tf.float32) first.")
#: TF's ``divide`` checks its inputs in Python, before any kernel runs: bool, or two dtypes, is a TypeError.
DIVISIBLE = Dtypes(NUMBERS.members, NUMBERS.words, "use tf.cast(x, tf.float32) first.", TypeError)
BOOLS = Dtypes((dtypes.bool_,), "bool tensors", "compare first (x > 0), or use tf.cast(x, tf.bool).")
ANY = Dtypes(dtypes.ALL, "", "")
#: The index dtypes of TF's kernels: ``gather`` (``Tindices``), ``one_hot`` (``TI``), sparse labels (``Tlabels``).
GATHER_INDICES = Dtypes((dtypes.int16, dtypes.int32, dtypes.int64), "indices of int16, int32 or int64",
                        "use tf.cast(indices, tf.int32) first.")
ONE_HOT_INDICES = Dtypes((dtypes.uint8, dtypes.int8, dtypes.int32, dtypes.int64),
                         "indices of uint8, int8, int32 or int64", "use tf.cast(indices, tf.int32) first.")
LABELS = Dtypes((dtypes.int32, dtypes.int64), "labels of int32 or int64", "use tf.cast(labels, tf.int32) first.")


def check_indices(accepts: Dtypes, name: str, indices: Any) -> None:
    """Raise TF's error when ``indices`` is a tensor or array whose integer dtype the kernel is not registered for.

    Python lists become int32, which every kernel takes; floats are left to ``arrays.integers``.

    >>> from minitape.ops.arguments import GATHER_INDICES, check_indices
    >>> check_indices(GATHER_INDICES, "gather", np.array([0, 1], np.uint8))
    Traceback (most recent call last):
    ...
    minitape.core.errors.InvalidArgumentError: gather needs indices of int16, int32 or int64, got uint8; use tf.cast(indices, tf.int32) first.
    """
    if isinstance(indices, Tensor | Variable | np.ndarray | np.generic):
        found = dtypes.of_array(indices._value if isinstance(indices, Tensor | Variable) else indices)
        if found.is_integer and found not in accepts.members:
            raise accepts.error(f"{name} needs {accepts.words}, got {found.name}; {accepts.advice}")


def needs_floating(name: str, t: Tensor) -> None:
    FLOATS.check(name, t)


def check_broadcast(name: str, *tensors: Tensor) -> None:
    """Raise TF's ``InvalidArgumentError`` unless the tensors' shapes broadcast together.

    Ops call it once NumPy has refused, so shapes that fit cost nothing.

    >>> from minitape.ops.arguments import check_broadcast
    >>> check_broadcast("add", tf.ones((2, 3)), tf.ones(2))
    Traceback (most recent call last):
    ...
    minitape.core.errors.InvalidArgumentError: add: Incompatible shapes: (2, 3) vs. (2,); shapes broadcast when, axis by axis from the last, their sizes are equal or one of them is 1. Use tf.reshape or tf.expand_dims to line them up.
    """
    shapes = [tuple(t.shape) for t in tensors]
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        raise InvalidArgumentError(
            f"{name}: Incompatible shapes: {' vs. '.join(map(str, shapes))}; shapes broadcast when, axis by axis "
            f"from the last, their sizes are equal or one of them is 1. Use tf.reshape or tf.expand_dims to line "
            f"them up.") from None


def tensor_list(values: Any, name: str) -> list[Any]:
    """The items of a list argument (``stack``): a list or tuple, or the rows of a tensor or array."""
    if isinstance(values, list | tuple):
        return list(values)
    if isinstance(values, Tensor | Variable | np.ndarray) and values.ndim > 0:
        return list(values)
    raise ValueError(f"{name}: values must be a list of tensors, got {type(values).__name__} {values!r}.")


def nonzero_divisor(name: str, forward: Callable) -> Callable:
    """``forward`` for ``x // y`` or ``x % y``, refusing integer division by zero as TF does (floats give inf/nan)."""
    def run(xp, x, y):
        if not backends.is_floating(y) and bool(xp.any(y == 0)):
            raise InvalidArgumentError(f"{name}: Integer division by zero (y holds 0); mask the zeros first with "
                                       f"tf.where, or divide floats (x // 0.0 is inf).")
        return forward(xp, x, y)
    return run


def under_tfs_name(function: Callable, argument: str) -> Callable:
    """``function(x, name=None)`` taking its one input by TF's keyword: ``features`` (activations) or ``input``.

    One call more, paid only by the ops TF names otherwise; ``x`` keeps ``function`` itself.
    >>> import inspect; str(inspect.signature(under_tfs_name(lambda x, name=None: x, "features")))
    '(features, name=None)'
    """
    shell = {"x": function, "features": lambda features, name=None: function(features, name),
             "input": lambda input, name=None: function(input, name)}[argument]
    shell.__module__, shell.__qualname__ = function.__module__, function.__qualname__   # where the docs find it
    return shell


# ---- argument helpers

def plain(value: Any) -> Any:
    """Tensors given as arguments (shapes, axes, indices) become plain NumPy values."""
    if isinstance(value, Tensor | Variable):
        return value.numpy()
    if isinstance(value, list | tuple):
        return type(value)(plain(v) for v in value)
    return value


def ints(value: Any, name: str, argument: str, error: type[Exception] = TypeError) -> tuple[int, ...]:
    """An int, a list or tuple of ints, or a tensor of them, as a tuple of Python ints; floats are refused.

    ``error`` is what TF raises for a Python float here (``integers``);
    a float *tensor* reaches TF's kernel, which refuses it with an ``InvalidArgumentError``.

    >>> from minitape.ops.arguments import ints
    >>> ints([0, 1], "reduce_sum", "axis")
    (0, 1)
    >>> ints(0.5, "reduce_sum", "axis")
    Traceback (most recent call last):
    ...
    TypeError: reduce_sum: axis must hold integers, got 0.5; pass Python ints or an int32/int64 tensor (round or tf.cast a float first).
    """
    if type(value) is int:
        return (value,)
    if type(value) in (tuple, list) and all(type(n) is int for n in value):
        return tuple(value)         # the common case, checked without building NumPy arrays
    if isinstance(value, Tensor | Variable) and not value.dtype.is_integer:
        error = InvalidArgumentError
    return tuple(int(n) for n in arrays.integers(plain(value), f"{name}: {argument}", error).reshape(-1))


def as_int(value: Any, name: str, argument: str, error: type[Exception] = TypeError, least: int | None = None,
           listed: bool = False) -> int:
    """One integer: a Python int or a scalar tensor (or, if ``listed``, a list holding one), at least ``least``.

    >>> from minitape.ops.arguments import as_int
    >>> as_int(3, "one_hot", "depth", least=0)
    3
    >>> as_int(-1, "one_hot", "depth", least=0)
    Traceback (most recent call last):
    ...
    minitape.core.errors.InvalidArgumentError: one_hot: depth must be at least 0, got -1.
    """
    found = ints(value, name, argument, error)
    if len(found) != 1 or (not listed and type(value) is not int and np.ndim(plain(value)) != 0):
        raise InvalidArgumentError(f"{name}: {argument} must be a single integer, got {value!r}.")
    if least is not None and found[0] < least:
        raise InvalidArgumentError(f"{name}: {argument} must be at least {least}, got {found[0]}.")
    return found[0]


def as_shape(shape: Any, name: str, argument: str = "shape", error: type[Exception] = TypeError,
             unknown: bool = False) -> tuple[int, ...]:
    """A shape given as an int, list, tuple or tensor, as a tuple of ints >= 0 (or -1, if ``unknown``)."""
    if type(shape) in (tuple, list) and all(type(n) is int and n >= 0 for n in shape):
        return tuple(shape)         # the common case, checked without building NumPy arrays
    if isinstance(shape, Tensor | Variable) and not shape.dtype.is_integer:
        error = InvalidArgumentError
    return arrays.dimensions(plain(shape), f"{name}: {argument}", error, unknown)


def as_axes(axis: Any, ndim: int, name: str, error: type[Exception] = TypeError,
            out_of_range: type[Exception] = InvalidArgumentError) -> tuple[int, ...]:
    """Axes given as an int, a list or a tensor, each in ``[-ndim, ndim)``, as non-negative ints.

    ``error`` is TF's for a float axis (see ``ints``); ``out_of_range`` its error for an
    axis out of range: its kernels' ``InvalidArgumentError``, or the ``ValueError`` of the ops
    it checks in Python (``stack``).
    """
    axes = ints(axis, name, "axis", error)
    for a in axes:
        if ndim == 0:
            raise out_of_range(f"{name}: axis {a} given, but a scalar has no axes.")
        if not -ndim <= a < ndim:
            raise out_of_range(f"{name}: axis {a} is out of range for a tensor of rank {ndim} "
                               f"(valid: {-ndim} to {ndim - 1}).")
    return tuple(a % ndim for a in axes)


def as_axis(axis: Any, ndim: int, name: str, error: type[Exception] = TypeError, listed: bool = False,
            out_of_range: type[Exception] = InvalidArgumentError) -> int:
    """One axis (an int or a scalar tensor; a list of one, if ``listed``), as a non-negative int.

    >>> from minitape.ops.arguments import as_axis
    >>> as_axis(-1, 3, "expand_dims")
    2
    >>> as_axis([0, 1], 3, "expand_dims")
    Traceback (most recent call last):
    ...
    minitape.core.errors.InvalidArgumentError: expand_dims: axis must be a single integer, got [0, 1].
    """
    return as_axes(as_int(axis, name, "axis", error, listed=listed), ndim, name, error, out_of_range)[0]


def count(x: Any, axis: Sequence[int]) -> int:
    """How many values the ``axis`` of ``x`` (a tensor, or a plain shape) hold together."""
    shape = tuple(x.shape) if hasattr(x, "shape") else x
    return math.prod(shape[a] for a in axis)
