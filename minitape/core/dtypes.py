"""Data types: the six dtypes minitape speaks, and TensorFlow's rules for them.

A [`DType`][minitape.dtypes.DType] is a thin, named wrapper around a NumPy dtype.  It exists so
that reprs and errors read like TensorFlow's (``float32``, not ``dtype('float32')``)
and so that questions such as "can this be differentiated?" have one answer.

>>> import minitape as tf
>>> tf.float32.is_floating, tf.int32.is_floating
(True, False)
>>> tf.as_dtype("float64")
minitape.float64
"""
from __future__ import annotations

from typing import Any

import numpy as np


class DType:
    """One element type: ``float16``, ``float32``, ``float64``, ``int32``, ``int64`` or ``bool``.

    Compares equal to its name, its NumPy dtype and its NumPy scalar type, as
    TensorFlow's dtypes do.

    >>> import minitape as tf
    >>> tf.float32 == "float32", tf.float32 == np.float32
    (True, True)
    """

    __slots__ = ("name", "as_numpy_dtype_", "is_floating", "is_integer", "is_bool", "size")

    def __init__(self, name: str) -> None:
        self.name = name
        self.as_numpy_dtype_ = np.dtype(name)
        kind = self.as_numpy_dtype_.kind
        self.is_floating = kind == "f"
        self.is_integer = kind in "iu"
        self.is_bool = kind == "b"
        self.size = self.as_numpy_dtype_.itemsize

    @property
    def as_numpy_dtype(self) -> type:
        """The NumPy scalar type, e.g. ``numpy.float32``.

        >>> import minitape as tf
        >>> tf.float32.as_numpy_dtype
        <class 'numpy.float32'>
        """
        return self.as_numpy_dtype_.type

    @property
    def base_dtype(self) -> "DType":
        """The dtype itself: TensorFlow's reference dtypes have a base, minitape has none.

        >>> import minitape as tf
        >>> tf.float64.base_dtype
        minitape.float64
        """
        return self

    def __repr__(self) -> str:
        return f"minitape.{self.name}"

    def __eq__(self, other: Any) -> bool:
        try:
            return self is as_dtype(other)
        except TypeError:
            return NotImplemented

    def __hash__(self) -> int:
        return hash(self.name)


float16 = DType("float16")
"""Half-precision floats: differentiable, 2 bytes."""
float32 = DType("float32")
"""Single-precision floats, the default for Python floats: differentiable, 4 bytes."""
float64 = DType("float64")
"""Double-precision floats, what NumPy arrays of floats are: differentiable, 8 bytes."""
int32 = DType("int32")
"""32-bit integers, the default for Python ints: not differentiable."""
int64 = DType("int64")
"""64-bit integers: not differentiable."""
bool_ = DType("bool")
"""Booleans (``tf.bool``): the results of comparisons."""

ALL = (float16, float32, float64, int32, int64, bool_)
#: TensorFlow's names, and Python's ``float`` and ``bool``; NumPy reads "float" and ``float`` as float64.
_BY_NAME = {**{d.name: d for d in ALL}, "half": float16, "float": float32, "double": float64}
_BY_PYTHON_TYPE = {float: float32, bool: bool_}
#: What NumPy reads as a dtype and TensorFlow refuses: None (NumPy's float64), and int or "int" (NumPy's int64,
#: where TensorFlow's Python ints are int32).
_REFUSED = (None, int, "int")
_BY_NUMPY = {d.as_numpy_dtype_: d for d in ALL}
#: Each array library's own dtype objects, in a table of their own found by the objects' class:
#: dtypes of two libraries must never meet in one dict (array-api-strict's hash like NumPy's, and
#: comparing them is an error there).  [`minitape.backends`][minitape.backends] adds the libraries it meets.
_BY_NATIVE: dict[type, dict[Any, DType]] = {}


def register_native(native: Any, dtype: DType) -> None:
    """Let ``native``, some array library's dtype object, stand for ``dtype``.

    [`minitape.backends`][minitape.backends] calls it for each library it meets; NumPy's dtypes come registered.

    >>> import minitape as tf
    >>> import array_api_strict as xp
    >>> tf.dtypes.register_native(xp.float32, tf.float32)
    >>> tf.dtypes.of_array(xp.asarray([1.0], dtype=xp.float32))
    minitape.float32
    """
    _BY_NATIVE.setdefault(type(native), {})[native] = dtype


for _d in ALL:
    register_native(_d.as_numpy_dtype_, _d)


def as_dtype(value: Any) -> DType:
    """Turn a name, NumPy dtype or [`DType`][minitape.dtypes.DType] into a [`DType`][minitape.dtypes.DType].

    >>> import minitape as tf
    >>> tf.as_dtype(np.float16)
    minitape.float16
    >>> tf.as_dtype("float"), tf.as_dtype(float)       # TensorFlow's float is float32
    (minitape.float32, minitape.float32)
    >>> tf.as_dtype("complex64")
    Traceback (most recent call last):
    ...
    TypeError: Cannot convert 'complex64' to a minitape dtype; minitape supports float16, float32, float64, int32, int64, bool.
    """
    if isinstance(value, DType):
        return value
    if isinstance(value, str):
        found = _BY_NAME.get(value)
    else:
        found = _BY_PYTHON_TYPE.get(value) if isinstance(value, type) else _native(value)
    if found is None and value not in _REFUSED:
        try:
            found = _BY_NUMPY.get(np.dtype(value))
        except TypeError:
            found = None
    if found is None:
        known = ", ".join(d.name for d in ALL)
        raise TypeError(f"Cannot convert {value!r} to a minitape dtype; minitape supports {known}.")
    return found


def _native(value: Any) -> DType | None:
    table = _BY_NATIVE.get(type(value))
    return None if table is None else table.get(value)


def of_array(array: Any) -> DType:
    """The [`DType`][minitape.dtypes.DType] of an array or NumPy scalar (any backend).

    >>> import minitape as tf
    >>> tf.dtypes.of_array(np.ones(3)), tf.dtypes.of_array(np.int32(7))
    (minitape.float64, minitape.int32)
    """
    return _native(array.dtype) or as_dtype(array.dtype)


def for_python_value(value: Any) -> np.dtype | None:
    """TensorFlow's default dtype for a Python literal, or None to let NumPy decide.

    Python floats become float32, ints int32 (int64 when too large), bools bool;
    NumPy arrays keep their dtype.

    >>> import minitape as tf
    >>> tf.dtypes.for_python_value([1.5, 2.5]), tf.dtypes.for_python_value(2**40)
    (dtype('float32'), dtype('int64'))
    >>> tf.dtypes.for_python_value(np.ones(2)) is None
    True
    """
    if isinstance(value, np.ndarray | np.generic):
        return None
    array = np.asarray(value)
    kind = array.dtype.kind
    if kind == "f":
        return np.dtype(np.float32)
    if kind in "iu":
        fits = array.size == 0 or (array.min() >= -(2**31) and array.max() < 2**31)
        return np.dtype(np.int32 if fits else np.int64)
    return None
