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
from minitape.core.messages import with_hint
from minitape.core.primitive import Op, apply
from minitape.core import dtypes
from minitape.core.tensor import Tensor, Variable, constant
from minitape.ops.arguments import as_axes, as_axis, as_operand, as_shape, ints

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
    filled = _filled(tuple(x.shape), shape)
    if isinstance(filled, str):
        raise with_hint(InvalidArgumentError(f"{filled} [Op:Reshape]"),
                        f"reshape: a tensor of shape {tuple(x.shape)} cannot take the shape {shape}; "
                        f"give sizes whose product is {math.prod(x.shape)} (one may be -1).")
    return apply(_RESHAPE, (x,), {"shape": filled})


def _filled(old: tuple[int, ...], shape: tuple[int, ...]) -> tuple[int, ...] | str:
    """``shape`` with its -1 worked out as TF's Reshape kernel does, or TF's words for why it cannot be.

    Sizes of 0 are left out of the products, so ``(0, -1)`` still says what -1 is.

    >>> from minitape.ops.shapes import _filled
    >>> _filled((3, 2, 5), (3, -1)), _filled((0,), (0, -1))
    ((3, 10), (0, 1))
    >>> _filled((3, 2, 5), (7, -1))
    'Input to reshape is a tensor with 30 values, but the requested shape requires a multiple of 7'
    """
    size, unknown = math.prod(old), [k for k, n in enumerate(shape) if n == -1]
    if len(unknown) > 1:
        return f"Only one input size may be -1, not both {unknown[0]} and {unknown[1]}"
    if unknown:
        zero_in_shape = 0 in shape
        product = math.prod(n for n in shape if n > 0)
        counted = math.prod(n for n in old if n > 0 or not zero_in_shape)
        missing = counted // product
        if not (zero_in_shape and 0 in old) and product * missing != counted:
            return (f"Input to reshape is a tensor with {counted} values, but the requested shape requires a "
                    f"multiple of {product}")
        shape = shape[:unknown[0]] + (missing,) + shape[unknown[0] + 1:]
    if math.prod(shape) != size:
        return f"Input to reshape is a tensor with {size} values, but the requested shape has {math.prod(shape)}"
    return shape


def inverse_permutation(perm: tuple[int, ...]) -> tuple[int, ...]:
    """The permutation that undoes ``perm``."""
    return tuple(sorted(builtins.range(len(perm)), key=perm.__getitem__))


_TRANSPOSE = Op("transpose", lambda xp, x, perm: xp.permute_dims(x, perm),
                (lambda g, ans, x, perm: transpose(g, inverse_permutation(perm)),))


def transpose(a: Any, perm: Any = None, conjugate: bool = False, name: str | None = None) -> Tensor:
    """Permute the axes (default: reverse them).  ``conjugate`` changes nothing: minitape's numbers are real.

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


def _dimensions_of(input: Any, name: str) -> tuple[int, ...]:
    """The shape of ``input`` (a variable is not read: its shape is known without its value)."""
    return tuple((input if isinstance(input, Tensor | Variable) else as_operand(input, name)).shape)


def shape(input: Any, out_type: Any = None, name: str | None = None) -> Tensor:
    """The shape of ``input`` as a 1-D integer tensor (int32, or ``out_type`` int64), as TF's ``tf.shape``.

    ``x.shape`` gives the same sizes as a [`TensorShape`][minitape.TensorShape]; ``tf.shape(x)`` gives a tensor.

    >>> tf.shape(tf.zeros((3, 2)))
    <minitape.Tensor: shape=(2,), dtype=int32, numpy=array([3, 2], dtype=int32)>
    """
    dtype = dtypes.int32 if out_type is None else dtypes.as_dtype(out_type)
    if dtype not in (dtypes.int32, dtypes.int64):
        raise with_hint(InvalidArgumentError(f"Value for attr 'out_type' of {dtype.name} is not in the list of "
                                             f"allowed values: int32, int64 [Op:Shape]"),
                        "shape: out_type must be tf.int32 or tf.int64.")
    return constant(_dimensions_of(input, "shape"), dtype=dtype)


def size(input: Any, out_type: Any = None, name: str | None = None) -> Tensor:
    """The number of values in ``input``, as a 0-D int32 tensor (or of the number type ``out_type``).

    >>> tf.size(tf.zeros((3, 2)))
    <minitape.Tensor: shape=(), dtype=int32, numpy=6>
    """
    dtype = dtypes.int32 if out_type is None else dtypes.as_dtype(out_type)
    return constant(math.prod(_dimensions_of(input, "size")), dtype=dtype)


def rank(input: Any, name: str | None = None) -> Tensor:
    """The number of dimensions of ``input``, as a 0-D int32 tensor (``x.ndim`` is the Python int).

    >>> tf.rank(tf.zeros((3, 2)))
    <minitape.Tensor: shape=(), dtype=int32, numpy=2>
    """
    return constant(len(_dimensions_of(input, "rank")), dtype=dtypes.int32)
