"""Cutting and rearranging along an axis: split, unstack, reverse, roll, repeat, meshgrid.

Each moves values without changing them, so each derivative moves the gradient back.
``reverse`` and ``roll`` are primitives whose VJPs are themselves (reverse the same axes,
roll the other way).  ``split`` and ``unstack`` are one step on the tape with an output per
piece, as TF's ``Split`` and ``Unpack`` ([`Pieces`][minitape.ops.splitting.Pieces]): the backward step
joins the pieces' gradients with one ``concat`` or ``stack``.  The others are built from ops that
already have derivatives: a ``repeat`` is a ``gather`` (repeated rows sum their gradients) and a
``meshgrid`` is a ``broadcast_to`` (its gradient sums over the copies).

>>> import minitape as tf
>>> [piece.numpy() for piece in tf.split(tf.range(6), [2, -1], axis=0)]
[array([0, 1], dtype=int32), array([2, 3, 4, 5], dtype=int32)]
>>> tf.roll([1, 2, 3, 4], shift=1, axis=0).numpy()
array([4, 1, 2, 3], dtype=int32)
"""
from __future__ import annotations

import builtins
from collections.abc import Container
from typing import Any

import numpy as np

from minitape.core import backends
from minitape.core.errors import InvalidArgumentError
from minitape.core.messages import kernel_text, mixed_dtypes_text, with_hint
from minitape.core.entry import Entry
from minitape.core.primitive import Discarded, Op, apply
from minitape.core.state import record, state
from minitape.core.tensor import Tensor, wrap
from minitape.ops.arguments import as_operand, ints, plain
from minitape.ops.broadcasting import broadcast_to
from minitape.ops.creation import zeros_like
from minitape.ops.indexing import concat, gather, stack
from minitape.ops.shapes import reshape


def _refusal(kernel: str, text: str, hint: str, name: str | None = "") -> InvalidArgumentError:
    """TF's error from ``kernel`` (its words, as its eager runtime wraps them), with what to do as a note."""
    full = kernel_text(kernel, text, name or "", backends.current().device_name)
    return with_hint(InvalidArgumentError(full if name is not None else full.removesuffix(" name: ")), hint)


class Pieces(Entry):
    """A tensor cut along ``axis`` into pieces (slices for ``split``, ints for ``unstack``): one tape entry.

    Its backward step joins the pieces' gradients, zeros for a piece that has none, with one
    ``concat`` (slices) or ``stack`` (ints), both minitape ops, so a recording tape can differentiate
    it again.  A ``getitem`` per piece would write each piece's gradient into zeros the size of the
    whole tensor: ``T`` pieces, ``T`` whole-size buffers to fill and add.

    >>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     first, second = tf.unstack(x, axis=1)
    ...     y = 3.0 * first
    >>> tape.entries()[0].label, tape.gradient(y, x).numpy()
    ('unstack', array([[3., 0.],
           [3., 0.]], dtype=float32))
    """

    __slots__ = ("inputs", "outputs", "label", "axis", "record", "pieces")

    def __init__(self, label: str, x: Tensor, pieces: list[Tensor], axis: int) -> None:
        self.label, self.axis = label, axis
        self.inputs, self.outputs = (x._id,), tuple(p._id for p in pieces)
        self.record, self.pieces = Discarded.of(x), [Discarded.of(p) for p in pieces]

    def backward(self, output_grads: list[Tensor | None], needed: Container[int]) -> list[Tensor | None]:
        if self.inputs[0] not in needed:
            return [None]
        grads = [zeros_like(spec) if g is None else g for g, spec in zip(output_grads, self.pieces)]
        joined = stack(grads, axis=self.axis) if self.label == "unstack" else concat(grads, axis=self.axis)
        return [joined]

    def kept(self) -> list[tuple[int | str, Tensor]]:
        return []

    def input_specs(self) -> list[Discarded]:
        return [self.record]

    def output_specs(self) -> list[Discarded]:
        return list(self.pieces)


def _cut(label: str, x: Tensor, axis: int, parts: list[Any]) -> list[Tensor]:
    """``x[..., part, ...]`` for each of ``parts`` (slices or ints) on ``axis``, recorded as one ``Pieces`` entry."""
    lead = (slice(None),) * axis
    pieces = [wrap(x._value[lead + (part, ...)]) for part in parts]      # the standard wants the ... said
    if state.tapes and pieces and backends.is_floating(x._value):
        record(Pieces(label, x, pieces, axis))
    return pieces


