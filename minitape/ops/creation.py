"""Creation: tensors made from nothing but a shape and a value (nothing to differentiate).

New tensors go to the current device (``tf.device``); the ``_like`` ones go
where their model tensor is.  ``to_device``, the one op that moves a tensor,
is here too: its gradient is the copy back.

>>> import minitape as tf
>>> tf.zeros((2,)).numpy(), tf.ones_like([1, 2]).numpy()
(array([0., 0.], dtype=float32), array([1, 1], dtype=int32))
"""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from minitape.core import arrays, backends, dtypes
from minitape.core.primitive import Discarded, Op, apply
from minitape.core.tensor import Tensor, constant, wrap
from minitape.core.errors import InvalidArgumentError
from minitape.core.messages import kernel_text, with_hint
from minitape.ops.arguments import as_int, as_operand, as_shape, operands, plain


# ---- creation (not differentiable: nothing to differentiate).  New tensors go to the current
# device (``tf.device``); the ``like`` ones go where their model tensor is.

def _filled(shape: tuple[int, ...], value: float | int | bool, dtype: Any, backend: backends.Backend) -> Tensor:
    native = backend.dtype(dtypes.as_dtype(dtype))
    return wrap(backend.xp.full(shape, value, dtype=native, device=backend.device))


def _place_of(x: Tensor | Discarded) -> backends.Backend:
    # A Discarded record has no array, hence no device: its zeros go to the current one.
    return backends.backend_of(x._value) if type(x) is Tensor else backends.current()


def zeros(shape: Any, dtype: Any = dtypes.float32, name: str | None = None) -> Tensor:
    """A tensor of zeros.

    >>> tf.zeros((2,)).numpy()
    array([0., 0.], dtype=float32)
    """
    return _filled(as_shape(shape, "zeros"), 0, dtype, backends.current())


def ones(shape: Any, dtype: Any = dtypes.float32, name: str | None = None) -> Tensor:
    """A tensor of ones.

    >>> tf.ones((2,), tf.int32).numpy()
    array([1, 1], dtype=int32)
    """
    return _filled(as_shape(shape, "ones"), 1, dtype, backends.current())


def zeros_like(input: Any, dtype: Any = None, name: str | None = None) -> Tensor:
    """Zeros with the shape (and dtype) of ``input``, on its device.

    >>> tf.zeros_like([1.0, 2.0]).numpy()
    array([0., 0.], dtype=float32)
    """
    x = input if isinstance(input, Tensor | Discarded) else as_operand(input, "zeros_like")
    return _filled(tuple(x.shape), 0, dtype or x.dtype, _place_of(x))


def ones_like(input: Any, dtype: Any = None, name: str | None = None) -> Tensor:
    """Ones with the shape (and dtype) of ``input``, on its device.

    >>> tf.ones_like([1, 2]).numpy()
    array([1, 1], dtype=int32)
    """
    x = input if isinstance(input, Tensor | Discarded) else as_operand(input, "ones_like")
    return _filled(tuple(x.shape), 1, dtype or x.dtype, _place_of(x))


def fill(dims: Any, value: Any, name: str | None = None) -> Tensor:
    """A tensor of shape ``dims`` filled with ``value`` (whose dtype it takes).

    >>> tf.fill([2], 3).numpy()
    array([3, 3], dtype=int32)
    """
    shape = as_shape(dims, "fill", "dims", InvalidArgumentError)     # TF's Fill kernel meets a float dims
    scalar = constant(value)
    return _filled(shape, scalar.numpy().item(), scalar.dtype, backends.current())


def range(start: Any, limit: Any = None, delta: Any = 1, dtype: Any = None, name: str = "range") -> Tensor:
    # This op shadows Python's range inside this module: code here says builtins.range.
    """Evenly spaced values in ``[start, limit)``: int32 for ints, float32 if any bound is a float.

    >>> tf.range(0, 1, 0.25).numpy()
    array([0.  , 0.25, 0.5 , 0.75], dtype=float32)
    """
    if limit is None:
        start, limit = 0, start
    bounds = [plain(v) for v in (start, limit, delta)]
    for bound in bounds:
        as_operand(bound, "range")          # None, strings: TF's "unsupported type" ValueError
    if dtype is None:
        is_float = builtins.any(isinstance(b, float) or np.asarray(b).dtype.kind == "f" for b in bounds)
        dtype = dtypes.float32 if is_float else dtypes.int32
    _check_direction(*bounds, np_dtype(dtype))
    # Computed on the host, where NumPy's rules for the count of steps are TensorFlow's.
    return wrap(backends.current().from_numpy(np.arange(*bounds, dtype=np_dtype(dtype))))


