"""Python values to arrays, by TensorFlow's rules: the dtype a literal gets, and what is refused.

``tf.constant`` and every op that takes a Python number or list come here (through
``minitape.core.tensor.array_on``).  Floats become float32 and ints int32, as in TF; a
nested list must be rectangular; None, strings and objects are refused with TF's words.

>>> from minitape.core.conversion import default_dtype, to_array
>>> value = [[1, 2], [3, 4]]
>>> to_array(value, default_dtype(value)).dtype
dtype('int32')
>>> to_array([[1, 2], [3]], None)
Traceback (most recent call last):
...
ValueError: Can't convert non-rectangular Python sequence to Tensor.
Every row of a nested list needs the same length, down to numbers; for rows of different lengths TF has tf.ragged.constant.
"""
from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from minitape.core import dtypes
from minitape.core.messages import with_hint


OUT_OF_RANGE = "Can't convert Python sequence with out-of-range integer to Tensor."
FLOAT_OUT_OF_RANGE = "Can't convert Python sequence with a value out of range for a double-precision float."
MIXED_TYPES = "Can't convert Python sequence with mixed types to Tensor."
_BOOLS = {bool, np.bool_}
_FLOAT32_MAX = float(np.finfo(np.float32).max)


def default_dtype(value: Any) -> np.dtype | None:
    """TF's dtype for a Python literal (float32 for floats...), or None to let NumPy decide.

    Where TF infers no dtype it refuses, with its words: a bool among numbers, an int beyond
    int64, a float beyond float32 (given ``dtype=tf.float32`` such a float is inf, as in TF).

    >>> default_dtype([1, 2**40]), default_dtype([1.0, 2])
    (dtype('int64'), dtype('float32'))
    >>> default_dtype([True, 2])
    Traceback (most recent call last):
    ...
    ValueError: Can't convert Python sequence with mixed types to Tensor.
    A list of bools holds bools only; to mix them with numbers, give a dtype, e.g. tf.constant([True, 2], tf.int32).
    """
    try:
        found = dtypes.for_python_value(value)
    except (TypeError, ValueError):
        return None
    if found is None:
        return None
    numbers = _numbers(value)
    kinds = set(map(type, numbers))
    if kinds & _BOOLS and kinds - _BOOLS:
        raise with_hint(ValueError(MIXED_TYPES), "A list of bools holds bools only; to mix them with numbers, "
                                                 "give a dtype, e.g. tf.constant([True, 2], tf.int32).")
    if int in kinds and _beyond_int64(numbers):
        raise _out_of_range()
    if float in kinds and found == np.float32:
        magnitudes = np.abs(np.array([n for n in numbers if type(n) is float]))
        if np.any((magnitudes > _FLOAT32_MAX) & np.isfinite(magnitudes)):
            raise with_hint(ValueError(FLOAT_OUT_OF_RANGE), "A Python float becomes float32, whose largest value is "
                                                            "about 3.4e38; give dtype=tf.float64 for a larger one.")
    return found


def _numbers(value: Any) -> list:
    """The numbers of a scalar or a nested list that NumPy has read as a box, one depth at a time."""
    level = list(value) if isinstance(value, list | tuple) else [value]
    while level and isinstance(level[0], list | tuple):
        level = list(itertools.chain.from_iterable(level))
    return level


def _beyond_int64(numbers: list) -> bool:
    """Whether a Python int among ``numbers`` is beyond int64 (TF wraps a smaller one into a narrower dtype)."""
    ints = [n for n in numbers if type(n) is int]
    return bool(ints) and (max(ints) >= 2**63 or min(ints) < -(2**63))


def _out_of_range() -> ValueError:
    return with_hint(ValueError(OUT_OF_RANGE), "TF's integers are 64 bits at most; use a float for a number this big.")


def to_array(value: Any, dtype: np.dtype | None) -> np.ndarray:
    """``value`` (a number, nested list or NumPy array) as a new NumPy array of ``dtype``.

    With ``dtype`` None NumPy picks it, kept to TF's dtypes; ``array_on`` passes ``default_dtype(value)``.

    >>> to_array(1.5, np.dtype("float32")), to_array([1, 2], np.dtype("float64"))
    (array(1.5, dtype=float32), array([1., 2.]))
    """
    if dtype == object or is_text(value):
        return text_array(value, dtype)
    if value is None:
        raise unsupported(value)
    if isinstance(value, np.ndarray | np.generic) and not value.dtype.isnative:
        value = value.astype(value.dtype.newbyteorder("="))    # big-endian data: TF reads it in the machine's order
    try:
        array = _wrapping(value, dtype)
    except OverflowError:
        raise _out_of_range() from None
    except (TypeError, ValueError) as error:
        problem = sequence_problem(value)
        raise (with_hint(ValueError(problem), "Every row of a nested list needs the same length, down to "
                                              "numbers; for rows of different lengths TF has tf.ragged.constant.")
               if problem else unsupported(value)) from error
    if array.dtype == object and all(type(n) is int for n in array.flat):
        raise _out_of_range()
    if array.dtype == object or array.dtype.kind not in "fiub":
        raise unsupported(value)
    if array.dtype.kind == "f" and isinstance(value, list | tuple) and np.isnan(array).any():
        if np.array(value).dtype == object:          # NumPy turned a None into nan: TF refuses it
            raise unsupported(value)
    if dtype is None:
        array = array.astype(dtypes.as_dtype(array.dtype).as_numpy_dtype_, copy=False)
    elif not _converts_exactly(value, array):
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {array.dtype.name}")
    return array


