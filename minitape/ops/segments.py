"""Segment sums: rows added together by the segment each one belongs to.

``unsorted_segment_sum(data, ids, n)`` starts from ``n`` rows of zeros and adds row ``i`` of
``data`` into row ``ids[i]`` (a negative id drops its row).  Each input row reached one output
row, so its gradient is that row's gradient, read back with ``gather``; ``gather``'s own
gradient is a sum into rows again, so second derivatives come for free.  ``segment_sum`` is
the same sum when the ids are sorted: as many segments as the last id says.

>>> import minitape as tf
>>> tf.math.unsorted_segment_sum([1.0, 2.0, 3.0, 4.0], [0, 2, 0, 2], num_segments=3).numpy()
array([4., 0., 6.], dtype=float32)
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from minitape.core import arrays
from minitape.core.errors import InvalidArgumentError
from minitape.core.messages import with_hint
from minitape.core.primitive import Op, apply
from minitape.core.tensor import Tensor
from minitape.ops.arguments import LABELS, NUMBERS, as_int, as_operand, check_indices, plain
from minitape.ops.creation import zeros_like
from minitape.ops.elementwise import where
from minitape.ops.indexing import gather
from minitape.ops.shapes import reshape


def _segment_sum_forward(xp, data, ids, num_segments):
    rest = data.shape[ids.ndim:]
    flat = ids.reshape(-1)
    rows = xp.reshape(data, (1, flat.size, math.prod(rest)))
    kept = np.flatnonzero(flat >= 0)                     # TF drops the rows of negative ids
    if kept.size < flat.size:
        rows = xp.take(rows, arrays.asarray_beside(data, kept), axis=1)
    return xp.reshape(arrays.add_at(rows, flat[kept], num_segments), (num_segments, *rest))


def _segment_sum_vjp(g: Tensor, ans: Any, data: Any, ids: np.ndarray, num_segments: int) -> Tensor:
    taken = gather(g, np.maximum(ids, 0))                # each row's gradient is its segment's
    if not ids.size or ids.min() >= 0:
        return taken
    kept = (ids >= 0).reshape(ids.shape + (1,) * (g.ndim - 1))
    return where(kept, taken, zeros_like(taken))         # a dropped row had no effect


_UNSORTED_SEGMENT_SUM = Op("unsorted_segment_sum", _segment_sum_forward, (_segment_sum_vjp,))


def sum_into_segments(data: Tensor, ids: np.ndarray, num_segments: int) -> Tensor:
    """``unsorted_segment_sum`` on ids already checked (a NumPy array on the host): the op itself."""
    return apply(_UNSORTED_SEGMENT_SUM, (data,), {"ids": ids, "num_segments": num_segments})


def _data_and_ids(data: Any, segment_ids: Any, name: str) -> tuple[Tensor, np.ndarray]:
    x = as_operand(data, name)
    NUMBERS.check(name, x)
    check_indices(LABELS, name, segment_ids)
    ids = arrays.integers(plain(segment_ids), f"{name}: segment_ids", InvalidArgumentError)
    return x, ids


def unsorted_segment_sum(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Tensor:
    """Sum the rows of ``data`` into ``num_segments`` rows, row ``i`` into row ``segment_ids[i]``.

    ``segment_ids`` has the shape of ``data``'s leading axes, in any order; a negative id drops
    its row.  Segments no id names are zeros.

    >>> tf.math.unsorted_segment_sum([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [1, -1, 1], 3).numpy()
    array([[0., 0.],
           [6., 8.],
           [0., 0.]], dtype=float32)
    """
    x, ids = _data_and_ids(data, segment_ids, "unsorted_segment_sum")
    count = as_int(num_segments, "unsorted_segment_sum", "num_segments")
    if count < 0:
        raise with_hint(InvalidArgumentError(f"Input num_segments == {count} must not be negative. "
                                             f"[Op:UnsortedSegmentSum]"),
                        "unsorted_segment_sum: num_segments is how many rows the result has: 0 or more.")
    if tuple(x.shape[:ids.ndim]) != ids.shape:
        raise with_hint(InvalidArgumentError(f"data.shape = {arrays.listed(tuple(x.shape))} does not start with "
                                             f"segment_ids.shape = {arrays.listed(ids.shape)} "
                                             f"[Op:UnsortedSegmentSum]"),
                        "unsorted_segment_sum: give one segment id per row of data (its leading axes).")
    beyond = np.flatnonzero(ids.reshape(-1) >= count)
    if beyond.size:
        k = int(beyond[0])
        raise with_hint(InvalidArgumentError(f"segment_ids[{k}] = {ids.reshape(-1)[k]} is out of range "
                                             f"[0, {count}) [Op:UnsortedSegmentSum]"),
                        f"unsorted_segment_sum: ids name rows 0 to {count - 1} (a negative id drops its row); "
                        f"raise num_segments or fix the id.")
    return sum_into_segments(x, ids, count)


def segment_sum(data: Any, segment_ids: Any, name: str | None = None) -> Tensor:
    """Sum the rows of ``data`` by sorted ``segment_ids``: as many segments as the last id plus one.

    >>> tf.math.segment_sum([1.0, 2.0, 3.0, 4.0], [0, 0, 2, 2]).numpy()
    array([3., 0., 7.], dtype=float32)
    """
    x, ids = _data_and_ids(data, segment_ids, "segment_sum")
    if ids.ndim != 1:
        raise _segment_error("segment_ids should be a vector.", "give one id per row of data, as a list.")
    if x.ndim == 0 or ids.size != x.shape[0]:
        raise _segment_error("segment_ids should be the same size as dimension 0 of input.",
                             f"data has {x.shape[0] if x.ndim else 0} rows: give one id for each.")
    count = int(ids[-1]) + 1 if ids.size else 0
    _check_sorted(ids, count)
    return sum_into_segments(x, ids, count)


def _check_sorted(ids: np.ndarray, count: int) -> None:
    """Raise TF's error unless ``ids`` rise (or stay) from one row to the next and lie in ``[0, count)``.

    TF's kernel walks the segments in order, asking at each whether the next id is larger, then
    whether this one is in range: the first segment to fail says which error.
    """
    if ids.size and ids[-1] < 0:                        # TF sizes the result by the last id first
        raise _segment_error("segment ids must be >= 0", "ids number the rows of the result, from 0.")
    starts = np.flatnonzero(np.diff(ids, prepend=ids[:1] - 1))      # where each segment begins
    values = ids[starts]
    falling = np.flatnonzero(values[1:] < values[:-1])
    outside = np.flatnonzero((values < 0) | (values >= count))
    first_fall = falling[0] if falling.size else len(values)
    first_out = outside[0] if outside.size else len(values)
    if first_fall <= first_out and falling.size:       # in one segment, TF asks about the order first
        raise _segment_error("segment ids are not increasing", "sort the ids (and rows), or use "
                             "tf.math.unsorted_segment_sum, which takes them in any order.")
    if first_out < len(values):
        raise _segment_error(f"Segment id {values[first_out]} out of range [0, {count}), possibly because "
                             f"'segment_ids' input is not sorted.", "ids number the rows of the result, from 0; "
                             "for negative ids (rows to drop) use tf.math.unsorted_segment_sum.")


def _segment_error(text: str, advice: str) -> InvalidArgumentError:
    return with_hint(InvalidArgumentError(f"{text} [Op:SegmentSum]"), f"segment_sum: {advice}")