def _check_direction(start: Any, limit: Any, delta: Any, dtype: np.dtype) -> None:
    """Raise TF's error unless ``delta`` steps from ``start`` towards ``limit`` (or stays, when they are equal)."""
    if not delta:
        problem, hint = f"Requires delta != 0: {_shown(delta, dtype)}", "a step of 0 never reaches limit"
    elif delta > 0 and start > limit:
        problem, hint = "Requires start <= limit when delta > 0", "to count down, give a negative delta"
    elif delta < 0 and start < limit:
        problem, hint = "Requires start >= limit when delta < 0", "to count up, give a positive delta"
    else:
        return
    if delta:
        problem += f": {_shown(start, dtype)}/{_shown(limit, dtype)}"
    raise with_hint(InvalidArgumentError(kernel_text("Range", problem, "", backends.current().device_name)),
                    f"range(start={start!r}, limit={limit!r}, delta={delta!r}): {hint}.")


def _shown(value: Any, dtype: np.dtype) -> str:
    """A bound as TF's kernel prints it: 5, 1.5 (a float with no fraction has no ``.0``)."""
    return str(np.asarray(value).astype(dtype)[()]).removesuffix(".0")


def eye(num_rows: int, num_columns: int | None = None, batch_shape: Any = None, dtype: Any = dtypes.float32,
        name: str | None = None) -> Tensor:
    """The identity matrix (``batch_shape``: that many copies, in front).

    >>> tf.eye(2).numpy()
    array([[1., 0.],
           [0., 1.]], dtype=float32)
    >>> tf.eye(2, 3, batch_shape=[4]).shape.as_list()
    [4, 2, 3]
    """
    rows = as_int(num_rows, "eye", "num_rows", least=0)
    columns = rows if num_columns is None else as_int(num_columns, "eye", "num_columns", least=0)
    if batch_shape is not None and not isinstance(batch_shape, list | tuple | Tensor | np.ndarray):
        raise TypeError(f"eye: batch_shape must be a list of ints such as [3], got {batch_shape!r}.")
    batch = () if batch_shape is None else as_shape(batch_shape, "eye", "batch_shape")
    backend = backends.current()
    native = backend.dtype(dtypes.as_dtype(dtype))
    matrix = backend.xp.eye(rows, columns, dtype=native, device=backend.device)
    return wrap(backend.xp.broadcast_to(matrix, batch + (rows, columns)) if batch else matrix)


def linspace(start: Any, stop: Any, num: Any, name: str | None = None, axis: int = 0) -> Tensor:
    """``num`` evenly spaced values from ``start`` to ``stop`` inclusive.

    Integer bounds give float64, as in TF; tensors of bounds give one range per entry, along ``axis``.

    >>> tf.linspace(0.0, 1.0, 3).numpy()
    array([0. , 0.5, 1. ], dtype=float32)
    >>> tf.linspace(-2, 2, 5)
    <minitape.Tensor: shape=(5,), dtype=float64, numpy=array([-2., -1.,  0.,  1.,  2.])>
    """
    start, stop = operands("linspace", start, stop)
    if start.dtype is dtypes.bool_:
        raise InvalidArgumentError("linspace: start and stop are bool; give numbers, e.g. tf.linspace(0.0, 1.0, 5).")
    target = dtypes.float64 if start.dtype.is_integer else start.dtype      # TF casts integer bounds to float64
    if isinstance(num, Tensor) and not num.dtype.is_integer:
        raise TypeError(f"linspace: Argument `tensor` (name: num) must be of type integer, got {num.dtype.name}.")
    count = as_int(num, "linspace", "num", least=0, listed=True)
    shape = np.broadcast_shapes(tuple(start.shape), tuple(stop.shape))
    position = as_int(axis, "linspace", "axis")
    if not -len(shape) - 1 <= position <= len(shape):
        raise InvalidArgumentError(f"linspace: axis {position} is out of range for bounds of shape {shape} (the "
                                   f"result has rank {len(shape) + 1}).")
    values = np.linspace(start.numpy(), stop.numpy(), count, axis=position, dtype=np_dtype(target))
    return wrap(backends.backend_of(start._value).from_numpy(values))


def np_dtype(dtype: Any) -> np.dtype:
    """The NumPy dtype of a minitape dtype (or anything naming one)."""
    return dtypes.as_dtype(dtype).as_numpy_dtype_


_TO_DEVICE = Op("to_device", lambda xp, x, source, target: x if source is target else arrays.transfer(x, target),
                (lambda g, ans, x, source, target: apply(_TO_DEVICE, (g,), {"source": target, "target": source}),))


def to_device(x: Any, device: str | backends.Backend) -> Tensor:
    """A copy of ``x`` on ``device`` (``"CPU:0"``, ``"GPU:0"``...); its gradient is copied back.

    minitape never moves a tensor by itself: this is how to.  (TensorFlow copies
    silently; this is JAX's ``device_put`` and PyTorch's ``.to``.)

    >>> tf.to_device(tf.constant([1.0]), "CPU:0").device
    '/job:localhost/replica:0/task:0/device:CPU:0'
    """
    x = as_operand(x, "to_device")
    return apply(_TO_DEVICE, (x,), {"source": backends.backend_of(x._value), "target": backends.parse_device(device)})


