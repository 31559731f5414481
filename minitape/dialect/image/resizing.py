"""``tf.image.resize`` and the resizes built on it, written as products with interpolation matrices.

Every method TF's ``resize`` has without antialiasing is *separable*: each output row mixes input
rows with fixed weights, and each output column input columns.  So a resize is
``einsum("Hh,bhwc,Ww->bHWc", rows, images, columns)`` with two small matrices built here in NumPy,
and its gradient (the transposed matrices) comes from ``einsum``'s own VJP: nothing to write.

>>> import minitape as tf
>>> image = tf.reshape(tf.range(4.0), (2, 2, 1))
>>> tf.image.resize(image, (4, 4))[..., 0].numpy()
array([[0.  , 0.25, 0.75, 1.  ],
       [0.5 , 0.75, 1.25, 1.5 ],
       [1.5 , 1.75, 2.25, 2.5 ],
       [2.  , 2.25, 2.75, 3.  ]], dtype=float32)
"""
from __future__ import annotations

import enum
import math
from typing import Any

import numpy as np

from minitape import ops
from minitape.core import dtypes
from minitape.core.tensor import Tensor, constant, convert_to_tensor
from minitape.dialect.image.geometry import as_batch, pad_to_bounding_box, unbatch


class ResizeMethod(str, enum.Enum):
    """The names ``tf.image.resize`` takes for its ``method`` (plain strings work as well).

    >>> import minitape as tf
    >>> tf.image.ResizeMethod.NEAREST_NEIGHBOR == "nearest"
    True
    """
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


def bilinear_weights(size: int, out: int) -> np.ndarray:
    """The ``(out, size)`` matrix of linear interpolation with half-pixel centres: output pixel ``o`` sits at
    ``(o + 0.5) * size / out - 0.5`` input pixels (clamped at the edges) and mixes its two neighbours.

    >>> from minitape.dialect.image.resizing import bilinear_weights
    >>> bilinear_weights(2, 4)
    array([[1.  , 0.  ],
           [0.75, 0.25],
           [0.25, 0.75],
           [0.  , 1.  ]])
    """
    matrix = np.zeros((out, size))
    for o in range(out):
        at = (o + 0.5) * size / out - 0.5
        low = math.floor(at)
        matrix[o, min(max(low, 0), size - 1)] += 1 - (at - low)
        matrix[o, min(max(low + 1, 0), size - 1)] += at - low
    return matrix


def nearest_weights(size: int, out: int) -> np.ndarray:
    """The ``(out, size)`` matrix that picks, for output pixel ``o``, input pixel ``floor((o + 0.5) * size / out)``.

    >>> from minitape.dialect.image.resizing import nearest_weights
    >>> nearest_weights(3, 2)
    array([[1., 0., 0.],
           [0., 0., 1.]])
    """
    matrix = np.zeros((out, size))
    for o in range(out):
        matrix[o, min(math.floor((o + 0.5) * size / out), size - 1)] = 1
    return matrix


_TABLE = 1024      # TF's resize_bicubic reads its cubic weights from a table of this many steps


def _keys_cubic(x: np.ndarray, a: float = -0.5) -> np.ndarray:
    """Keys' cubic convolution kernel at distances ``x`` (TF's ``a = -0.5``)."""
    x = np.abs(x)
    return np.where(x <= 1, ((a + 2) * x - (a + 3)) * x * x + 1,
                    np.where(x < 2, ((a * x - 5 * a) * x + 8 * a) * x - 4 * a, 0.0))


def bicubic_weights(size: int, out: int) -> np.ndarray:
    """The ``(out, size)`` matrix of TF's bicubic resize: four taps around each position, their weights read
    from a table of 1024 steps, taps outside the image dropped and the rest renormalised to sum to 1.

    >>> from minitape.dialect.image.resizing import bicubic_weights
    >>> bicubic_weights(4, 2).sum(axis=1)
    array([1., 1.])
    """
    matrix = np.zeros((out, size))
    for o in range(out):
        at = (o + 0.5) * size / out - 0.5
        start = math.floor(at)
        delta = round((at - start) * _TABLE) / _TABLE
        for tap in range(-1, 3):
            if 0 <= start + tap < size:
                matrix[o, start + tap] += _keys_cubic(np.float32(tap - delta))
        matrix[o] /= matrix[o].sum()
    return matrix


def area_weights(size: int, out: int) -> np.ndarray:
    """The ``(out, size)`` matrix of TF's area resize: each output pixel averages the span of input it covers,
    ``[o, o + 1) * size / out``, weighting each input pixel by its overlap.

    >>> from minitape.dialect.image.resizing import area_weights
    >>> area_weights(3, 2)
    array([[0.66666667, 0.33333333, 0.        ],
           [0.        , 0.33333333, 0.66666667]])
    """
    matrix, scale = np.zeros((out, size)), size / out
    for o in range(out):
        start, end = o * scale, (o + 1) * scale
        for i in range(math.floor(start), min(math.ceil(end), size)):
            matrix[o, i] = (min(i + 1, end) - max(i, start)) / scale
    return matrix


