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

import contextlib
import math
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import numpy as np

from minitape.core import backends, dtypes
from minitape.core.errors import InvalidArgumentError
from minitape.core.messages import conversion_dtype_text, kernel_text, with_hint


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


def empty_beside(array: Any, shape: tuple[int, ...]) -> Any:
    """An array of ``shape``, its values not set, with the dtype and device of ``array`` (made there).

    >>> tf.core.arrays.empty_beside(np.ones(2, np.float32), (3,)).shape
    (3,)
    """
    return backends.namespace(array).empty(shape, dtype=array.dtype, device=backends.device_of(array))


def full_beside(array: Any, shape: tuple[int, ...], value: float | int | bool) -> Any:
    """An array of ``shape`` filled with ``value``, with the dtype and device of ``array`` (made there, not copied).

    >>> tf.core.arrays.full_beside(np.ones(2, np.float32), (3,), 7)
    array([7., 7., 7.], dtype=float32)
    """
    return backends.namespace(array).full(shape, value, dtype=array.dtype, device=backends.device_of(array))


def add_at(updates: Any, indices: np.ndarray, count: int) -> Any:
    """Zeros of ``(outer, count, inner)`` with ``updates`` (``(outer, len(indices), inner)``) added along the
    middle axis at the host ints ``indices``; repeated indices add up (booleans add as "or").

    The one scatter every gather-like op needs for its gradient.

    >>> tf.core.arrays.add_at(np.ones((1, 3, 2), np.float32), np.array([2, 0, 2]), 4)[0]
    array([[1., 1.],
           [0., 0.],
           [2., 2.],
           [0., 0.]], dtype=float32)
    """
    xp = backends.namespace(updates)
    outer, _, inner = updates.shape
    if xp is np and updates.dtype.kind == "f":
        return _add_at_positions(updates, indices, count)
    if hasattr(getattr(xp, "add", None), "at"):          # NumPy and CuPy sum repeated indices in place
        narrow = xp is not np and updates.dtype.kind in "biu" and updates.dtype.itemsize < 4    # CuPy's add.at
        numbers = updates.astype(xp.int64) if narrow else updates          # takes 32 and 64 bits only
        out = full_beside(numbers, (outer, count, inner), 0)
        xp.add.at(out, (slice(None), asarray_beside(updates, indices)), numbers)
        if narrow:                                                          # wrapped around as the narrow type would
            return out != 0 if updates.dtype.kind == "b" else out.astype(updates.dtype)
        return out
    truth = updates.dtype == xp.bool                      # the standard has no scatter: a one-hot product,
    numbers = xp.astype(updates, xp.int32) if truth else updates    # booleans counted as ints then as "any"
    hits = asarray_beside(updates, indices[:, None] == np.arange(count))
    out = xp.matmul(xp.matrix_transpose(xp.astype(hits, numbers.dtype)), numbers)
    return out > 0 if truth else out


# Just an optimization, for NumPy floats: ufunc.at adds at 1-d positions far faster than at rows of a 2-d
# array (an embedding's gradient, 256 rows of 32 into 55: 12 µs against 57), each position receiving its
# numbers in the same order, so the same bits.  benchmarks/sequence.py's backward pass takes 0.97× the time,
# the step 0.985× (CPU-time medians of 300 steps, 10 rounds of paired fresh processes).
def _add_at_positions(updates: np.ndarray, indices: np.ndarray, count: int) -> np.ndarray:
    """``add_at`` for a NumPy float array, each number added at its position in the flat output."""
    outer, _, inner = updates.shape
    rows = np.arange(outer)[:, None, None] * count + indices[None, :, None]
    out = np.zeros(outer * count * inner, updates.dtype)
    np.add.at(out, (rows * inner + np.arange(inner)).reshape(-1), updates.reshape(-1))
    return out.reshape(outer, count, inner)


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


