"""Layers that resize NHWC images without weights: ``UpSampling2D`` and ``ZeroPadding2D``.

>>> import minitape as tf
>>> x = tf.reshape(tf.range(1.0, 5.0), (1, 2, 2, 1))
>>> tf.keras.layers.UpSampling2D()(x)[0, :, :, 0].numpy()
array([[1., 1., 2., 2.],
       [1., 1., 2., 2.],
       [3., 3., 4., 4.],
       [3., 3., 4., 4.]], dtype=float32)
>>> tf.keras.layers.ZeroPadding2D(((1, 0), (0, 1)))(x)[0, :, :, 0].numpy()
array([[0., 0., 0.],
       [1., 2., 0.],
       [3., 4., 0.]], dtype=float32)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape import ops
from minitape.core.tensor import Tensor
from minitape.keras.layers import checks
from minitape.keras.layers.core import Layer


def _repeat(x: Tensor, times: int, axis: int) -> Tensor:
    """Each entry of ``x`` along ``axis`` repeated ``times`` times in place (``tf.repeat``): a new axis after it,
    broadcast to ``times``, folded back in.  Its gradient sums each run of copies (``broadcast_to``'s VJP)."""
    shape = list(x.shape)
    spread = ops.broadcast_to(ops.expand_dims(x, axis + 1), shape[:axis + 1] + [times] + shape[axis + 1:])
    return ops.reshape(spread, shape[:axis] + [shape[axis] * times] + shape[axis + 1:])


def bilinear_matrix(size: int, factor: int) -> np.ndarray:
    """The ``(size * factor, size)`` matrix of linear interpolation along one axis, with half-pixel centres.

    Output pixel ``o`` sits at ``(o + 0.5) / factor - 0.5`` in input pixels (clamped at the edges)
    and mixes its two neighbours by distance: ``tf.image.resize``'s ``"bilinear"``, as Keras 3 uses it.

    >>> from minitape.keras.layers.reshaping2d import bilinear_matrix
    >>> bilinear_matrix(2, 2)
    array([[1.  , 0.  ],
           [0.75, 0.25],
           [0.25, 0.75],
           [0.  , 1.  ]], dtype=float32)
    """
    matrix = np.zeros((size * factor, size), np.float32)
    for o in range(size * factor):
        at = (o + 0.5) / factor - 0.5
        low = int(np.floor(at))
        weight = at - low
        matrix[o, min(max(low, 0), size - 1)] += 1 - weight
        matrix[o, min(max(low + 1, 0), size - 1)] += weight
    return matrix


class UpSampling2D(Layer):
    """Grow an image by ``size`` (rows, columns): each pixel copied (``"nearest"``) or interpolated (``"bilinear"``).

    >>> import minitape as tf
    >>> up = tf.keras.layers.UpSampling2D(size=(1, 2), interpolation="bilinear")
    >>> up(tf.constant([[[[0.0], [4.0]]]]))[0, 0, :, 0].numpy()
    array([0., 1., 3., 4.], dtype=float32)
    """

    def __init__(self, size: int | tuple[int, int] = (2, 2), data_format: str | None = None,
                 interpolation: str = "nearest", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.size = checks.pair(size, "size")
        checks.channels_last(data_format)
        self.interpolation = interpolation.lower()
        if self.interpolation not in ("nearest", "bilinear"):
            raise ValueError(f"UpSampling2D: interpolation={interpolation!r} is not supported by minitape; "
                             f"use 'nearest' or 'bilinear'.")

    def call(self, inputs: Tensor) -> Tensor:
        """Each axis grown in turn: repeats (nearest), or a product with ``bilinear_matrix`` (bilinear).

        >>> import minitape as tf
        >>> tf.keras.layers.UpSampling2D(3).call(tf.ones((2, 2, 4, 5))).shape
        TensorShape([2, 6, 12, 5])
        """
        checks.ndim(self, inputs, 4)
        if self.interpolation == "nearest":
            return _repeat(_repeat(inputs, self.size[0], 1), self.size[1], 2)
        rows = ops.cast(bilinear_matrix(inputs.shape[1], self.size[0]), inputs.dtype)
        columns = ops.cast(bilinear_matrix(inputs.shape[2], self.size[1]), inputs.dtype)
        return ops.einsum("Hh,bhwc,Ww->bHWc", rows, inputs, columns)


class ZeroPadding2D(Layer):
    """Zeros around an image: ``padding`` is an int (all sides), ``(rows, columns)`` or ``((top, bottom),
    (left, right))``.

    >>> import minitape as tf
    >>> tf.keras.layers.ZeroPadding2D((1, 2))(tf.ones((1, 3, 3, 2))).shape
    TensorShape([1, 5, 7, 2])
    """

    def __init__(self, padding: int | tuple = (1, 1), data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        checks.channels_last(data_format)
        if isinstance(padding, int):
            padding = (padding, padding)
        if not hasattr(padding, "__len__") or len(padding) != 2:
            raise ValueError(f"`padding` should have two elements. Received: padding={padding}.")
        self.padding = tuple(checks.non_negative_pair(side, f"{which} entry of padding")
                             for side, which in zip(padding, ("1st", "2nd")))

    def call(self, inputs: Tensor) -> Tensor:
        """``tf.pad`` with the rows and columns of ``padding``, none on the batch and channels.

        >>> import minitape as tf
        >>> tf.keras.layers.ZeroPadding2D(1).call(tf.ones((1, 1, 1, 1)))[0, :, :, 0].numpy()
        array([[0., 0., 0.],
               [0., 1., 0.],
               [0., 0., 0.]], dtype=float32)
        """
        checks.ndim(self, inputs, 4)
        return ops.pad(inputs, [[0, 0], list(self.padding[0]), list(self.padding[1]), [0, 0]])

