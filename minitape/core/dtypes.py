"""Data types: the dtypes minitape speaks, and TensorFlow's rules for them.

A [`DType`][minitape.dtypes.DType] is a thin, named wrapper around a NumPy dtype.  It exists so
that reprs and errors read like TensorFlow's (``tf.float32``, not ``dtype('float32')``)
and so that questions such as "can this be differentiated?" have one answer.

>>> import minitape as tf
>>> tf.float32.is_floating, tf.int32.is_floating
(True, False)
>>> tf.as_dtype("float64")
tf.float64
>>> print(tf.float64)
<dtype: 'float64'>
"""
from __future__ import annotations

from typing import Any

import numpy as np


class DType:
    """One element type, such as ``float32``, ``int32``, ``uint8`` or ``bool``.

    ``repr`` names it as code does (``tf.float32``), ``str`` and ``print`` as TensorFlow
    prints it (``<dtype: 'float32'>``).  It compares equal to anything
    [`as_dtype`][minitape.dtypes.as_dtype] turns into it: its name, its NumPy dtype or scalar
    type, TensorFlow's number for it; and it hashes as that number, as TensorFlow's dtypes do.

    >>> import minitape as tf
    >>> tf.float32 == "float32", tf.float32 == np.float32, tf.float32 == "float64"
    (True, True, False)
    >>> tf.uint8.is_integer, tf.uint8.is_unsigned, tf.uint8.max, tf.uint8.size
    (True, True, 255, 1)
    """

    __slots__ = ("name", "as_numpy_dtype_", "as_datatype_enum", "is_floating", "is_integer", "is_bool",
                 "is_unsigned", "size")

    def __init__(self, name: str, enum: int, numpy_name: str | None = None) -> None:
        self.name = name
        self.as_numpy_dtype_ = np.dtype(numpy_name or name)
        #: TensorFlow's number for the type (``types.proto``): ``as_dtype(1)`` is float32.
        self.as_datatype_enum = enum
        kind = self.as_numpy_dtype_.kind
        self.is_floating = kind == "f"
        self.is_integer = kind in "iu"
        self.is_bool = kind == "b"
        self.is_unsigned = kind == "u"
        self.size = self.as_numpy_dtype_.itemsize if kind != "O" else 0     # TF: a string's size is 0

    @property
    def as_numpy_dtype(self) -> type:
        """The NumPy scalar type, e.g. ``numpy.float32``.

        >>> import minitape as tf
        >>> tf.float32.as_numpy_dtype, tf.string.as_numpy_dtype
        (<class 'numpy.float32'>, <class 'object'>)
        """
        return object if self.as_numpy_dtype_ == object else self.as_numpy_dtype_.type

    @property
    def base_dtype(self) -> "DType":
        """The dtype itself: TensorFlow 1's reference dtypes have a base, minitape has none.

        >>> import minitape as tf
        >>> tf.float64.base_dtype
        tf.float64
        """
        return self

    @property
    def real_dtype(self) -> "DType":
        """The dtype of a value's real part: the dtype itself, minitape having no complex numbers.

        >>> tf.float32.real_dtype
        tf.float32
        """
        return self

    @property
    def is_numeric(self) -> bool:
        """Whether it holds numbers (everything but bool and string).

        >>> tf.int32.is_numeric, tf.bool.is_numeric, tf.string.is_numeric
        (True, False, False)
        """
        return self.is_floating or self.is_integer

    @property
    def min(self) -> Any:
        """The smallest value it holds: a Python int for integers, a NumPy float for floats.

        >>> tf.int8.min, tf.float16.min
        (-128, np.float16(-6.55e+04))
        """
        return self._limit("minimum", "min")

    @property
    def max(self) -> Any:
        """The largest value it holds.

        >>> tf.uint8.max, tf.float32.max
        (255, np.float32(3.4028235e+38))
        >>> tf.bool.max
        Traceback (most recent call last):
        ...
        TypeError: Cannot find maximum value of <dtype: 'bool'> with type <dtype: 'bool'>.
        """
        return self._limit("maximum", "max")

    def _limit(self, word: str, end: str) -> Any:
        if not self.is_numeric:
            raise TypeError(f"Cannot find {word} value of {self} with type {self}.")
        info = np.finfo(self.as_numpy_dtype_) if self.is_floating else np.iinfo(self.as_numpy_dtype_)
        return getattr(info, end)

    def is_compatible_with(self, other: Any) -> bool:
        """Whether ``other`` names the same dtype (TensorFlow 1's question; in TF 2, ``==`` asks it).

        >>> tf.float32.is_compatible_with("float32"), tf.float32.is_compatible_with(tf.float64)
        (True, False)
        """
        return self is as_dtype(other)

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __str__(self) -> str:
        return f"<dtype: '{self.name}'>"

    def __eq__(self, other: Any) -> bool:
        if other is None:
            return False
        try:
            return self is as_dtype(other)
        except TypeError:
            return False

    def __ne__(self, other: Any) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return self.as_datatype_enum

    def __reduce__(self) -> tuple:
        return as_dtype, (self.name,)


