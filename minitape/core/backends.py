"""Backends: where a tensor's numbers live.

A tensor keeps its value in an array of some array library, its *namespace*
``xp``: NumPy by default, CuPy on a GPU, or any library that speaks the
`Python array API standard <https://data-apis.org/array-api/>`_.
array-api-strict, which has nothing *but* the standard, is how the test suite
checks that no NumPy habit hides in the op table.

The op table never names NumPy.  Each forward rule receives the namespace of
its inputs, found from the array's type in one dictionary lookup, and calls
only the standard's functions.  Derivatives are minitape ops, so they run
wherever their inputs live.

A [`Backend`][minitape.backends.Backend] is one place arrays can live: a namespace on one device.
New tensors go to the *current* backend: NumPy unless a ``with`` block says
otherwise.

>>> import minitape as tf
>>> from minitape import backends
>>> backends.current().name
'numpy'
>>> with backends.use("array_api_strict"):
...     x = tf.constant([1.0, 2.0])
>>> type(x._value).__module__, x.device
('array_api_strict._array_object', '/job:localhost/replica:0/task:0/device:CPU:0')
>>> tf.reduce_sum(x * x).numpy()
np.float32(5.0)
"""
from __future__ import annotations

import contextlib
import importlib
import re
import threading
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import array_api_compat
import numpy as np

from minitape.core import dtypes
from minitape.core.errors import DeviceNotFoundError


class Backend:
    """One place arrays live: an array namespace ``xp`` on one device.

    >>> tf.backends.NUMPY
    Backend('numpy', '/job:localhost/replica:0/task:0/device:CPU:0')
    """

    __slots__ = ("name", "xp", "kind", "index", "device", "_to_numpy")

    def __init__(self, name: str, xp: ModuleType, kind: str = "CPU", index: int = 0, device: Any = "cpu",
                 to_numpy: Callable[[Any], np.ndarray] = np.from_dlpack) -> None:
        self.name = name
        self.xp = xp
        self.kind = kind          # "CPU" or "GPU", as TensorFlow names devices
        self.index = index
        self.device = device      # the namespace's own device object, for its ``device=`` arguments
        self._to_numpy = to_numpy

    @property
    def device_name(self) -> str:
        """TensorFlow's full name of the device, e.g. ``/job:localhost/replica:0/task:0/device:GPU:0``.

        >>> tf.backends.NUMPY.device_name
        '/job:localhost/replica:0/task:0/device:CPU:0'
        """
        return f"/job:localhost/replica:0/task:0/device:{self.kind}:{self.index}"

    def dtype(self, dtype: dtypes.DType) -> Any:
        """The namespace's own dtype object for a minitape dtype.

        >>> tf.backends.NUMPY.dtype(tf.float32)
        <class 'numpy.float32'>
        """
        native = getattr(self.xp, dtype.name, None)
        if native is None:
            raise TypeError(f"{self.name} has no {dtype.name} arrays; use tf.cast to a dtype it has "
                            f"(float32 or float64).")
        return native

    def from_numpy(self, array: np.ndarray | np.generic) -> Any:
        """A host (NumPy) value as an array of this backend: a copy, except on NumPy itself.

        >>> tf.backends.get("array_api_strict").from_numpy(np.ones(2))
        Array([1., 1.], dtype=array_api_strict.float64)
        """
        if self.xp is np:
            return array[()] if array.ndim == 0 and array.dtype != object else array     # 0-d: a scalar (faster)
        native = self.dtype(dtypes.as_dtype(array.dtype))
        return self.xp.asarray(array, dtype=native, device=self.device)

    def to_numpy(self, array: Any) -> np.ndarray:
        """A NumPy array with the values of ``array`` (copied to the host when it lives elsewhere).

        >>> strict = tf.backends.get("array_api_strict")
        >>> strict.to_numpy(strict.xp.ones(2))
        array([1., 1.])
        """
        return np.asarray(self._to_numpy(array))

    def __repr__(self) -> str:
        return f"Backend({self.name!r}, {self.device_name!r})"


NUMPY = Backend("numpy", np, to_numpy=np.asarray)

#: Array type to namespace: the op path's one lookup.  NumPy scalars count: 0-d values are kept as them.
by_type: dict[type, ModuleType] = {np.ndarray: np}
by_type.update({scalar: np for scalar in (d.as_numpy_dtype_.type for d in dtypes.ALL)})