# --------------------------------------------------------------------------- split and unstack

def split(value: Any, num_or_size_splits: Any, axis: Any = 0, num: int | None = None,
          name: str = "split") -> list[Tensor]:
    """Cut ``value`` along ``axis`` into equal pieces (a count) or pieces of given sizes (one may be -1).

    >>> [p.numpy().tolist() for p in tf.split([1, 2, 3, 4, 5, 6], 3)]
    [[1, 2], [3, 4], [5, 6]]
    >>> [p.shape.as_list() for p in tf.split(tf.zeros((2, 5)), [1, -1, 2], axis=1)]
    [[2, 1], [2, 2], [2, 2]]
    """
    x = as_operand(value, "split")
    given = num_or_size_splits
    counted = isinstance(given, int | np.integer) and not isinstance(given, bool)
    if not counted and np.ndim(plain(given)) == 0:      # TF counts only a Python int: a tensor must be sizes
        raise with_hint(ValueError(f"Rank-0 tensors are not supported as the num_or_size_splits argument to split. "
                                   f"Argument provided: {given!s}"), "split: give a count as a Python int, or a list "
                                                                   "of sizes.")
    kernel = "Split" if counted else "SplitV"
    position = ints(axis, "split", "axis", InvalidArgumentError)[0]
    if not -x.ndim <= position < builtins.max(x.ndim, 1):
        raise _refusal(kernel, f"-input rank(-{x.ndim}) <= split_dim < input rank ({x.ndim}), but got {position}",
                       f"split: axis must name an axis of the tensor's {x.ndim}.", name)
    position %= builtins.max(x.ndim, 1)
    size = x.shape[position]
    sizes = _equal_sizes(int(given), size, position, name) if counted else _sizes(given, size, num, name)
    starts = np.cumsum([0, *sizes])
    return _cut("split", x, position, [slice(int(a), int(b)) for a, b in zip(starts[:-1], starts[1:])])


