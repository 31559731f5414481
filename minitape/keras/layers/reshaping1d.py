"""Layers that change the length of sequences ``(batch, steps, features)`` or the size of images without
weights: ``Cropping1D``, ``ZeroPadding1D``, ``UpSampling1D`` and ``Cropping2D``.

>>> import minitape as tf
>>> x = tf.reshape(tf.range(1.0, 4.0), (1, 3, 1))
>>> tf.keras.layers.ZeroPadding1D(1)(x)[0, :, 0].numpy()
array([0., 1., 2., 3., 0.], dtype=float32)
>>> tf.keras.layers.UpSampling1D(2)(x)[0, :, 0].numpy()
array([1., 1., 2., 2., 3., 3.], dtype=float32)
"""
from __future__ import annotations

from typing import Any

from minitape import ops
from minitape.core.tensor import Tensor
from minitape.keras.layers import checks
from minitape.keras.layers.core import Layer
from minitape.keras.layers.reshaping2d import _repeat


def _sides(value: Any, name: str) -> tuple[int, int]:
    """An int (both ends) or ``(start, end)``, each >= 0."""
    return checks.non_negative_pair(value, name)


class Cropping1D(Layer):
    """Cut ``cropping = (start, end)`` steps (or one int for both) off each sequence.

    >>> import minitape as tf
    >>> tf.keras.layers.Cropping1D((1, 2))(tf.ones((2, 6, 3))).shape
    TensorShape([2, 3, 3])
    """

    def __init__(self, cropping: int | tuple[int, int] = (1, 1), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cropping = _sides(cropping, "cropping")

    def call(self, inputs: Tensor) -> Tensor:
        """``inputs[:, start:steps - end]``.

        >>> import minitape as tf
        >>> tf.keras.layers.Cropping1D(1).call(tf.reshape(tf.range(4.0), (1, 4, 1)))[0, :, 0].numpy()
        array([1., 2.], dtype=float32)
        """
        checks.ndim(self, inputs, 3)
        start, end = self.cropping
        if start + end >= inputs.shape[1]:
            raise ValueError(f"`cropping` parameter of `Cropping1D` layer must be smaller than the input length. "
                             f"Received: inputs.shape={tuple(inputs.shape)}, and cropping={self.cropping}")
        return inputs[:, start:inputs.shape[1] - end]


class ZeroPadding1D(Layer):
    """Zeros at the start and end of each sequence: ``padding`` an int or ``(start, end)``.

    >>> import minitape as tf
    >>> tf.keras.layers.ZeroPadding1D((1, 2))(tf.ones((2, 3, 4))).shape
    TensorShape([2, 6, 4])
    """

    def __init__(self, padding: int | tuple[int, int] = 1, data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        checks.channels_last(data_format)
        self.padding = _sides(padding, "padding")

    def call(self, inputs: Tensor) -> Tensor:
        """``tf.pad`` of the steps axis.

        >>> import minitape as tf
        >>> tf.keras.layers.ZeroPadding1D(1).call(tf.ones((1, 1, 1)))[0, :, 0].numpy()
        array([0., 1., 0.], dtype=float32)
        """
        checks.ndim(self, inputs, 3)
        return ops.pad(inputs, [[0, 0], list(self.padding), [0, 0]])


class UpSampling1D(Layer):
    """Repeat each step ``size`` times.

    >>> import minitape as tf
    >>> tf.keras.layers.UpSampling1D(3)(tf.ones((2, 4, 5))).shape
    TensorShape([2, 12, 5])
    """

    def __init__(self, size: int = 2, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.size = checks.integers(size, 1, "size")[0]

    def call(self, inputs: Tensor) -> Tensor:
        """Each step repeated in place (its gradient sums the copies).

        >>> import minitape as tf
        >>> tf.keras.layers.UpSampling1D().call(tf.constant([[[1.0], [2.0]]]))[0, :, 0].numpy()
        array([1., 1., 2., 2.], dtype=float32)
        """
        checks.ndim(self, inputs, 3)
        return _repeat(inputs, self.size, 1)


class Cropping2D(Layer):
    """Cut rows and columns off each image: ``cropping`` an int, ``(rows, columns)`` (both ends each) or
    ``((top, bottom), (left, right))``.

    >>> import minitape as tf
    >>> tf.keras.layers.Cropping2D(((1, 0), (2, 2)))(tf.ones((1, 5, 6, 3))).shape
    TensorShape([1, 4, 2, 3])
    """

    def __init__(self, cropping: Any = ((0, 0), (0, 0)), data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        checks.channels_last(data_format)
        if isinstance(cropping, int):
            cropping = (cropping, cropping)
        if not hasattr(cropping, "__len__") or len(cropping) != 2:
            raise ValueError(f"`cropping` should be either an int, a tuple of 2 ints (symmetric_height_crop, "
                             f"symmetric_width_crop), or a tuple of 2 tuples of 2 ints ((top_crop, bottom_crop), "
                             f"(left_crop, right_crop)). Received: cropping={cropping}.")
        self.cropping = tuple(_sides(side, f"{which} entry of cropping")
                              for side, which in zip(cropping, ("1st", "2nd")))

    def call(self, inputs: Tensor) -> Tensor:
        """``inputs[:, top:h - bottom, left:w - right]``.

        >>> import minitape as tf
        >>> tf.keras.layers.Cropping2D(1).call(tf.reshape(tf.range(9.0), (1, 3, 3, 1)))[0, :, :, 0].numpy()
        array([[4.]], dtype=float32)
        """
        checks.ndim(self, inputs, 4)
        (top, bottom), (left, right) = self.cropping
        if top + bottom >= inputs.shape[1] or left + right >= inputs.shape[2]:
            raise ValueError(f"Values in `cropping` argument should be smaller than the corresponding spatial "
                             f"dimension of the input. Received: input_shape={tuple(inputs.shape)}, "
                             f"cropping={self.cropping}")
        return inputs[:, top:inputs.shape[1] - bottom, left:inputs.shape[2] - right]
