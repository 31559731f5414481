"""Arrays of any backend: the few things minitape does with them besides the op table's rules.

Moving values to and from the host, making an array beside another (same
library, same device), measuring a buffer, and refusing to mix devices: each
works on NumPy, CuPy and any array API library alike (see
:mod:`minitape.core.backends`).

>>> from minitape.core import arrays
>>> arrays.full_beside(np.zeros(2, np.float32), (3,), 7)
array([7., 7., 7.], dtype=float32)
"""
from __future__ import annotations

import contextlib
import math
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


def quiet() -> contextlib.AbstractContextManager:
    """NumPy (and libraries built on it) warn on ``1/0`` and ``log(-1)``; TensorFlow gives inf/nan silently.

    >>> with tf.core.arrays.quiet():
    ...     np.log(np.array([-1.0, 0.0]))
    array([ nan, -inf])
    """
    return np.errstate(all="ignore")


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