def _equal_sizes(count: int, size: int, axis: int, name: str) -> list[int]:
    if count < 1:
        raise with_hint(InvalidArgumentError(
            f"Value for attr 'num_split' of {count} must be at least minimum 1\n\t; NodeDef: {{{{node Split}}}}; "
            f"Op<name=Split; signature=split_dim:int32, value:T -> output:num_split*T; attr=num_split:int,min=1; "
            f"attr=T:type> [Op:Split] name: {name}"), "split: cut into at least one piece.")
    if size % count:
        raise _refusal("Split", f"Number of ways to split should evenly divide the split dimension, but got "
                                f"split_dim {axis} (size = {size}) and num_split {count}",
                       f"split: {count} does not divide {size}; give a list of sizes instead.", name)
    return [size // count] * count


def _sizes(given: Any, size: int, num: int | None, name: str) -> list[int]:
    """The sizes of the pieces, the -1 (if any) worked out, checked as TF's SplitV kernel checks them."""
    sizes = list(ints(given, "split", "num_or_size_splits", InvalidArgumentError))
    rank, text = np.ndim(plain(given)), None
    if rank != 1 or (num is not None and num != len(sizes)):
        text = (f"size of the split_tensor must be 1-D and have the same elements as outputs got {rank} -D and "
                f"{len(sizes)} elements")
    elif sizes.count(-1) > 1:
        text = "There can only be one -1 in the input."
    elif len(sizes) == 1 and sizes[0] != size:
        text = f"If there is only one output, it must have the same size as the input. Input size: {size} " \
               f"output size: {sizes[0]}"
    elif -1 in sizes:
        known = builtins.sum(n for n in sizes if n != -1)
        if known > size:
            text = _determined(known)
        sizes[sizes.index(-1)] = size - known
    elif builtins.sum(sizes) != size:
        text = _determined(builtins.sum(sizes))
    if text is None and builtins.any(n < 0 for n in sizes):
        text = f"Split size at index {next(k for k, n in enumerate(sizes) if n < 0)} must be >= 0. Got: " \
               f"{next(n for n in sizes if n < 0)}"
    if text is not None:
        raise _refusal("SplitV", text, f"split: sizes {list(ints(given, 'split', 'sizes'))} must add up to "
                                        f"{size} (one of them may be -1, for what is left).", name)
    return sizes


def _determined(total: int) -> str:
    return (f"Determined shape must either match input shape along split_dim exactly if fully specified, or be less "
            f"than the size of the input along split_dim if not fully specified.  Got: {total}")


def unstack(value: Any, num: int | None = None, axis: int = 0, name: str = "unstack") -> list[Tensor]:
    """The slices of ``value`` along ``axis``, that axis removed: ``stack``'s inverse.

    >>> [row.numpy() for row in tf.unstack([[1, 2], [3, 4]], axis=1)]
    [array([1, 3], dtype=int32), array([2, 4], dtype=int32)]
    """
    x = as_operand(value, "unstack")
    if num == 0:                # TF's kernel, asked for no pieces, gives none without looking
        return []
    if num is not None and not -x.ndim <= axis < x.ndim:
        raise _refusal("Unpack", f"axis = {axis} not in [{-x.ndim}, {x.ndim})",
                       "unstack: axis must name an axis of the tensor (a scalar has none to unstack).", name)
    if not -x.ndim <= axis < x.ndim:
        raise with_hint(ValueError(f"Argument `axis` = {axis} not in range [{-x.ndim}, {x.ndim})"),
                        "unstack: axis must name an axis of the tensor (a scalar has none to unstack).")
    axis %= x.ndim
    if num is not None and num != x.shape[axis]:
        raise _refusal("Unpack", f"Input shape axis {axis} must equal {num}, got shape "
                                 f"[{','.join(map(str, x.shape))}]", f"unstack: num must be {x.shape[axis]}.", name)
    return _cut("unstack", x, axis, list(builtins.range(x.shape[axis])))


# --------------------------------------------------------------------------- reverse and roll

def _reverse_forward(xp, x, axes):
    return xp.flip(x, axis=axes) if axes else x


_REVERSE = Op("reverse", _reverse_forward, (lambda g, ans, x, axes: apply(_REVERSE, (g,), {"axes": axes}),))


def reverse(tensor: Any, axis: Any, name: str | None = None) -> Tensor:
    """``tensor`` with the order of its entries along each axis in ``axis`` (a list) reversed.

    >>> tf.reverse([[1, 2], [3, 4]], [1]).numpy()
    array([[2, 1],
           [4, 3]], dtype=int32)
    """
    x = as_operand(tensor, "reverse")
    if axis is None:
        as_operand(axis, "reverse")         # TF's conversion error, naming the op
    if np.ndim(plain(axis)) != 1:
        raise _refusal("ReverseV2", f"'dims' must be 1-dimension, not {np.ndim(plain(axis))}",
                       "reverse: give the axes as a list, e.g. [0].")
    axes = ints(axis, "reverse", "axis", InvalidArgumentError)
    if 0 in (x.ndim, *x.shape):             # as TF's kernel: nothing to reorder, whatever the axes
        return apply(_REVERSE, (x,), {"axes": ()})
    for k, a in enumerate(axes):
        if not -x.ndim <= a < x.ndim:
            raise _refusal("ReverseV2", f"'axis'[{k}] = {a} is out of valid range [0, {x.ndim - 1}",
                           f"reverse: axes must be in [{-x.ndim}, {x.ndim}).", name=None)
    axes = tuple(a % x.ndim for a in axes)
    if len(set(axes)) < len(axes):
        twice = next(a for a in axes if axes.count(a) > 1)
        raise _refusal("ReverseV2", f"axis {twice} specified more than once.", "reverse: name each axis once.",
                       name=None)
    return apply(_REVERSE, (x,), {"axes": axes})


def _roll_forward(xp, x, shift, axes):
    return xp.roll(x, shift=shift, axis=axes) if axes else x


_ROLL = Op("roll", _roll_forward, (lambda g, ans, x, shift, axes: rolled(g, tuple(-s for s in shift), axes),))


def rolled(x: Tensor, shift: tuple[int, ...], axes: tuple[int, ...]) -> Tensor:
    """The roll primitive, for shifts and distinct axes known to fit (its VJP rolls back with it)."""
    return apply(_ROLL, (x,), {"shift": shift, "axes": axes})


def roll(input: Any, shift: Any, axis: Any, name: str | None = None) -> Tensor:
    """Shift entries along ``axis`` by ``shift`` (ints or lists), those pushed off one end coming in at the other.

    An axis named twice is shifted by the sum of its shifts, as in TF.

    >>> tf.roll([[1, 2, 3], [4, 5, 6]], shift=[1, -1], axis=[0, 1]).numpy()
    array([[5, 6, 4],
           [2, 3, 1]], dtype=int32)
    """
    x = as_operand(input, "roll")
    shifts, axes = ints(shift, "roll", "shift", InvalidArgumentError), ints(axis, "roll", "axis", InvalidArgumentError)
    if np.ndim(plain(shift)) > 1 or np.ndim(plain(axis)) > 1 or len(shifts) != len(axes):
        raise _refusal("Roll", "shift and axis must have the same size",
                       "roll: give one shift per axis (both ints, or two lists of one length).")
    total: dict[int, int] = {}
    for s, a in zip(shifts, axes):
        if not -x.ndim <= a < x.ndim:
            raise _refusal("Roll", f"axis {a} is out of range", f"roll: axes must be in [{-x.ndim}, {x.ndim}).")
        total[a % x.ndim] = total.get(a % x.ndim, 0) + s
    return rolled(x, tuple(total.values()), tuple(total))


# --------------------------------------------------------------------------- repeat and meshgrid

def repeat(input: Any, repeats: Any, axis: int | None = None, name: str | None = None) -> Tensor:
    """Each slice along ``axis`` repeated ``repeats`` times (one count, or one per slice); ``axis=None`` flattens first.

    >>> tf.repeat([[1, 2], [3, 4]], repeats=[1, 2], axis=0).numpy()
    array([[1, 2],
           [3, 4],
           [3, 4]], dtype=int32)
    >>> tf.repeat([1, 2], 2).numpy()
    array([1, 1, 2, 2], dtype=int32)
    """
    x = as_operand(input, "repeat")
    if axis is None or x.ndim == 0:         # as TF: a scalar repeats as a vector of one
        x, axis = reshape(x, (-1,)), 0 if axis is None else axis
    axis = ints(axis, "repeat", "axis")[0]
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"axis={axis} out of bounds: expected {-x.ndim}<=axis<{x.ndim}")
    axis %= x.ndim
    counts = np.asarray(ints(repeats, "repeat", "repeats", InvalidArgumentError))
    if np.ndim(plain(repeats)) > 1:
        raise with_hint(ValueError(f"Shape {np.shape(plain(repeats))} must have rank at most 1"),
                        "repeat: give one count, or a list of one count per slice.")
    if counts.size not in (1, x.shape[axis]):
        raise with_hint(ValueError(f"Dimensions {x.shape[axis]} and {counts.size} are not compatible"),
                        f"repeat: give one count, or {x.shape[axis]} counts (one per slice along axis {axis}).")
    if (counts < 0).any():          # TF tiles each slice, the count its multiple on the axis after ``axis``
        raise _refusal("Tile", f"Expected multiples[{axis + 1}] >= 0, but got {counts.min()}",
                       f"repeat: repeats must be at least 0, got {counts.tolist()}.", name=None)
    return gather(x, np.repeat(np.arange(x.shape[axis]), np.broadcast_to(counts, (x.shape[axis],))), axis=axis)