#: NumPy's scalar types (0-d values are kept as these), each with its one dtype.  The op path asks
#: a value's type rather than its ``.dtype``, which a NumPy scalar builds anew each time.
SCALARS: dict[type, np.dtype] = {d.as_numpy_dtype_.type: d.as_numpy_dtype_ for d in dtypes.ALL}

#: The op path's quick test of "can this be differentiated?": NumPy's floating scalar types and
#: the classes of its floating dtypes (NumPy gives each dtype a class of its own).  Other libraries'
#: values miss it and ask ``is_floating``.  Classes, not dtypes, so that no other library's
#: dtype is ever compared with NumPy's.
FLOATING: frozenset[type] = frozenset(
    kind for d in dtypes.ALL if d.is_floating for kind in (d.as_numpy_dtype_.type, type(d.as_numpy_dtype_)))

_by_namespace: dict[ModuleType, Backend] = {np: NUMPY}
_by_name: dict[str, Backend] = {"numpy": NUMPY}


def register(backend: Backend, array_type: type) -> Backend:
    """Teach minitape a backend: its array type, and its dtypes as minitape dtypes.

    >>> strict = tf.backends.get("array_api_strict")      # get() registers the libraries it imports
    >>> tf.backends.register(strict, type(strict.xp.ones(1))) is strict
    True
    """
    by_type[array_type] = backend.xp
    _by_namespace.setdefault(backend.xp, backend)
    _by_name.setdefault(backend.name, backend)
    for d in dtypes.ALL:
        native = getattr(backend.xp, d.name, None)
        if native is not None:
            dtypes.register_native(native, d)
    return backend


def is_floating(array: Any) -> bool:
    """Whether ``array`` holds floating-point numbers: only those are differentiated.

    >>> tf.backends.is_floating(np.ones(2)), tf.backends.is_floating(np.int32(1))
    (True, False)
    """
    return type(array) in FLOATING or type(array.dtype) in FLOATING or dtypes.of_array(array).is_floating


def namespace(array: Any) -> ModuleType:
    """The array namespace (``numpy``, ``array_api_strict``...) that owns ``array``.

    >>> tf.backends.namespace(np.ones(2)).__name__
    'numpy'
    """
    found = by_type.get(type(array))
    if found is not None:
        return found
    if isinstance(array, np.generic | np.ndarray):
        return np
    try:
        xp = array_api_compat.array_namespace(array)
    except TypeError:
        raise TypeError(f"minitape cannot hold an array of type {type(array).__name__!r}.") from None
    if xp not in _by_namespace:
        raise TypeError(f"minitape has no backend for {type(array).__name__!r} arrays; it knows "
                        f"{', '.join(sorted(_by_name))}. Add one with minitape.backends.get({xp.__name__!r}).")
    by_type[type(array)] = xp
    return xp


def backend_of(array: Any) -> Backend:
    """The backend (namespace and device) that holds ``array``.

    >>> tf.backends.backend_of(np.ones(2))
    Backend('numpy', '/job:localhost/replica:0/task:0/device:CPU:0')
    """
    xp = namespace(array)
    if xp is np:
        return NUMPY
    home = _by_namespace[xp]
    place = device_of(array)
    return home if place == home.device else _elsewhere(home, place)


def _elsewhere(home: Backend, place: Any) -> Backend:
    """The backend for a second (third...) device of ``home``'s library: GPU:1, or a test library's."""
    if home.kind == "GPU":
        return gpu(int(place.id))
    known = [b for b in _by_name.values() if b.xp is home.xp]
    found = next((b for b in known if b.device == place), None)
    if found is None:
        found = Backend(home.name, home.xp, home.kind, index=len(known), device=place, to_numpy=home._to_numpy)
        _by_name[f"{home.name}:{found.index}"] = found
    return found


#: The namespace's device object of an array (NumPy scalars included): for ``device=`` arguments.
device_of: Callable[[Any], Any] = array_api_compat.device


# --------------------------------------------------------------------------- choosing where new tensors go

class _Current(threading.local):
    def __init__(self) -> None:
        self.stack: list[Backend] = [NUMPY]


_current = _Current()


def current() -> Backend:
    """Where new tensors go now: NumPy, unless inside [`use`][minitape.backends.use] or ``tf.device``.

    >>> tf.backends.current().name
    'numpy'
    """
    return _current.stack[-1]