def integers(value: Any, what: str, error: type[Exception] = TypeError) -> np.ndarray:
    """``value`` (ints, nested lists of ints, an integer array) as a NumPy array of int64, on the host.

    Floats are refused, never truncated: TensorFlow refuses them too, with a ``TypeError``
    where it converts the value to int32 itself and an ``InvalidArgumentError`` where its
    kernel meets a float tensor (``error`` says which).  Booleans are ints where TF converts
    (``tf.zeros((True,))``), but a kernel refuses them too.  ``None``, strings and ragged lists
    are a ``ValueError``, as converting them to a tensor is.

    >>> from minitape.core import arrays
    >>> arrays.integers([2, 3], "zeros: shape")
    array([2, 3])
    >>> arrays.integers((2.5,), "zeros: shape")
    Traceback (most recent call last):
    ...
    TypeError: zeros: shape must hold integers, got (2.5,); pass Python ints or an int32/int64 tensor (round or tf.cast a float first).
    """
    try:
        array = np.asarray(value)
    except (TypeError, ValueError):      # ragged lists
        array = np.asarray(None)
    if array.size == 0 and array.dtype.kind == "f" and not isinstance(value, np.ndarray | np.generic):
        array = array.astype(np.int64)   # () and [] hold no float: NumPy just calls them float64
    if array.dtype.kind == "f" or (array.dtype.kind == "b" and error is InvalidArgumentError):
        raise error(f"{what} must hold integers, got {value!r}; pass Python ints or an int32/int64 tensor "
                    f"(round or tf.cast a float first).")
    if array.dtype.kind not in "iub":
        raise ValueError(f"{what} must hold integers, got {value!r} of type {type(value).__name__}; pass Python "
                         f"ints or an int32/int64 tensor.")
    return array.astype(np.int64)


def dimensions(value: Any, what: str, error: type[Exception] = TypeError, unknown: bool = False) -> tuple[int, ...]:
    """A shape (an int, a list of ints or an integer vector) as a tuple of Python ints, each at least 0.

    With ``unknown``, one size may be -1, to be worked out (``reshape``).  Non-integers are
    refused as ``integers`` refuses them.

    >>> from minitape.core import arrays
    >>> arrays.dimensions(3, "zeros: shape"), arrays.dimensions([2, -1], "reshape: shape", unknown=True)
    ((3,), (2, -1))
    >>> arrays.dimensions([2, -1], "zeros: shape")
    Traceback (most recent call last):
    ...
    minitape.core.errors.InvalidArgumentError: zeros: shape (2, -1) has a negative size; every dimension must be >= 0.
    """
    array = integers(value, what, error)
    if array.ndim > 1:
        raise InvalidArgumentError(f"{what} must be a vector of sizes (rank 0 or 1), got {value!r} of rank "
                                   f"{array.ndim}; flatten it first.")
    dims = tuple(int(n) for n in array.reshape(-1))
    if dims and min(dims) < (-1 if unknown else 0):
        allowed = "; only one may be -1 (to be worked out)" if unknown else ""
        raise InvalidArgumentError(f"{what} {dims} has a negative size; every dimension must be >= 0{allowed}.")
    return dims


def shaped(array: np.ndarray, shape: Any) -> np.ndarray:
    """``array`` in the ``shape`` asked of ``tf.constant``: one value fills it, as many as it holds fill it in order.

    >>> from minitape.core import arrays
    >>> arrays.shaped(np.arange(4), (2, 2)).tolist(), arrays.shaped(np.array(7), 3).tolist()
    ([[0, 1], [2, 3]], [7, 7, 7])
    """
    dims = dimensions(shape, "constant: shape")
    if array.size == math.prod(dims):
        return array.reshape(dims)
    if array.size == 1:
        return np.broadcast_to(array.reshape(()), dims).copy()
    raise TypeError(f"constant: the value has {array.size} elements, but shape {dims} holds {math.prod(dims)}; "
                    f"give one value (to fill the shape) or as many as the shape holds.")


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


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """The block without NumPy's floating-point warnings, as ``quietly`` runs one op.

    A backward pass that runs only ops runs in one (``GradientTape.gradient``), so that each op
    need not make NumPy quiet itself.

    >>> with tf.core.arrays.quiet():
    ...     np.float32(1.0) / np.float32(0.0)
    np.float32(inf)
    """
    if NUMPY_ERRSTATE is None:
        with np.errstate(all="ignore"):
            yield
        return
    token = NUMPY_ERRSTATE.set(IGNORE)
    try:
        yield
    finally:
        NUMPY_ERRSTATE.reset(token)