def meshgrid(*args: Any, **kwargs: Any) -> list[Tensor]:
    """Coordinate grids from 1-D coordinate vectors: ``indexing="xy"`` (default) swaps the first two axes.

    >>> x, y = tf.meshgrid([1, 2, 3], [10, 20])
    >>> x.numpy(), y.numpy()
    (array([[1, 2, 3],
           [1, 2, 3]], dtype=int32), array([[10, 10, 10],
           [20, 20, 20]], dtype=int32))
    """
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"'{next(iter(kwargs))}' is an invalid keyword argument for this function")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', got '{indexing}'")
    vectors = [reshape(as_operand(a, "meshgrid"), (-1,)) for a in args]
    if not vectors:
        return []
    for k, v in enumerate(vectors):
        if v.dtype is not vectors[0].dtype:         # TF multiplies each by ones of the first's dtype
            raise with_hint(InvalidArgumentError(mixed_dtypes_text("Mul", 1, v.dtype.name, vectors[0].dtype.name)),
                            f"meshgrid: input {k} is {v.dtype.name} but input 0 is {vectors[0].dtype.name}; "
                            f"tf.cast them to one dtype.")
    sizes = [v.shape[0] for v in vectors]
    if indexing == "xy" and len(vectors) > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    grids = []
    for k, v in enumerate(vectors):
        position = {0: 1, 1: 0}.get(k, k) if indexing == "xy" and len(vectors) > 1 else k
        shape = [1] * len(vectors)
        shape[position] = -1
        grids.append(broadcast_to(reshape(v, shape), sizes))
    return grids

