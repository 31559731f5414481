"""Shapes: the same values, arranged differently.

Each op here moves values without changing them, so its derivative moves the
gradient back: a reshape's VJP reshapes to the input's shape, a transpose's
VJP applies the inverse permutation.

>>> import minitape as tf
>>> tf.reshape(tf.range(6), (2, 3)).shape
TensorShape([2, 3])
"""
from __future__ import annotations

import builtins
import math
from collections.abc import Sequence
from typing import Any

from minitape.core.errors import InvalidArgumentError
from minitape.core.primitive import Op, apply
from minitape.core.tensor import Tensor
from minitape.ops.arguments import as_axes, as_axis, as_operand, as_shape, count, ints

_RESHAPE = Op("reshape", lambda xp, x, shape: xp.reshape(x, shape), (lambda g, ans, x, shape: reshaped(g, x.shape),))




def reshaped(x: Tensor, shape: Sequence[int]) -> Tensor:
    """The reshape primitive for a shape known to fit (derivatives use it: no checks to pay)."""
    return apply(_RESHAPE, (x,), {"shape": tuple(shape)})


def reshape(tensor: Any, shape: Any, name: str | None = None) -> Tensor:
    """The same values in a new shape (one dimension may be -1).

    >>> tf.reshape(tf.range(6), (2, 3)).shape
    TensorShape([2, 3])
    """
    x = as_operand(tensor, "reshape")
    shape = as_shape(shape, "reshape", error=InvalidArgumentError, unknown=True)
    size = count(x, builtins.range(x.ndim))
    known = math.prod(n for n in shape if n != -1)
    unknown = shape.count(-1)
    fits = (unknown == 0 and known == size) or (unknown == 1 and known > 0 and size % known == 0)
    if not fits:
        raise InvalidArgumentError(f"reshape: cannot reshape a tensor of shape {tuple(x.shape)} "
                                   f"({size} values) to {shape}.")
    return apply(_RESHAPE, (x,), {"shape": shape})


def inverse_permutation(perm: tuple[int, ...]) -> tuple[int, ...]:
    """The permutation that undoes ``perm``."""
    return tuple(sorted(builtins.range(len(perm)), key=perm.__getitem__))


_TRANSPOSE = Op("transpose", lambda xp, x, perm: xp.permute_dims(x, perm),
                (lambda g, ans, x, perm: transpose(g, inverse_permutation(perm)),))


def transpose(a: Any, perm: Any = None, name: str | None = None) -> Tensor:
    """Permute the axes (default: reverse them).

    >>> tf.transpose([[1.0, 2.0]]).shape
    TensorShape([2, 1])
    """
    x = as_operand(a, "transpose")
    if perm is None:
        perm = tuple(reversed(builtins.range(x.ndim)))
    perm = ints(perm, "transpose", "perm", InvalidArgumentError)
    if sorted(perm) != list(builtins.range(x.ndim)):
        raise InvalidArgumentError(f"transpose: perm {perm} is not a permutation of the {x.ndim} axes.")
    return apply(_TRANSPOSE, (x,), {"perm": perm})


def squeeze(input: Any, axis: Any = None, name: str | None = None) -> Tensor:
    """Remove axes of length 1 (all of them, or those in ``axis``).

    >>> tf.squeeze(tf.ones((1, 2, 1))).shape
    TensorShape([2])
    """
    x = as_operand(input, "squeeze")
    axes = builtins.range(x.ndim) if axis is None else as_axes(axis, x.ndim, "squeeze")
    if axis is not None and any(x.shape[a] != 1 for a in axes):
        raise InvalidArgumentError(f"squeeze: cannot squeeze axis {axis} of shape {tuple(x.shape)}: its size is not 1.")
    return reshape(x, tuple(n for a, n in enumerate(x.shape) if not (a in axes and n == 1)))


def expand_dims(input: Any, axis: int, name: str | None = None) -> Tensor:
    """Insert an axis of length 1 at ``axis``.

    >>> tf.expand_dims([1.0, 2.0], 0).shape
    TensorShape([1, 2])
    """
    x = as_operand(input, "expand_dims")
    position = as_axis(axis, x.ndim + 1, "expand_dims", listed=True)      # TF takes [0] too
    shape = list(x.shape)
    shape.insert(position, 1)
    return reshape(x, shape)