float16 = DType("float16", 19)
"""Half-precision floats: differentiable, 2 bytes."""
float32 = DType("float32", 1)
"""Single-precision floats, the default for Python floats: differentiable, 4 bytes."""
float64 = DType("float64", 2)
"""Double-precision floats, what NumPy arrays of floats are: differentiable, 8 bytes."""
int8 = DType("int8", 6)
"""8-bit integers: not differentiable."""
int16 = DType("int16", 5)
"""16-bit integers: not differentiable."""
int32 = DType("int32", 3)
"""32-bit integers, the default for Python ints: not differentiable."""
int64 = DType("int64", 9)
"""64-bit integers: not differentiable."""
uint8 = DType("uint8", 4)
"""Unsigned 8-bit integers, what images (and MNIST's labels) come as: not differentiable."""
uint16 = DType("uint16", 17)
"""Unsigned 16-bit integers: not differentiable."""
bool_ = DType("bool", 10)
"""Booleans (``tf.bool``): the results of comparisons."""
half, double = float16, float64     # TensorFlow's other names for them
string = DType("string", 7, "object")
"""Byte strings (``tf.string``): each element a Python ``bytes``, held in a NumPy object array.
Tensors of them are made, printed, read back with ``numpy()`` and passed through ``tf.identity``;
no math op takes them.

>>> import minitape as tf
>>> tf.constant(["hi", "there"])
<minitape.Tensor: shape=(2,), dtype=string, numpy=array([b'hi', b'there'], dtype=object)>
"""

#: The dtypes of numbers and truth values, the ones ops compute with.
ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, bool_)
#: Every dtype, strings included.
EVERY = ALL + (string,)
#: TensorFlow's names, and Python's ``float`` and ``bool``; NumPy reads "float" and ``float`` as float64.
_BY_NAME = {**{d.name: d for d in EVERY}, "half": float16, "float": float32, "double": float64}
_BY_PYTHON_TYPE = {float: float32, bool: bool_, str: string, bytes: string}
_BY_ENUM = {d.as_datatype_enum: d for d in EVERY}
#: What NumPy reads as a dtype and TensorFlow refuses: None (NumPy's float64), and int or "int" (NumPy's int64,
#: where TensorFlow's Python ints are int32).
_REFUSED = (None, int, "int")
#: Each array library's own dtype objects, in a table of their own found by the objects' class:
#: dtypes of two libraries must never meet in one dict (array-api-strict's hash like NumPy's, and
#: comparing them is an error there).  NumPy's come registered; [`minitape.backends`][minitape.backends] adds
#: the libraries it meets.
_BY_NATIVE: dict[type, dict[Any, DType]] = {}


def register_native(native: Any, dtype: DType) -> None:
    """Let ``native``, some array library's dtype object, stand for ``dtype``.

    [`minitape.backends`][minitape.backends] calls it for each library it meets; NumPy's dtypes come registered.

    >>> import minitape as tf
    >>> import array_api_strict as xp
    >>> tf.dtypes.register_native(xp.float32, tf.float32)
    >>> tf.dtypes.of_array(xp.asarray([1.0], dtype=xp.float32))
    tf.float32
    """
    _BY_NATIVE.setdefault(type(native), {})[native] = dtype


for _d in EVERY:
    register_native(_d.as_numpy_dtype_, _d)


def as_dtype(type_value: Any) -> DType:
    """Turn a name, NumPy dtype or [`DType`][minitape.dtypes.DType] into a [`DType`][minitape.dtypes.DType].

    >>> import minitape as tf
    >>> tf.as_dtype(np.float16)
    tf.float16
    >>> tf.as_dtype("float"), tf.as_dtype(float)       # TensorFlow's float is float32
    (tf.float32, tf.float32)
    >>> tf.as_dtype(3)                                  # TensorFlow's number for int32
    tf.int32
    >>> tf.as_dtype("complex64")
    Traceback (most recent call last):
    ...
    TypeError: Cannot convert 'complex64' to a minitape dtype; minitape supports float16, float32, float64, int8, int16, int32, int64, uint8, uint16, bool, string.
    """
    value = type_value                                  # TF's parameter name, for as_dtype(type_value=...)
    if isinstance(value, DType):
        return value
    if type(value) is int:
        found = _BY_ENUM.get(value)
    elif isinstance(value, str):
        found = _BY_NAME.get(value)
    else:
        found = _BY_PYTHON_TYPE.get(value) if isinstance(value, type) else _native(value)
    if found is None and value not in _REFUSED:
        try:
            found = _native(np.dtype(value).newbyteorder("="))     # '>f4' is float32 too
        except TypeError:
            found = None
    if found is None:
        known = ", ".join(d.name for d in EVERY)
        raise TypeError(f"Cannot convert {value!r} to a minitape dtype; minitape supports {known}.")
    return found


def _native(value: Any) -> DType | None:
    table = _BY_NATIVE.get(type(value))
    return None if table is None else table.get(value)


def of_array(array: Any) -> DType:
    """The [`DType`][minitape.dtypes.DType] of an array or NumPy scalar (any backend).

    >>> import minitape as tf
    >>> tf.dtypes.of_array(np.ones(3)), tf.dtypes.of_array(np.int32(7))
    (tf.float64, tf.int32)
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
