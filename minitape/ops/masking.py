"""Masks by position: ``sequence_mask`` (which steps of a padded batch are real) and ``band_part``.

A sequence model pads its sequences to one length and masks the padding out; attention
masks the future with ``band_part(ones, -1, 0)``, the lower triangle (the causal mask).
Both compare positions: step ``j < length``, and ``-num_lower <= j - i <= num_upper``.
``band_part`` keeps the entries inside the band and zeroes the rest, so its derivative
does the same to the gradient: the op is its own VJP.

>>> import minitape as tf
>>> tf.sequence_mask([1, 3], 4).numpy()
array([[ True, False, False, False],
       [ True,  True,  True, False]])
>>> tf.linalg.band_part(tf.ones((3, 3)), -1, 0).numpy()
array([[1., 0., 0.],
       [1., 1., 0.],
       [1., 1., 1.]], dtype=float32)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape.core import arrays, backends, dtypes
from minitape.core.errors import InvalidArgumentError
from minitape.core.messages import kernel_text, with_hint
from minitape.core.primitive import Op, apply
from minitape.core.tensor import Tensor
from minitape.ops.arguments import as_operand, plain
from minitape.ops.comparisons import less
from minitape.ops.creation import range as arange
from minitape.ops.elementwise import cast, maximum
from minitape.ops.reductions import reduce_max
from minitape.ops.shapes import expand_dims


def sequence_mask(lengths: Any, maxlen: Any = None, dtype: Any = dtypes.bool_, name: str | None = None) -> Tensor:
    """``mask[..., j] = j < lengths[...]`` for ``j`` below ``maxlen`` (default: the longest length).

    >>> tf.sequence_mask([2, 0], 3, dtype=tf.float32).numpy()
    array([[1., 1., 0.],
           [0., 0., 0.]], dtype=float32)
    """
    lengths = as_operand(lengths, "sequence_mask")
    if maxlen is None:
        maxlen = maximum(reduce_max(lengths), 0)     # as TF: no lengths (an empty list) is no steps
    elif np.ndim(plain(maxlen)) != 0:
        raise with_hint(ValueError(f"Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = "
                                   f"{maxlen} with shape '{np.shape(plain(maxlen))}' instead"),
                        "sequence_mask: give maxlen as one number.")
    limit = as_operand(maxlen, "sequence_mask")
    # As TF: the lengths are cast to maxlen's dtype (a float length 1.5 against an int maxlen is 1).
    steps = arange(0, limit.numpy(), 1, dtype=limit.dtype)
    mask = less(steps, expand_dims(cast(lengths, limit.dtype), -1))
    return mask if dtypes.as_dtype(dtype) is dtypes.bool_ else cast(mask, dtype)


def _band_forward(xp, x, num_lower, num_upper):
    rows, columns = x.shape[-2:]
    offset = np.arange(columns)[None, :] - np.arange(rows)[:, None]          # j - i
    inside = ((num_lower < 0) | (-offset <= num_lower)) & ((num_upper < 0) | (offset <= num_upper))
    return xp.where(arrays.asarray_beside(x, inside), x, arrays.full_beside(x, (), 0))


_BAND_PART = Op("band_part", _band_forward,
                (lambda g, ans, x, num_lower, num_upper: apply(_BAND_PART, (g,), {"num_lower": num_lower,
                                                                                  "num_upper": num_upper}),))


def band_part(input: Any, num_lower: Any, num_upper: Any, name: str | None = None) -> Tensor:
    """The band of each matrix (last two axes): ``num_lower`` diagonals below, ``num_upper`` above (-1: all).

    >>> tf.linalg.band_part([[1, 2, 3], [4, 5, 6]], 0, 1).numpy()
    array([[1, 2, 0],
           [0, 5, 6]], dtype=int32)
    """
    x = as_operand(input, "band_part")
    device = backends.current().device_name
    if x.ndim < 2:
        raise with_hint(InvalidArgumentError(kernel_text("MatrixBandPart", f"input must be at least 2-dim, received "
                                                         f"shape: [{','.join(map(str, x.shape))}]", "", device)),
                        "band_part: give a matrix, or a batch of them.")
    bounds = []
    for argument, value, size, what in (("num_lower", num_lower, x.shape[-2], "rows"),
                                        ("num_upper", num_upper, x.shape[-1], "columns")):
        value = plain(value)
        if isinstance(value, float) or (isinstance(value, np.ndarray) and value.dtype.kind == "f"):
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype int64")
        bound = int(value)
        if bound > size:
            raise with_hint(InvalidArgumentError(kernel_text(
                "MatrixBandPart", f"{argument} must be negative or less or equal to number of {what} ({size}) got: "
                                  f"{bound}", "", device)), f"band_part: {argument} must be at most {size}, or -1.")
        bounds.append(bound)
    return apply(_BAND_PART, (x,), {"num_lower": bounds[0], "num_upper": bounds[1]})
