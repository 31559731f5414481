"""Reductions: one value from many, along some axes (or from many tensors: ``add_n``).

Every reduction is declared by one row: its primitive and its docstring.
``reduction`` turns the row into TensorFlow's function
``reduce_*(input_tensor, axis=None, keepdims=False)``.  The VJPs spread the
reduced gradient back over the reduced axes
(``spread``), weighted by what each input
contributed: equally for a sum, ``1/n`` for a mean, only the winners for a
maximum, the product of the others for a product.

>>> import minitape as tf
>>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
>>> tf.reduce_sum(x, axis=0).numpy(), tf.reduce_max(x).numpy()
(array([4., 6.], dtype=float32), np.float32(4.0))
"""
from __future__ import annotations

import builtins
import functools
import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from minitape.core import arrays, backends, dtypes
from minitape.core.errors import InvalidArgumentError
from minitape.core.messages import with_hint
from minitape.core.primitive import ANS, ForEachInput, Op, apply
from minitape.core.tensor import Tensor
from minitape.ops.arguments import NUMBERS, as_axes, as_operand, count, operands, plain, tensor_list
from minitape.ops.broadcasting import REDUCE_SUM, spread
from minitape.ops.creation import eye, ones_like
from minitape.ops.comparisons import equal
from minitape.ops.elementwise import cast, public, where
from minitape.ops.shapes import inverse_permutation, reshape, transpose


def reduction(op: Op, doc: str) -> Callable:
    """Declare a reduction from its primitive; returns ``reduce_*(input_tensor, axis, keepdims)``.

    >>> from minitape.ops.reductions import reduction
    >>> tf.reduce_sum.op
    Op('reduce_sum', keep=())
    """
    def function(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None) -> Tensor:
        x = as_operand(input_tensor, op.name)
        if not x.dtype.is_numeric:
            advice = "cast it first, e.g. tf.cast(x, tf.int32)." if x.dtype.is_bool else "text does not reduce."
            raise InvalidArgumentError(f"{op.name}: input_tensor is {x.dtype.name}, but only numbers reduce; {advice}")
        axes = tuple(builtins.range(x.ndim)) if axis is None else distinct_axes(as_axes(axis, x.ndim, op.name), op.name)
        return apply(op, (x,), {"axis": axes, "keepdims": bool(keepdims)})
    return public(function, op.name, op, doc)


def distinct_axes(axes: tuple[int, ...], name: str) -> tuple[int, ...]:
    """``axes`` (non-negative) in order; naming one twice is an error, as in TF.

    >>> from minitape.ops.reductions import distinct_axes
    >>> distinct_axes((1, 0), "reduce_sum")
    (0, 1)
    >>> distinct_axes((0, 1, 0), "reduce_sum")
    Traceback (most recent call last):
    ...
    minitape.core.errors.InvalidArgumentError: reduce_sum: Invalid reduction arguments: Axes contains duplicate dimension: 0 ...
    """
    for k, a in enumerate(axes):
        if a in axes[:k]:
            raise InvalidArgumentError(f"{name}: Invalid reduction arguments: Axes contains duplicate dimension: {a} "
                                       f"(negative axes count from the end). Name each axis once.")
    return tuple(sorted(axes))


