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

from typing import Any

import numpy as np

from minitape.core import dtypes
from minitape.core.messages import with_hint


def default_dtype(value: Any) -> np.dtype | None:
    """TF's dtype for a Python literal (float32 for floats...), or None to let NumPy decide."""
    try:
        return dtypes.for_python_value(value)
    except (TypeError, ValueError):
        return None


OUT_OF_RANGE = "Can't convert Python sequence with out-of-range integer to Tensor."


def to_array(value: Any, dtype: np.dtype | None) -> np.ndarray:
    """``value`` (a number, nested list or NumPy array) as a new NumPy array of ``dtype``.

    With ``dtype`` None NumPy picks it, kept to TF's dtypes; ``array_on`` passes ``default_dtype(value)``.

    >>> to_array(1.5, np.dtype("float32")), to_array([1, 2], np.dtype("float64"))
    (array(1.5, dtype=float32), array([1., 2.]))
    """
    if isinstance(value, str | bytes) or value is None:
        raise unsupported(value)
    try:
        array = _wrapping(value, dtype)
    except (TypeError, ValueError) as error:
        problem = sequence_problem(value)
        raise (with_hint(ValueError(problem), "Every row of a nested list needs the same length, down to "
                                              "numbers; for rows of different lengths TF has tf.ragged.constant.")
               if problem else unsupported(value)) from error
    if array.dtype == object and all(type(n) is int for n in array.flat):
        raise with_hint(ValueError(OUT_OF_RANGE), "TF's integers are 64 bits at most; use a float for a number this big.")
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
    """``np.array(value, dtype)``, except that ints too big for an integer dtype wrap around, as in TF (uint8: 300 -> 44)."""
    try:
        return np.array(value, dtype=dtype)
    except OverflowError:
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
