"""Sliding windows over NHWC images: the geometry that convolution and pooling share.

A window of ``size`` (height, width) slides over an image, moving by ``strides``; its taps are
``dilations`` apart; the image is first padded with ``pads`` rows above and below and columns
left and right.  Rather than visit the windows one by one, minitape visits the taps: for one
tap ``(i, j)`` of the window, the values it reads across every window position form a strided
slice of the padded image, with one entry per output pixel.  A convolution multiplies each such
slice by the filter's ``(i, j)`` matrix and adds the products up; a max-pool takes their maximum.
Convolution reads the same slices as blocks of rows of the image flattened one pixel per row
(``grid``, ``flat_taps``, ``block``): there a tap's slice is a contiguous block, not a strided one.

>>> from minitape.ops.windows import Window
>>> window = Window.sliding("conv2d", image=(5, 5), size=(3, 3), strides=(2, 2), padding="SAME")
>>> window.pads, window.output
(((1, 1), (1, 1)), (3, 3))
>>> [key[1:3] for i, j, key in window.taps()][:2]
[(slice(0, 5, 2), slice(0, 5, 2)), (slice(0, 5, 2), slice(1, 6, 2))]
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from typing import Any

from minitape.core import arrays
from minitape.core.errors import InvalidArgumentError, UnimplementedError
from minitape.ops.arguments import ints

Pair = tuple[int, int]


def spatial(value: Any, argument: str, op: str) -> Pair:
    """TF's forms of ``strides``, ``dilations`` and ``ksize``: ``n``, ``[n]``, ``[h, w]`` or ``[1, h, w, 1]``.

    >>> from minitape.ops.windows import spatial
    >>> spatial(2, "strides", "conv2d"), spatial([1, 2, 3, 1], "strides", "conv2d")
    ((2, 2), (2, 3))
    >>> spatial([2, 2, 2], "strides", "conv2d")
    Traceback (most recent call last):
    ...
    ValueError: conv2d: strides should be of length 1, 2 or 4. Received: strides=[2, 2, 2] of length 3.
    """
    values = ints(value, op, argument)
    if len(values) == 4:
        if values[0] != 1 or values[3] != 1:
            raise UnimplementedError(f"{op}: {argument}={list(values)} moves along the batch or depth dimension, which "
                                     f"is not supported (as in TF); give [1, height, width, 1] or [height, width].")
        values = values[1:3]
    elif len(values) not in (1, 2):
        raise ValueError(f"{op}: {argument} should be of length 1, 2 or 4. Received: {argument}={value!r} "
                         f"of length {len(values)}.")
    height, width = values * 2 if len(values) == 1 else values
    if height <= 0 or width <= 0:
        raise InvalidArgumentError(f"{op}: {argument} must be > 0, got {value!r}.")
    return height, width


def explicit_pads(padding: Any, op: str) -> tuple[Pair, Pair]:
    """TF's explicit padding ``[[0, 0], [top, bottom], [left, right], [0, 0]]`` as ``((top, bottom), (left, right))``.

    >>> from minitape.ops.windows import explicit_pads
    >>> explicit_pads([[0, 0], [1, 2], [0, 1], [0, 0]], "conv2d")
    ((1, 2), (0, 1))
    """
    if len(padding) != 4:
        raise ValueError(f"{op}: when padding is a list, it must be of size 4 ([[0, 0], [top, bottom], [left, right], "
                         f"[0, 0]]). Received: padding={padding!r} of size {len(padding)}.")
    pairs = []
    for k, pair in enumerate(padding):
        if len(pair) != 2:
            raise ValueError(f"{op}: when padding is a list, each element of padding must be a list/tuple of size 2. "
                             f"Received: padding={padding!r} with element at index {k} of size {len(pair)}.")
        pairs.append(ints(pair, op, "padding"))
    if pairs[0] != (0, 0) or pairs[3] != (0, 0):
        raise InvalidArgumentError(f"{op}: nonzero explicit padding in the batch or depth dimensions is not "
                                   f"supported; got padding={padding!r}.")
    if min(pairs[1] + pairs[2]) < 0:
        raise InvalidArgumentError(f"{op}: all elements of explicit padding must be nonnegative; "
                                   f"got padding={padding!r}.")
    return pairs[1], pairs[2]


def same_pads(image: int, reach: int, stride: int) -> Pair:
    """TF's ``'SAME'``: as many outputs as ``ceil(image / stride)``, the padding split evenly, the odd one after."""
    outputs = -(-image // stride)
    total = max((outputs - 1) * stride + reach - image, 0)
    return total // 2, total - total // 2


def _towards_zero(a: int, b: int) -> int:
    """``a / b`` for a positive ``b``, rounded towards 0 as C's integer division does (``-1 / 2`` is 0)."""
    return -(-a // b) if a < 0 else a // b


def _taps(start: int, step: int, count: int) -> slice:
    """``count`` positions from ``start``, ``step`` apart, with an exact stop (the standard has no clipping)."""
    return slice(start, start + step * (count - 1) + 1, step) if count else slice(0, 0)


@dataclasses.dataclass(frozen=True)
class Window:
    """Where a sliding window reads a padded NHWC image: ``image`` and ``output`` are (height, width).

    >>> from minitape.ops.windows import Window
    >>> Window.sliding("max_pool2d", image=(4, 4), size=(2, 2), strides=(2, 2), padding="VALID").output
    (2, 2)
    """

    image: Pair
    size: Pair
    strides: Pair
    dilations: Pair
    pads: tuple[Pair, Pair]
    output: Pair

    @classmethod
    def sliding(cls, op: str, image: Pair, size: Pair, strides: Pair, padding: Any,
                dilations: Pair = (1, 1), explicit: bool = True) -> "Window":
        """The window of ``op`` over an image of ``image`` pixels, with TF's ``padding`` rule.

        >>> from minitape.ops.windows import Window
        >>> Window.sliding("conv2d", image=(5, 5), size=(7, 7), strides=(1, 1), padding="VALID")
        Traceback (most recent call last):
        ...
        minitape.core.errors.InvalidArgumentError: conv2d: Computed output size would be negative: -1 [input_size: 5, effective_filter_size: 7, stride: 1]; pad the input ('SAME') or use a smaller window.
        """
        reach = tuple((k - 1) * d + 1 for k, d in zip(size, dilations))      # a dilated window's extent
        if isinstance(padding, str) and padding in ("SAME", "VALID"):
            pads = tuple(same_pads(*args) if padding == "SAME" else (0, 0) for args in zip(image, reach, strides))
        elif padding == "EXPLICIT":
            raise ValueError(f"{op}: 'EXPLICIT' is not a valid value for padding. To use explicit padding, "
                             f"padding must be a list.")
        elif isinstance(padding, list | tuple) and explicit:
            pads = explicit_pads(padding, op)
        elif isinstance(padding, str):
            raise InvalidArgumentError(f"{op}: padding must be 'SAME' or 'VALID' (upper case, as TF), got {padding!r}.")
        else:
            raise TypeError(f"{op}: expected a string for padding ('SAME' or 'VALID'), got {padding!r}.")
        output = []
        for n, (before, after), k, s in zip(image, pads, reach, strides):
            # TF's count of window positions: 'SAME' has ceil(n / s); otherwise it is divided as C divides
            # (towards 0), so a window up to a stride too big has 0 positions, an empty output; one bigger is an error.
            count = -(-n // s) if padding == "SAME" else _towards_zero(n + before + after - k + s, s)
            if count < 0:
                raise InvalidArgumentError(
                    f"{op}: Computed output size would be negative: {count} [input_size: {n}, "
                    f"effective_filter_size: {k}, stride: {s}]; pad the input ('SAME') or use a smaller window.")
            output.append(count)
        return cls(tuple(image), tuple(size), tuple(strides), tuple(dilations), pads, tuple(output))

    def taps(self) -> Iterator[tuple[int, int, tuple]]:
        """Each tap ``(i, j)`` of the window and the key of the padded image's slice it reads, row by row.

        >>> from minitape.ops.windows import Window
        >>> window = Window.sliding("avg_pool2d", image=(3, 3), size=(1, 2), strides=(1, 1), padding="VALID")
        >>> [(i, j, key[2]) for i, j, key in window.taps()]
        [(0, 0, slice(0, 2, 1)), (0, 1, slice(1, 3, 1))]
        """
        (sh, sw), (dh, dw), (oh, ow) = self.strides, self.dilations, self.output
        for i in range(self.size[0]):
            for j in range(self.size[1]):
                yield i, j, (slice(None), _taps(i * dh, sh, oh), _taps(j * dw, sw, ow), slice(None))

    def padded_shape(self, batch: int, channels: int, grid: bool = False) -> tuple[int, int, int, int]:
        """The shape of a padded image of ``batch`` examples with ``channels`` channels.

        With ``grid``, rounded up to whole strides (more zeros below and on the right), so that the
        image splits into ``strides`` phases of equal size (see ``flat_taps``).

        >>> Window.sliding("conv2d", (4, 4), (3, 3), (1, 1), "SAME").padded_shape(2, 3)
        (2, 6, 6, 3)
        >>> Window.sliding("conv2d", (4, 4), (3, 3), (2, 2), "VALID").padded_shape(2, 3, grid=True)
        (2, 4, 4, 3)
        """
        (top, bottom), (left, right) = self.pads
        height, width = self.image[0] + top + bottom, self.image[1] + left + right
        if grid:
            height, width = (-(-n // s) * s for n, s in zip((height, width), self.strides))
        return batch, height, width, channels

    def pad(self, x: Any, value: float | int = 0, grid: bool = False) -> Any:
        """The array ``x`` (NHWC, any backend) surrounded by ``value``; ``x`` itself when nothing is padded.

        >>> Window.sliding("conv2d", (1, 2), (2, 1), (1, 1), "SAME").pad(np.ones((1, 1, 2, 1)))[0, :, :, 0]
        array([[1., 1.],
               [0., 0.]])
        """
        shape = self.padded_shape(x.shape[0], x.shape[3], grid)
        if shape == tuple(x.shape):
            return x
        padded = arrays.empty_beside(x, shape)
        padded[self.inside()] = x
        rows, columns = self.inside()[1:3]
        everything = slice(None)
        for band in ((slice(0, rows.start), everything), (slice(rows.stop, None), everything),
                     (rows, slice(0, columns.start)), (rows, slice(columns.stop, None))):
            padded[(everything, *band, everything)] = value    # the four bands around the image, not all then x
        return padded

    # The windows as blocks of rows: convolution's view (see ``convolution``).

    def grid(self, batch: int) -> tuple[int, int, int]:
        """Images, rows and columns of each stride phase of the padded image (``pad(x, grid=True)``).

        >>> Window.sliding("conv2d", (5, 5), (3, 3), (2, 2), "SAME").grid(8)
        (8, 4, 4)
        """
        shape = self.padded_shape(batch, 1, grid=True)
        return batch, shape[1] // self.strides[0], shape[2] // self.strides[1]

    def flat_taps(self) -> Iterator[tuple[int, int, Pair, int]]:
        """Each tap ``(i, j)``, the stride phase ``(a, b)`` it reads and where its block starts in that phase.

        Phase ``(a, b)`` holds the padded image's rows ``a, a + sh, ...`` and columns ``b, b + sw, ...``,
        flattened to one row per pixel.  The output pixel at row ``p`` of the grid reads, for tap
        ``(i, j)``, the pixel ``offset`` rows further on in the tap's phase.

        >>> window = Window.sliding("conv2d", (4, 4), (2, 2), (2, 2), "VALID")
        >>> list(window.flat_taps())
        [(0, 0, (0, 0), 0), (0, 1, (0, 1), 0), (1, 0, (1, 0), 0), (1, 1, (1, 1), 0)]
        >>> [offset for i, j, phase, offset in Window.sliding("conv2d", (4, 4), (2, 2), (1, 1), "VALID").flat_taps()]
        [0, 1, 4, 5]
        """
        (sh, sw), (dh, dw), columns = self.strides, self.dilations, self.grid(0)[2]
        for i in range(self.size[0]):
            for j in range(self.size[1]):
                yield i, j, (i * dh % sh, j * dw % sw), i * dh // sh * columns + j * dw // sw

    def phases(self) -> list[Pair]:
        """The stride phases that some tap reads, in order.

        >>> Window.sliding("conv2d", (4, 4), (1, 1), (2, 2), "VALID").phases()
        [(0, 0)]
        """
        return sorted({phase for i, j, phase, offset in self.flat_taps()})

    def block(self, batch: int) -> int:
        """How many rows each tap's block has: the grid's rows up to the last one every tap can read from.

        Every output pixel is among them (its window stays inside the padded image).

        >>> Window.sliding("conv2d", (4, 4), (2, 2), (1, 1), "VALID").block(1)
        11
        """
        last = max((offset for i, j, phase, offset in self.flat_taps()), default=0)
        return max(math.prod(self.grid(batch)) - last, 0)

    def inside(self) -> tuple[slice, ...]:
        """The key of the image within the padded image: cropping by it undoes ``pad``.

        >>> Window.sliding("conv2d", (1, 2), (2, 1), (1, 1), "SAME").inside()[1:3]
        (slice(0, 1, None), slice(0, 2, None))
        """
        (top, _), (left, _) = self.pads
        return (slice(None), slice(top, top + self.image[0]), slice(left, left + self.image[1]), slice(None))


def check_image(op: str, x: Any, data_format: str, more_batch_axes: bool = False) -> None:
    """Raise unless ``x`` is a batch of NHWC images: of rank 4, or at least 4 with ``more_batch_axes``.

    >>> from minitape.ops.windows import check_image
    >>> check_image("max_pool2d", tf.ones((2, 3)), "NHWC")
    Traceback (most recent call last):
    ...
    minitape.core.errors.InvalidArgumentError: max_pool2d: input must be 4-dimensional [batch, height, width, channels], got shape (2, 3).
    """
    if data_format in ("NCHW", "NCHW_VECT_C"):
        raise UnimplementedError(f"{op}: data_format={data_format!r} is not supported: minitape's {op} only supports "
                                 f"the NHWC tensor format, as TF's on the CPU. Transpose the input with "
                                 f"tf.transpose(x, [0, 2, 3, 1]) and leave data_format='NHWC'.")
    if data_format != "NHWC":
        raise InvalidArgumentError(f"{op}: data_format must be 'NHWC', got {data_format!r}.")
    if x.ndim < 4 or (x.ndim > 4 and not more_batch_axes):
        raise InvalidArgumentError(f"{op}: input must be {'at least ' if more_batch_axes else ''}4-dimensional "
                                   f"[batch, height, width, channels], got shape {tuple(x.shape)}.")