def _mean_forward(xp, x, axis, keepdims):
    if backends.is_floating(x):
        if count(x.shape, axis):
            return xp.mean(x, axis=axis, keepdims=keepdims)
        return xp.sum(x, axis=axis, keepdims=keepdims) / 0     # 0/0: NaN, as TF (NumPy's mean of nothing warns)
    # TF's integer mean: the sum taken in int64, divided, truncated toward zero, in the input's dtype.
    total = xp.sum(x, axis=axis, keepdims=keepdims, dtype=xp.int64)
    n = builtins.max(1, count(x.shape, axis))
    rounded_down = (total % n != 0) & (total < 0)               # // rounds down: those go one up, toward zero
    return xp.astype(total // n + xp.astype(rounded_down, xp.int64), x.dtype)


def bound(xp, x, lowest: bool) -> float | int:
    """The value no entry of the array ``x`` is below (``lowest``) or above: an infinity, or the integer dtype's limit.

    >>> from minitape.ops.reductions import bound
    >>> bound(np, np.zeros(2, np.int8), lowest=True), bound(np, np.zeros(2), lowest=False)
    (-128, inf)
    """
    if backends.is_floating(x):
        return -math.inf if lowest else math.inf
    limits = xp.iinfo(x.dtype)
    return limits.min if lowest else limits.max


def _extreme_forward(largest: bool) -> Callable:
    """reduce_max's (or reduce_min's) forward rule: over an empty axis, TF's -inf (+inf), or the lowest (highest) integer."""
    def forward(xp, x, axis, keepdims):
        if builtins.all(x.shape[a] for a in axis):
            return (xp.max if largest else xp.min)(x, axis=axis, keepdims=keepdims)
        shape = tuple(1 if a in axis else n for a, n in enumerate(x.shape) if keepdims or a not in axis)
        return arrays.full_beside(x, shape, bound(xp, x, lowest=largest))
    return forward


def _extreme_vjp(g, ans, x, axis, keepdims):
    hits = cast(equal(x, spread(ans, x, axis)), g.dtype)       # ties share the gradient equally
    return spread(g, x, axis) * hits / spread(reduce_sum(hits, axis=axis), x, axis)


def _prod_vjp(g, ans, x, axis, keepdims):
    # d(prod)/dx_i is the product of the *other* entries: computed exactly, without dividing by x_i.
    rest = tuple(a for a in builtins.range(x.ndim) if a not in axis)
    moved = transpose(x, rest + axis)
    n = count(x, axis)
    flat = reshape(moved, tuple(x.shape[a] for a in rest) + (1, n))
    others = reduce_prod(where(eye(n, dtype=dtypes.bool_), ones_like(flat), flat), axis=-1)
    others = transpose(reshape(others, tuple(moved.shape)), inverse_permutation(rest + axis))
    return spread(g, x, axis) * others


# --------------------------------------------------------------------------- the table

reduce_sum = reduction(REDUCE_SUM, doc="""
    Sum over ``axis`` (all axes by default).

    >>> tf.reduce_sum([[1.0, 2.0], [3.0, 4.0]], axis=0).numpy()
    array([4., 6.], dtype=float32)
    """)
reduce_mean = reduction(Op("reduce_mean", _mean_forward,
                           (lambda g, ans, x, axis, keepdims: spread(g / count(x, axis), x, axis),)), doc="""
    Mean over ``axis`` (integers give the mean truncated toward zero, in their own dtype, as TF).

    >>> tf.reduce_mean([[1.0, 2.0], [3.0, 4.0]], axis=1, keepdims=True).numpy()
    array([[1.5],
           [3.5]], dtype=float32)
    """)
reduce_max = reduction(Op("reduce_max", _extreme_forward(largest=True), (_extreme_vjp,), keep=(ANS, 0)), doc="""
    Maximum over ``axis``; tied maxima share the gradient equally.  Over nothing it is ``-inf``, as TF.

    >>> tf.reduce_max([1.0, 3.0, 3.0]).numpy()
    np.float32(3.0)
    """)
reduce_min = reduction(Op("reduce_min", _extreme_forward(largest=False), (_extreme_vjp,), keep=(ANS, 0)), doc="""
    Minimum over ``axis``; tied minima share the gradient equally.  Over nothing it is ``inf``, as TF.

    >>> tf.reduce_min([[1.0, 3.0]], axis=1).numpy()
    array([1.], dtype=float32)
    """)
reduce_prod = reduction(Op("reduce_prod", lambda xp, x, axis, keepdims: xp.prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype),
                           (_prod_vjp,), keep=(0,)), doc="""
    Product over ``axis``; the gradient is exact even where entries are 0.

    >>> tf.reduce_prod([2.0, 3.0, 4.0]).numpy()
    np.float32(24.0)
    """)


# --------------------------------------------------------------------------- where the extreme is

def _arg_extreme_forward(largest: bool):
    """argmax's (or argmin's) forward rule: NaNs never win, as in TF (NumPy's would pick the first NaN)."""
    def forward(xp, x, axis, output_type):
        if backends.is_floating(x):
            x = xp.where(xp.isnan(x), -math.inf if largest else math.inf, x)
        found = (xp.argmax if largest else xp.argmin)(x, axis=axis)
        return xp.astype(found, getattr(xp, output_type.name))
    return forward