_WEIGHTS = {"bilinear": bilinear_weights, "nearest": nearest_weights, "bicubic": bicubic_weights,
            "area": area_weights}


def _size(size: Any) -> tuple[int, int]:
    values = convert_to_tensor(size).numpy() if isinstance(size, Tensor) else np.asarray(size)
    if values.shape != (2,) or not np.issubdtype(values.dtype, np.integer):
        raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    return int(values[0]), int(values[1])


def interpolate(batch: Tensor, height: int, width: int, method: str = "bilinear") -> Tensor:
    """A batch ``(n, h, w, c)`` resampled to ``(n, height, width, c)`` by ``method``, in the batch's own dtype:
    ``resize`` after its checks and its cast to float32.

    >>> import minitape as tf
    >>> from minitape.dialect.image.resizing import interpolate
    >>> interpolate(tf.ones((1, 2, 2, 1), tf.float64), 3, 1).dtype
    tf.float64
    """
    rows = _WEIGHTS[method](batch.shape[1], height)
    columns = _WEIGHTS[method](batch.shape[2], width)
    if method == "nearest":          # a selection: gathers keep integer dtypes (and are exact)
        return ops.gather(ops.gather(batch, rows.argmax(axis=1), axis=1), columns.argmax(axis=1), axis=2)
    return ops.einsum("Hh,bhwc,Ww->bHWc", ops.cast(rows, batch.dtype), batch, ops.cast(columns, batch.dtype))


def resize(images: Any, size: Any, method: str = ResizeMethod.BILINEAR, preserve_aspect_ratio: bool = False,
           antialias: bool = False, name: str | None = None) -> Tensor:
    """Resize an image ``(h, w, c)`` or a batch ``(n, h, w, c)`` to ``size = (height, width)``.

    ``method`` is ``"bilinear"`` (the default), ``"nearest"``, ``"bicubic"`` or ``"area"``; the result is
    float32 except with ``"nearest"``, which keeps the dtype.  ``preserve_aspect_ratio`` shrinks ``size``
    to the largest one with the image's aspect ratio.  Differentiable with respect to ``images``.

    >>> import minitape as tf
    >>> tf.image.resize(tf.ones((1, 4, 6, 3)), (8, 8), preserve_aspect_ratio=True).shape
    TensorShape([1, 5, 8, 3])
    >>> tf.image.resize(tf.constant([[[1], [2]]]), (1, 4), "nearest").dtype
    tf.int32
    """
    method = str(getattr(method, "value", method))
    if method not in _WEIGHTS:
        raise ValueError(f"Resize method is not implemented: {method}"
                         + (" by minitape; use 'bilinear', 'nearest', 'bicubic' or 'area'."
                            if method in ResizeMethod._value2member_map_ else ""))
    if antialias:
        raise NotImplementedError("tf.image.resize: antialias=True is not implemented by minitape; "
                                  "pass antialias=False (the default).")
    batch, single = as_batch(images, "images")
    height, width = _size(size)
    if preserve_aspect_ratio:
        scale = min(np.float32(height) / np.float32(batch.shape[1]), np.float32(width) / np.float32(batch.shape[2]))
        height, width = (int(np.round(scale * np.float32(n))) for n in batch.shape[1:3])
    if method != "nearest":
        batch = ops.cast(batch, dtypes.float32)
    batch = interpolate(batch, height, width, method)
    return unbatch(batch, single)


def resize_with_pad(image: Any, target_height: int, target_width: int, method: str = ResizeMethod.BILINEAR,
                    antialias: bool = False) -> Tensor:
    """Resize to fit inside ``(target_height, target_width)`` keeping the aspect ratio, then pad with zeros
    (centred) to exactly that size.

    >>> import minitape as tf
    >>> tf.image.resize_with_pad(tf.ones((2, 4, 1)), 4, 4)[..., 0].numpy()
    array([[0., 0., 0., 0.],
           [1., 1., 1., 1.],
           [1., 1., 1., 1.],
           [0., 0., 0., 0.]], dtype=float32)
    """
    batch, single = as_batch(image, "image")
    if target_height <= 0 or target_width <= 0:
        raise ValueError(f"target_{'width' if target_width <= 0 else 'height'} must be > 0.")
    height, width = np.float32(batch.shape[1]), np.float32(batch.shape[2])
    ratio = max(width / np.float32(target_width), height / np.float32(target_height))
    new_height, new_width = height / ratio, width / ratio
    resized = resize(batch, (int(np.floor(new_height)), int(np.floor(new_width))), method, antialias=antialias)
    top = max(0, int((np.float32(target_height) - new_height) / 2))
    left = max(0, int((np.float32(target_width) - new_width) / 2))
    return unbatch(pad_to_bounding_box(resized, top, left, target_height, target_width), single)