# Just an optimization, fenced: np.errstate(all="ignore") builds NumPy's error state anew on every use
# (about 1.4 µs, more than a small op itself costs).  NumPy 2 keeps that state in a context variable;
# quietly(), quiet() and apply's fast path set it to one "ignore" state made here by errstate (about 0.3 µs).
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


def check_update(variable: str, method: str, target: Any, value: Any, shown: Any = None) -> None:
    """Raise unless ``value`` may replace (``assign``) or update a variable's array ``target``, as TF's variables demand.

    It must live on the same device, have the same dtype (TF converts Python values, never
    tensors: ``shown`` is the tensor given) and the same shape.  The messages are TF's; what to
    do is a note.

    >>> tf.core.arrays.check_update("v:0", "assign_add", np.ones(2, np.float32), np.ones(3, np.float32))
    Traceback (most recent call last):
    ...
    minitape.core.errors.InvalidArgumentError: {{function_node __wrapped__AssignAddVariableOp_device_/job:localhost/replica:0/task:0/device:CPU:0}} Cannot update variable with shape [2] using a Tensor with shape [3], shapes must be equal. [Op:AssignAddVariableOp]...
    """
    check_same_device(f"{method} to variable '{variable}'", (target, value))
    want, have = dtypes.of_array(target), dtypes.of_array(value)
    if have is not want:
        raise with_hint(ValueError(conversion_dtype_text(want.name, have.name, shown)),
                        f"{method} to variable '{variable}': minitape never converts silently. "
                        f"Use tf.cast(value, tf.{want.name}) first.")
    if value.shape == target.shape or method not in ("assign", "assign_add", "assign_sub"):
        return          # a part of a variable (v[1:].assign) is checked against that part, by its caller
    if method == "assign":       # TF's text, its odd spaces included
        raise with_hint(ValueError(f"Cannot assign value to variable ' {variable}': Shape mismatch.The variable shape "
                                   f"{tuple(target.shape)}, and the assigned value shape {tuple(value.shape)} are "
                                   f"incompatible."), f"Give a value of shape {tuple(target.shape)}, or assign to a "
                                                      f"part of the variable: v[1:3].assign(value).")
    kernel = "AssignAddVariableOp" if method == "assign_add" else "AssignSubVariableOp"
    text = (f"Cannot update variable with shape {listed(target.shape)} using a Tensor with shape "
            f"{listed(value.shape)}, shapes must be equal.")
    raise with_hint(InvalidArgumentError(kernel_text(kernel, text, device=backends.backend_of(target).device_name)),
                    f"{method} to variable '{variable}': an update never broadcasts; give a value of the "
                    f"variable's shape, {tuple(target.shape)}.")


def listed(shape: tuple[int, ...]) -> str:
    """A shape as TF's kernels print it.

    >>> tf.core.arrays.listed((2, 3))
    '[2,3]'
    """
    return "[" + ",".join(str(n) for n in shape) + "]"


def _how_to_join(place: backends.Backend) -> str:
    """What to do when a tensor meets one that lives on ``place``."""
    if place is backends.NUMPY:
        return "Bring the other to the host with x.cpu()."
    if place.kind == "GPU":
        return f"Copy the other there with tf.to_device(x, 'GPU:{place.index}'), or both to the host with .cpu()."
    return "Bring both to the host with .cpu()."