def arg_extreme(op: Op, doc: str) -> Callable:
    """Declare argmax or argmin from its primitive; returns ``arg*(input, axis=None, output_type=tf.int64)``.

    >>> from minitape.ops.reductions import arg_extreme
    >>> tf.math.argmax.op
    Op('argmax', keep=())
    """
    def function(input: Any, axis: Any = None, output_type: Any = dtypes.int64, name: str | None = None) -> Tensor:
        x = as_operand(input, op.name)
        if x.dtype is dtypes.string:            # TF registers no ArgMax/ArgMin kernel for text
            raise InvalidArgumentError(f"{op.name}: input is string, but only numbers have a largest and smallest.")
        if axis is not None and not (type(axis) is int or isinstance(axis, Tensor) and axis.dtype.is_integer
                                     and axis.ndim == 0):
            raise TypeError(f"{op.name}: axis must be int or Tensor with integer datatype, got {axis!r}.")
        position = 0 if axis is None else int(plain(axis))
        if not -x.ndim <= position < x.ndim:
            raise InvalidArgumentError(f"{op.name}: Expected dimension in the range [{-x.ndim}, {x.ndim}), but got "
                                       f"{position} (input shape {tuple(x.shape)}).")
        if x.shape[position] == 0:
            raise InvalidArgumentError(f"{op.name}: Reduction axis {position % x.ndim} is empty in shape "
                                       f"{tuple(x.shape)}: there is no extreme to find.")
        kind = dtypes.as_dtype(output_type)
        if kind not in (dtypes.int32, dtypes.int64):
            raise InvalidArgumentError(f"{op.name}: output_type must be int32 or int64, got {kind.name}.")
        return apply(op, (x,), {"axis": position % x.ndim, "output_type": kind})
    return public(function, op.name, op, doc)


argmax = arg_extreme(Op("argmax", _arg_extreme_forward(largest=True)), doc="""
    The index of the largest value along ``axis`` (default 0); ties go to the first.  Not differentiable.

    >>> tf.math.argmax([[1.0, 5.0, 5.0], [7.0, 2.0, 7.0]], axis=1).numpy()
    array([1, 0])
    """)
argmin = arg_extreme(Op("argmin", _arg_extreme_forward(largest=False)), doc="""
    The index of the smallest value along ``axis`` (default 0); ties go to the first.  Not differentiable.

    >>> tf.math.argmin([3.0, 1.0, 2.0], output_type=tf.int32).numpy()
    np.int32(1)
    """)


# --------------------------------------------------------------------------- many tensors into one

_ADD_N = Op("add_n", lambda xp, *xs: functools.reduce(operator.add, xs),
            ForEachInput(lambda k, g, ans, *xs: g))       # each input's gradient is the sum's


def add_n(inputs: Any, name: str | None = None) -> Tensor:
    """The sum of a list of tensors of one shape and dtype (no broadcasting), as one op.

    >>> tf.add_n([tf.constant([1.0, 2.0]), tf.constant([10.0, 20.0]), tf.constant([100.0, 200.0])]).numpy()
    array([111., 222.], dtype=float32)
    """
    if inputs is None or isinstance(inputs, str):
        raise TypeError(f"add_n: inputs must be a list of tensors, got {inputs!r}.")
    items = tensor_list(inputs, "add_n")
    if not items or any(v is None for v in items):
        raise ValueError("add_n: Inputs must be an iterable of at least one Tensor/IndexedSlices with the same "
                         f"dtype and shape; got {items!r}.")
    tensors = operands("add_n", *items)
    if len(tensors) == 1:
        return tensors[0]               # TF hands a single input back as it is
    NUMBERS.check("add_n", tensors[0])
    for k, t in enumerate(tensors):
        if t.shape != tensors[0].shape:
            raise InvalidArgumentError(f"add_n: Inputs must have the same size and shape. Input 0: "
                                       f"{tuple(tensors[0].shape)} != input {k}: {tuple(t.shape)} (add_n does not "
                                       f"broadcast; use tf.broadcast_to or +).")
    return apply(_ADD_N, tensors)


# --------------------------------------------------------------------------- running sums and products

def _running(kernel: str) -> Callable:
    """The forward rule of a running sum (``kernel="cumulative_sum"``) or product along ``axis``."""
    def forward(xp, x, axis, exclusive, reverse):
        if reverse:
            x = xp.flip(x, axis=axis)
        # With the initial value the results are n + 1 long: the exclusive ones are the first n, the others the last n.
        running = getattr(xp, kernel)(x, axis=axis, dtype=x.dtype, include_initial=True)
        kept = [builtins.slice(None)] * x.ndim
        kept[axis] = builtins.slice(0, -1) if exclusive else builtins.slice(1, None)
        running = running[tuple(kept)]
        return xp.flip(running, axis=axis) if reverse else running
    return forward


# Each input reaches the sums after it (before it, reversed): its gradient is the running sum of g the other way.
_CUMSUM = Op("cumsum", _running("cumulative_sum"),
             (lambda g, ans, x, axis, exclusive, reverse: apply(
                 _CUMSUM, (g,), {"axis": axis, "exclusive": exclusive, "reverse": not reverse}),))


