"""Arrays of any backend: the few things minitape does with them besides the op table's rules.

Moving values to and from the host, making an array beside another (same
library, same device), measuring a buffer, and refusing to mix devices: each
works on NumPy, CuPy and any array API library alike (see
[`minitape.core.backends`][minitape.backends]).

>>> from minitape.core import arrays
>>> arrays.full_beside(np.zeros(2, np.float32), (3,), 7)
array([7., 7., 7.], dtype=float32)
"""
from __future__ import annotations

import math
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

from minitape.core import backends, dtypes
from minitape.core.errors import InvalidArgumentError


def namespace_of_inputs(name: str, arrays: list) -> ModuleType:
    """The one namespace that holds an op's input ``arrays``; inputs from two places are an error.

    >>> from minitape.core import arrays
    >>> arrays.namespace_of_inputs("add", [np.ones(2), np.float32(1)]).__name__
    'numpy'
    """
    xp = backends.by_type.get(type(arrays[0])) or backends.namespace(arrays[0])
    for array in arrays:
        if backends.by_type.get(type(array)) is not xp:      # another library, or a type not seen yet
            check_same_device(name, tuple(arrays))
    return xp


def to_numpy(array: Any) -> np.ndarray:
    """The values of any backend's array, as a NumPy array on the host.

    >>> tf.core.arrays.to_numpy(tf.backends.get("array_api_strict").xp.ones(2))
    array([1., 1.])
    """
    if backends.by_type.get(type(array)) is np:
        return np.asarray(array)
    return backends.backend_of(array).to_numpy(array)


def transfer(array: Any, target: backends.Backend) -> Any:
    """A copy of ``array`` on ``target``, through the host.

    >>> tf.core.arrays.transfer(np.ones(2), tf.backends.get("array_api_strict"))
    Array([1., 1.], dtype=array_api_strict.float64)
    """
    return target.from_numpy(to_numpy(array))


def asarray_beside(array: Any, host: np.ndarray) -> Any:
    """``host`` (a NumPy array) as an array of the namespace and device of ``array``; no copy on NumPy.

    >>> tf.core.arrays.asarray_beside(tf.backends.get("array_api_strict").xp.ones(2), np.zeros(2))
    Array([0., 0.], dtype=array_api_strict.float64)
    """
    xp = backends.namespace(array)
    return host if xp is np else xp.asarray(host, device=backends.device_of(array))


def full_beside(array: Any, shape: tuple[int, ...], value: float | int | bool) -> Any:
    """An array of ``shape`` filled with ``value``, with the dtype and device of ``array`` (made there, not copied).

    >>> tf.core.arrays.full_beside(np.ones(2, np.float32), (3,), 7)
    array([7., 7., 7.], dtype=float32)
    """
    return backends.namespace(array).full(shape, value, dtype=array.dtype, device=backends.device_of(array))


def nbytes(array: Any) -> int:
    """Bytes of the buffer behind ``array`` (the standard has no ``nbytes``: size times item size).

    >>> tf.core.arrays.nbytes(np.ones(3, np.float32)), tf.core.arrays.nbytes(np.float64(1.0))
    (12, 8)
    """
    scalar = backends.SCALARS.get(type(array))
    if scalar is not None:
        return scalar.itemsize      # asking a NumPy scalar builds its dtype first
    try:
        return int(array.nbytes)
    except AttributeError:
        return math.prod(array.shape) * dtypes.of_array(array).size


def quietly(forward: Callable, *args: Any, **params: Any) -> Any:
    """``forward(*args, **params)`` without NumPy's floating-point warnings; ``apply`` runs every op so.

    NumPy warns on ``1/0``, ``inf * 0``, ``inf - inf``, ``log(-1)`` and overflow; TensorFlow's
    kernels give the inf or nan without a word.

    >>> tf.core.arrays.quietly(np.multiply, np.float32(np.inf), np.float32(0.0))
    np.float32(nan)
    """
    if NUMPY_ERRSTATE is None:
        with np.errstate(all="ignore"):
            return forward(*args, **params)
    token = NUMPY_ERRSTATE.set(IGNORE)
    try:
        return forward(*args, **params)
    finally:
        NUMPY_ERRSTATE.reset(token)


# Just an optimization, fenced: np.errstate(all="ignore") builds NumPy's error state anew on every use
# (about 1.4 µs, more than a small op itself costs).  NumPy 2 keeps that state in a context variable;
# quietly() and apply's fast path set it to one "ignore" state made here by errstate (about 0.3 µs).
# Should the variable move in another NumPy, quietly() uses errstate and the fast path stands aside.
try:
    from numpy._core.umath import _extobj_contextvar as NUMPY_ERRSTATE
    with np.errstate(all="ignore"):
        IGNORE = NUMPY_ERRSTATE.get()
except ImportError:
    NUMPY_ERRSTATE = None


def check_same_device(name: str, arrays: tuple) -> None:
    """Raise unless every array lives in one backend: minitape never copies between devices by itself.

    >>> tf.core.arrays.check_same_device("add", (np.ones(2), tf.backends.get("array_api_strict").xp.ones(2)))
    Traceback (most recent call last):
    minitape.core.errors.InvalidArgumentError: add: input 0 is on ... (numpy) but input 1 ... (array_api_strict); ...
    """
    places = [backends.backend_of(a) for a in arrays]
    for k, place in enumerate(places):
        if place is not places[0]:
            raise InvalidArgumentError(
                f"{name}: input 0 is on {places[0].device_name} ({places[0].name}) but input {k} is on "
                f"{place.device_name} ({place.name}); minitape never copies between devices silently. "
                f"{_how_to_join(places[0])}")


def _how_to_join(place: backends.Backend) -> str:
    """What to do when a tensor meets one that lives on ``place``."""
    if place is backends.NUMPY:
        return "Bring the other to the host with x.cpu()."
    if place.kind == "GPU":
        return f"Copy the other there with tf.to_device(x, 'GPU:{place.index}'), or both to the host with .cpu()."
    return "Bring both to the host with .cpu()."