@contextlib.contextmanager
def use(backend: Backend | str) -> Iterator[Backend]:
    """Inside the block, new tensors and variables go to ``backend``.

    ``backend`` is a [`Backend`][minitape.backends.Backend] or its name.

    >>> with tf.backends.use("array_api_strict"):
    ...     type(tf.constant(1.0)._value).__name__
    'Array'
    """
    chosen = backend if isinstance(backend, Backend) else get(backend)
    _current.stack.append(chosen)
    try:
        yield chosen
    finally:
        _current.stack.pop()


def get(name: str) -> Backend:
    """A backend by name: ``"numpy"``, ``"cupy"`` (GPU 0) or any array API library, e.g. ``"array_api_strict"``.

    >>> tf.backends.get("array_api_strict")
    Backend('array_api_strict', '/job:localhost/replica:0/task:0/device:CPU:0')
    """
    found = _by_name.get(name)
    if found is not None:
        return found
    if name == "cupy":
        return gpu(0)
    try:
        xp = importlib.import_module(name)
    except ImportError:
        raise ValueError(f"No backend {name!r}: it is not installed (pip install {name.replace('_', '-')}).") from None
    if not hasattr(xp, "__array_api_version__"):
        raise ValueError(f"{name!r} does not speak the Python array API standard, so minitape cannot use it.")
    sample = xp.asarray(0.0)
    return register(Backend(name, xp, device=device_of(sample)), type(sample))


def device(device_name: str) -> contextlib.AbstractContextManager:
    """TensorFlow's ``tf.device``: inside the block, new tensors and variables go to device ``name``.

    ``"CPU"``/``"CPU:0"`` is NumPy; ``"GPU"``/``"GPU:n"`` is CuPy on CUDA device ``n``.
    Full names such as ``"/job:localhost/replica:0/task:0/device:GPU:0"`` work too.

    >>> with tf.device("CPU:0"):
    ...     tf.constant(1.0).device
    '/job:localhost/replica:0/task:0/device:CPU:0'
    """
    return use(parse_device(device_name))


_DEVICE = re.compile(r"^(?:/job:\w+/replica:\d+/task:\d+)?/?(?:device:)?(CPU|GPU)(?::(\d+))?$", re.IGNORECASE)


def parse_device(name: str | Backend) -> Backend:
    """The backend a TensorFlow device name stands for.

    >>> tf.backends.parse_device("/job:localhost/replica:0/task:0/device:CPU:0").name
    'numpy'
    """
    if isinstance(name, Backend):
        return name
    match = _DEVICE.match(str(name).strip())
    if not match:
        raise ValueError(f"Unknown device {name!r}: say 'CPU:0' or 'GPU:0' (or a full TensorFlow device name).")
    kind, index = match.group(1).upper(), int(match.group(2) or 0)
    if kind == "GPU":
        return gpu(index)
    if index != 0:
        raise DeviceNotFoundError(f"minitape has one CPU device, CPU:0; got {name!r}.")
    return NUMPY


_INSTALL_CUPY = ("pip install 'minitape[gpu]' (CuPy built for CUDA 12; see https://docs.cupy.dev/en/stable/install.html "
                 "for other CUDA versions)")


def gpu(index: int = 0) -> Backend:
    """CuPy on CUDA device ``index``; a clear error when CuPy or the device is missing.

    >>> tf.backends.gpu(99)
    Traceback (most recent call last):
    minitape.core.errors.DeviceNotFoundError: GPU:99 ...
    """
    found = _by_name.get(f"cupy:{index}")
    if found is not None:
        return found
    try:
        cupy = importlib.import_module("cupy")
    except ImportError:
        raise DeviceNotFoundError(f"GPU:{index} needs CuPy, which is not installed: {_INSTALL_CUPY}.") from None
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as error:              # CuPy raises its own CUDARuntimeError when no driver answers
        raise DeviceNotFoundError(f"GPU:{index} needs a CUDA device, and CuPy finds none ({error}).") from None
    if not 0 <= index < count:
        raise DeviceNotFoundError(f"GPU:{index} does not exist: this machine has {count} CUDA device(s).")
    xp = importlib.import_module("array_api_compat.cupy")
    backend = Backend("cupy", xp, kind="GPU", index=index, device=cupy.cuda.Device(index), to_numpy=cupy.asnumpy)
    _by_name[f"cupy:{index}"] = backend
    return register(backend, cupy.ndarray)
