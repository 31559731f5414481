"""Backends: where a tensor's numbers live.

minitape keeps every tensor's value in an array of some array library (its
*namespace*, ``xp``), NumPy by default.  The op table never names NumPy: each
forward rule receives the namespace of its inputs, found here.

>>> from minitape import backends
>>> backends.namespace(np.zeros(3)) is np
True
"""
from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

#: Array type to namespace.  NumPy scalars count too: ops on 0-d arrays return them.
by_type: dict[type, ModuleType] = {np.ndarray: np}
by_type.update({np.dtype(name).type: np for name in ("float16", "float32", "float64", "int32", "int64", "bool")})


def namespace(array: Any) -> ModuleType:
    """The array namespace (``numpy``, ``cupy``...) that owns ``array``."""
    found = by_type.get(type(array))
    if found is not None:
        return found
    if isinstance(array, np.generic | np.ndarray):
        return np
    raise TypeError(f"minitape cannot hold an array of type {type(array).__name__!r}.")


def nbytes(array: Any) -> int:
    """Bytes of the buffer behind ``array``."""
    return int(array.nbytes)
