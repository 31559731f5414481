"""Keras 3's dtype rules: which dtype an op's result has, where they differ from TensorFlow's.

TensorFlow refuses ``int32 + float32``; Keras 3 promotes, on JAX's lattice: an integer meets a
float at the float, a wider type wins, and a Python number is *weak* (it takes the other side's
dtype where it can: ``int32 tensor * 2`` stays int32, ``int32 tensor * 2.5`` is float32).  Ops
that only make sense on reals (``mean``, ``sqrt``, ``exp``...) turn integers into float32.

>>> import numpy as np
>>> from minitape.keras.ops.promotion import result_type
>>> result_type(np.int32(1), 2.5), result_type(np.arange(3), np.float64(1.0))
('float32', 'float64')
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape.core import dtypes
from minitape.core.tensor import Tensor, convert_to_tensor
from minitape.ops import cast

FLOATX = "float32"
_INTEGERS = ("bool", "uint8", "uint16", "int8", "int16", "int32", "int64")
_FLOATS = ("float16", "float32", "float64")


def _strong(value: Any) -> str | None:
    """The dtype a tensor or array insists on; None for a Python number (weak)."""
    if isinstance(value, Tensor):
        return value.dtype.name
    if isinstance(value, (np.ndarray, np.generic)):
        return dtypes.as_dtype(value.dtype).name
    if isinstance(value, (bool, int, float)):
        return None
    return convert_to_tensor(value).dtype.name       # a list: its default dtype, as Keras converts it


def _widest(names: list[str], order: tuple[str, ...]) -> str:
    return max(names, key=order.index)


def result_type(*values: Any) -> str:
    """The dtype Keras 3 gives the result of combining ``values`` (tensors, arrays, Python numbers).

    >>> import numpy as np
    >>> from minitape.keras.ops.promotion import result_type
    >>> result_type(np.int32(1), 2), result_type(True, 1), result_type(np.float16(1), np.int64(2))
    ('int32', 'int32', 'float16')
    """
    strong = [name for name in map(_strong, values) if name is not None]
    floats = [name for name in strong if name in _FLOATS]
    if floats:
        return _widest(floats, _FLOATS)
    weak = [value for value in values if _strong(value) is None]
    if any(isinstance(value, float) for value in weak):
        return FLOATX
    integers = [name for name in strong if name in _INTEGERS]
    if integers:
        widest = _widest(integers, _INTEGERS)
        if widest == "bool" and any(not isinstance(value, bool) for value in weak):
            return "int32"
        return widest
    return "bool" if weak and all(isinstance(value, bool) for value in weak) else "int32"


def floating(value: Any) -> str:
    """The dtype of a real-valued op's result on ``value``: its own if floating, else float32.

    >>> from minitape.keras.ops.promotion import floating
    >>> floating([1, 2]), floating(np.float64(1.0))
    ('float32', 'float64')
    """
    name = _strong(value) or FLOATX
    return name if name in _FLOATS else FLOATX


def as_tensor(value: Any, dtype: str | None = None) -> Tensor:
    """``value`` as a tensor of ``dtype`` (its own dtype when None), cast if it has another.

    >>> from minitape.keras.ops.promotion import as_tensor
    >>> as_tensor([1, 2], "float32").dtype
    tf.float32
    """
    exact = isinstance(value, (int, float)) and not isinstance(value, bool)   # 0.1 straight to float64
    tensor = value if isinstance(value, Tensor) else convert_to_tensor(value, dtype=dtype if exact else None)
    return tensor if dtype is None or tensor.dtype.name == dtype else cast(tensor, dtype)


def promoted(*values: Any) -> list[Tensor]:
    """``values`` as tensors of one dtype, the one ``result_type`` gives.

    >>> from minitape.keras.ops.promotion import promoted
    >>> [t.dtype.name for t in promoted([1, 2], 0.5)]
    ['float32', 'float32']
    """
    kind = result_type(*values)
    return [as_tensor(value, kind) for value in values]