def _cumprod_vjp(g: Tensor, ans: Tensor, x: Tensor, axis: int, exclusive: bool, reverse: bool) -> Tensor:
    """Each input multiplies the products after it: the sum of g times those products, without x itself.

    Dividing them by ``x`` (TF's formula) is exact unless ``x`` holds a 0, where TF's
    ``div_no_nan`` gives 0, a wrong gradient.  Then each product without ``x[i]`` is computed as
    it is defined: the running product of ``x`` with ``x[i]`` replaced by 1, for every ``i``
    (n times the memory along the axis, so only when a 0 asks for it).
    """
    params = {"axis": axis, "exclusive": exclusive, "reverse": reverse}
    if not bool(backends.namespace(x._value).any(x._value == 0)):      # read, not recorded
        later = apply(_CUMSUM, (g * ans,), {**params, "reverse": not reverse})
        return later / x
    last = list(builtins.range(x.ndim))
    last.append(last.pop(axis))                                  # the running axis last, then one for each i
    xs, gs = transpose(x, last), transpose(g, last)
    n = xs.shape[-1]
    left_out = cast(eye(n), dtypes.bool_)                        # row i: x with x[i] replaced by 1
    products = apply(_CUMPROD, (where(left_out, ones_like(xs)[..., None, :], xs[..., None, :]),),
                     {**params, "axis": x.ndim})
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    reached = (j < i if exclusive else j <= i) if reverse else (j > i if exclusive else j >= i)
    grads = reduce_sum(products * cast(reached, x.dtype) * gs[..., None, :], axis=-1)
    return transpose(grads, inverse_permutation(tuple(last)))


_CUMPROD = Op("cumprod", _running("cumulative_prod"), (_cumprod_vjp,), keep=(ANS, 0))


def running(op: Op, kernel: str, x: Any, axis: Any, exclusive: bool, reverse: bool) -> Tensor:
    """Apply ``cumsum`` or ``cumprod`` (``op``, TF's ``kernel``) after TF's checks of ``x`` and ``axis``."""
    x = as_operand(x, op.name)
    NUMBERS.check(op.name, x)
    position = plain(axis)
    if np.ndim(position) != 0:
        raise with_hint(InvalidArgumentError(f"ScanOp: axis must be a scalar, not {arrays.listed(np.shape(position))}"
                                             f" [Op:{kernel}]"), f"{op.name}: axis is one int, e.g. axis=0.")
    if not isinstance(position, int | np.integer) or isinstance(position, bool):
        raise TypeError(f"{op.name}: axis must be an int, got {axis!r}.")
    if not -x.ndim <= position < x.ndim:
        raise with_hint(InvalidArgumentError(f"ScanOp: Expected scan axis in the range [{-x.ndim}, {x.ndim}), but got "
                                             f"{position} [Op:{kernel}] name: "),
                        f"{op.name}: x has {x.ndim} axes (shape {tuple(x.shape)}): pick one of them.")
    return apply(op, (x,), {"axis": int(position) % x.ndim, "exclusive": bool(exclusive), "reverse": bool(reverse)})


def cumsum(x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False, name: str | None = None) -> Tensor:
    """Running sums along ``axis``: ``[a, a + b, a + b + c]``.

    ``exclusive`` leaves each value out of its own sum (``[0, a, a + b]``); ``reverse`` sums from the end.

    >>> tf.cumsum([1.0, 2.0, 3.0]).numpy(), tf.cumsum([1.0, 2.0, 3.0], exclusive=True, reverse=True).numpy()
    (array([1., 3., 6.], dtype=float32), array([5., 3., 0.], dtype=float32))
    """
    return running(_CUMSUM, "Cumsum", x, axis, exclusive, reverse)


def cumprod(x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False, name: str | None = None) -> Tensor:
    """Running products along ``axis``: ``[a, a * b, a * b * c]``; ``exclusive`` and ``reverse`` as for ``cumsum``.

    Its gradient is exact where ``x`` holds a 0 (TF's is 0 there).

    >>> tf.math.cumprod([1.0, 2.0, 3.0]).numpy(), tf.math.cumprod([1.0, 2.0, 3.0], exclusive=True).numpy()
    (array([1., 2., 6.], dtype=float32), array([1., 1., 2.], dtype=float32))
    """
    return running(_CUMPROD, "Cumprod", x, axis, exclusive, reverse)