def is_text(value: Any) -> bool:
    """Whether ``value`` is text: a ``str`` or ``bytes``, a NumPy array of them, or a nested list starting with one.

    >>> is_text("hi"), is_text([[b"a"], [b"b"]]), is_text(np.array(["a"])), is_text([1.0]), is_text(np.array([[]]))
    (True, True, True, False, False)
    """
    if isinstance(value, np.ndarray | np.generic):        # a string tensor's own array is of objects
        return value.dtype.kind in "SU" or (value.dtype == object and all(isinstance(v, bytes) for v in value.flat))
    while isinstance(value, list | tuple) and value:       # the first element, down to the bottom
        value = value[0]
    return isinstance(value, str | bytes)


def text_array(value: Any, dtype: np.dtype | None) -> np.ndarray:
    """``value`` as the array of a ``tf.string`` tensor: NumPy's object array of ``bytes``, ``str`` encoded as UTF-8.

    Numbers among the text, or text where a number's dtype is asked for, are refused as TF refuses them.

    >>> text_array(["hé", b"b"], None)
    array([b'h\\xc3\\xa9', b'b'], dtype=object)
    >>> text_array(["a", 1], None)
    Traceback (most recent call last):
    ...
    ValueError: Can't convert Python sequence with mixed types to Tensor.
    A string tensor holds text only: give every element as a str (or bytes).
    """
    if dtype is not None and dtype != object:
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
    problem = sequence_problem(value)
    if problem:
        raise with_hint(ValueError(problem), "Every row of a nested list needs the same length, down to the "
                                             "strings; for rows of different lengths TF has tf.ragged.constant.")
    items = np.array(value, dtype=object)
    if not all(isinstance(item, str | bytes) for item in items.flat):
        if not is_text(value):
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype string")
        raise with_hint(ValueError(MIXED_TYPES), "A string tensor holds text only: give every element as a str "
                                                 "(or bytes).")
    text = np.empty(items.shape, dtype=object)
    text.flat[:] = [item.encode() if isinstance(item, str) else bytes(item) for item in items.flat]
    return text


def sequence_problem(value: Any) -> str | None:
    """TF's words for a nested list that is not a box of numbers, or None if it is one.

    TF reads the shape off the first element at each depth: a later element that is shorter,
    longer or a number where a list was is "non-rectangular"; a list where a number was is "mixed types".

    >>> sequence_problem([[1, 2], [3]]), sequence_problem([1, [2]]), sequence_problem([[1], [2]])
    ("Can't convert non-rectangular Python sequence to Tensor.", "Can't convert Python sequence with mixed types to Tensor.", None)
    """
    if not isinstance(value, list | tuple):
        return None
    shape, first = [], value
    while isinstance(first, list | tuple):
        shape.append(len(first))
        if not first:
            break
        first = first[0]
    pending = [(value, 0)]
    while pending:
        node, depth = pending.pop()
        is_sequence = isinstance(node, list | tuple)
        if depth == len(shape):
            if is_sequence:
                return "Can't convert Python sequence with mixed types to Tensor."
        elif not is_sequence or len(node) != shape[depth]:
            return "Can't convert non-rectangular Python sequence to Tensor."
        else:
            pending.extend((item, depth + 1) for item in node)
    return None


def _wrapping(value: Any, dtype: np.dtype | None) -> np.ndarray:
    """``np.array(value, dtype)``, except that ints too big for an integer dtype wrap around, as in TF (uint8: 300 -> 44).

    A float too big for the float dtype given becomes inf, as in TF; an int beyond int64 is an ``OverflowError``.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        try:
            return np.array(value, dtype=dtype)
        except OverflowError:
            if _beyond_int64(_numbers(value)):
                raise
            wide = np.array(value)
            return wide if wide.dtype == object else wide.astype(dtype)     # object: too big for any integer


def _converts_exactly(value: Any, array: np.ndarray) -> bool:
    """False when a Python/NumPy float would be truncated into an integer dtype."""
    if array.dtype.kind not in "iub":
        return True
    original = np.asarray(value)
    return original.dtype.kind not in "fc" or bool(np.all(original == array))


def unsupported(value: Any) -> ValueError:
    """TF's error for a value that is no number, list or array (None, a string, an object)."""
    explanation = getattr(type(value), "conversion_error", None)     # a symbolic value (Keras') says why itself
    if explanation is not None:
        return ValueError(explanation)
    return ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type ({type(value)}) to a Tensor.")
