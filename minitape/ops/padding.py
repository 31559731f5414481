"""Padding: ``tf.pad`` puts values around a tensor, axis by axis.

``CONSTANT`` fills the border with one value; ``REFLECT`` and ``SYMMETRIC`` mirror the
tensor's own values at its edge, without and with the edge itself.  Each is built from ops
that already have derivatives: a constant border is concatenated, a mirrored one gathered.
So the gradient of a pad is the gradient of those (the border's share is dropped, a mirrored
value's share is added to the value it copies), and higher derivatives come for free.

>>> import minitape as tf
>>> tf.pad([1, 2, 3], [[2, 1]]).numpy()
array([0, 0, 1, 2, 3, 0], dtype=int32)
>>> tf.pad([1, 2, 3], [[2, 1]], mode="REFLECT").numpy()
array([3, 2, 1, 2, 3, 2], dtype=int32)
>>> tf.pad([1, 2, 3], [[2, 1]], mode="SYMMETRIC").numpy()
array([2, 1, 1, 2, 3, 3], dtype=int32)
"""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from minitape.core import arrays
from minitape.core.errors import InvalidArgumentError
from minitape.core.messages import mixed_dtypes_text, with_hint
from minitape.core.tensor import Tensor
from minitape.ops.arguments import as_operand, ints, like
from minitape.ops.broadcasting import broadcast_to
from minitape.ops.elementwise import stop_gradient
from minitape.ops.indexing import concat, gather

MODES = ("CONSTANT", "REFLECT", "SYMMETRIC")


def pad(tensor: Any, paddings: Any, mode: str = "CONSTANT", constant_values: Any = 0,
        name: str | None = None) -> Tensor:
    """``tensor`` with ``paddings[i] = [before, after]`` values added on each side of axis ``i``.

    >>> tf.pad([[1.0, 2.0]], [[1, 0], [0, 2]], constant_values=9.0).numpy()
    array([[9., 9., 9., 9.],
           [1., 2., 9., 9.]], dtype=float32)
    """
    x = as_operand(tensor, "pad")
    mode = _mode(mode)
    widths = _widths(paddings, x, mode)
    # As TF's PadV2, the fill value gets no gradient (None), only the tensor does.
    fill = stop_gradient(like(constant_values, x, "pad")) if mode == "CONSTANT" else None
    if fill is not None and fill.dtype != x.dtype:
        raise with_hint(InvalidArgumentError(mixed_dtypes_text("PadV2", 2, x.dtype.name, fill.dtype.name, None)),
                        "pad: give constant_values of the tensor's dtype.")
    if fill is not None and fill.ndim:
        raise with_hint(InvalidArgumentError(f"constant_values must be a scalar. Found: {arrays.listed(fill.shape)} "
                                             f"[Op:PadV2]"), "pad: give one number to fill the border with.")
    for axis, (before, after) in enumerate(widths):
        if before or after:
            x = _constant(x, axis, before, after, fill) if fill is not None else _mirrored(x, axis, before, after, mode)
    return x


def _constant(x: Tensor, axis: int, before: int, after: int, fill: Tensor) -> Tensor:
    def border(width: int) -> Tensor:
        shape = list(x.shape)
        shape[axis] = width
        return broadcast_to(fill, shape)
    return concat([border(before), x, border(after)], axis=axis)


def _mirrored(x: Tensor, axis: int, before: int, after: int, mode: str) -> Tensor:
    """Gather along ``axis``: the mirror images of the first and last values, then the values themselves.

    REFLECT mirrors about the edge value (``3 2 | 1 2 3 | 2``), SYMMETRIC repeats it (``2 1 | 1 2 3 | 3``).
    """
    n, skip = x.shape[axis], 1 if mode == "REFLECT" else 0
    first = builtins.range(before - 1 + skip, skip - 1, -1)
    last = builtins.range(n - 1 - skip, n - 1 - skip - after, -1)
    return gather(x, np.array([*first, *builtins.range(n), *last], dtype=np.int64), axis=axis)


def _mode(mode: Any) -> str:
    if not isinstance(mode, str) or mode.upper() not in MODES:
        raise with_hint(ValueError(f'Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or '
                                   f'"SYMMETRIC". Received `mode` = {mode}'), "pad: choose one of those modes.")
    return mode.upper()


def _widths(paddings: Any, x: Tensor, mode: str) -> list[tuple[int, int]]:
    """``paddings`` as one ``(before, after)`` pair per axis, checked as TF's kernels check them."""
    if isinstance(paddings, Tensor) and not paddings.dtype.is_integer:
        raise InvalidArgumentError(f"Value for attr 'Tpaddings' of {paddings.dtype.name} is not in the list of "
                                   f"allowed values: int32, int64 [Op:Pad]")
    flat = ints(paddings, "pad", "paddings", error=InvalidArgumentError)
    shape = np.shape(paddings.numpy() if isinstance(paddings, Tensor) else paddings)
    kernel = "Pad" if mode == "CONSTANT" else "MirrorPad"
    if len(shape) != 2 or shape[1] != 2 or shape[0] != x.ndim:
        raise with_hint(InvalidArgumentError(
            f"The first dimension of paddings must be the rank of inputs{arrays.listed(shape)} "
            f"{arrays.listed(x.shape)} [Op:{kernel}]"),
            f"pad: give one [before, after] pair per axis of the tensor ({x.ndim} pairs).")
    widths = [(flat[2 * i], flat[2 * i + 1]) for i in builtins.range(x.ndim)]
    for (before, after), size in zip(widths, x.shape):
        if before < 0 or after < 0:
            raise InvalidArgumentError(f"Paddings must be non-negative: {before} {after} [Op:{kernel}]")
        if mode == "REFLECT" and max(before, after) >= size:
            raise InvalidArgumentError(f"paddings must be less than the dimension size: {before}, {after} not less "
                                       f"than {size} [Op:MirrorPad]")
        if mode == "SYMMETRIC" and max(before, after) > size:
            raise InvalidArgumentError(f"paddings must be no greater than the dimension size: {before}, {after} "
                                       f"greater than {size} [Op:MirrorPad]")
    return widths
