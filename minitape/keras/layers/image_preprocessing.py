"""Image preprocessing and augmentation layers: ``Resizing``, ``CenterCrop``, and the random ones
(``RandomFlip``, ``RandomRotation``, ``RandomZoom``, ``RandomTranslation``, ``RandomContrast``,
``RandomBrightness``, ``RandomCrop``), which change the images only while ``training`` and pass them
through otherwise, as Keras 3's do.

Rotations, zooms and translations move pixels by an affine map (``affine_transform``): each output
pixel reads the input at a computed place, the four pixels around it mixed by ``ops.gather``, so the
images' gradient flows through.

>>> import minitape as tf
>>> flip = tf.keras.layers.RandomFlip("horizontal")
>>> x = tf.reshape(tf.range(4.0), (1, 2, 2, 1))
>>> flip(x, training=False) is x                   # inference: unchanged
True
>>> tf.keras.layers.Resizing(4, 4)(x).shape
TensorShape([1, 4, 4, 1])
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from minitape import ops
from minitape.core import random
from minitape.core.tensor import Tensor, convert_to_tensor
from minitape.dialect import image
from minitape.dialect.image.geometry import as_batch, unbatch
from minitape.keras.layers import checks
from minitape.keras.layers.core import Layer


def crop_to_aspect_ratio(batch: Tensor, height: int, width: int) -> Tensor:
    """The largest centred window of ``batch`` with the aspect ratio ``height : width`` (Keras' rounding).

    >>> import minitape as tf
    >>> from minitape.keras.layers.image_preprocessing import crop_to_aspect_ratio
    >>> crop_to_aspect_ratio(tf.ones((1, 4, 8, 3)), 2, 2).shape
    TensorShape([1, 4, 4, 3])
    """
    rows, columns = batch.shape[1], batch.shape[2]
    crop_rows = max(min(rows, int(float(columns * height) / width)), 1)
    crop_columns = max(min(columns, int(float(rows * width) / height)), 1)
    top, left = int(float(rows - crop_rows) / 2), int(float(columns - crop_columns) / 2)
    return batch[:, top:top + crop_rows, left:left + crop_columns]


class Resizing(Layer):
    """Resize images to ``(height, width)`` with ``tf.image.resize``; ``crop_to_aspect_ratio`` first crops the
    centre to the target's aspect ratio, so nothing is stretched.  The images keep their dtype.

    >>> import minitape as tf
    >>> tf.keras.layers.Resizing(2, 2, crop_to_aspect_ratio=True)(tf.ones((1, 4, 8, 3))).shape
    TensorShape([1, 2, 2, 3])
    """
    casts_inputs = False                 # uint8 pixels come back uint8, as Keras 3 gives them

    def __init__(self, height: int, width: int, interpolation: str = "bilinear", crop_to_aspect_ratio: bool = False,
                 pad_to_aspect_ratio: bool = False, fill_mode: str = "constant", fill_value: float = 0.0,
                 antialias: bool = False, data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        checks.channels_last(data_format)
        if pad_to_aspect_ratio and crop_to_aspect_ratio:
            raise ValueError("Only one of `pad_to_aspect_ratio` and `crop_to_aspect_ratio` can be `True`.")
        if pad_to_aspect_ratio or antialias:
            raise ValueError("Resizing: pad_to_aspect_ratio and antialias are not supported by minitape; "
                             "use crop_to_aspect_ratio, or tf.image.resize_with_pad before the model.")
        self.height, self.width = height, width
        self.interpolation, self.crop_to_aspect_ratio = interpolation, crop_to_aspect_ratio

    def call(self, inputs: Tensor) -> Tensor:
        """``tf.image.resize(inputs, (height, width), interpolation)`` (after the crop, if asked for).

        >>> import minitape as tf
        >>> tf.keras.layers.Resizing(1, 3, "nearest").call(tf.ones((2, 5, 5, 1))).shape
        TensorShape([2, 1, 3, 1])
        """
        inputs = convert_to_tensor(inputs)
        batch, single = as_batch(inputs, "images")
        if self.crop_to_aspect_ratio:
            batch = crop_to_aspect_ratio(batch, self.height, self.width)
        resized = image.resize(batch, (self.height, self.width), self.interpolation)
        if inputs.dtype.is_integer and resized.dtype.is_floating:        # back to whole pixel values, rounded
            resized = ops.round(resized)
        return unbatch(ops.cast(resized, inputs.dtype), single)


def _center_crop(batch: Tensor, height: int, width: int) -> Tensor:
    """The centred ``height × width`` window, or, for an image smaller than that, Keras' ``smart_resize``."""
    rows, columns = batch.shape[1] - height, batch.shape[2] - width
    if rows >= 0 and columns >= 0:
        return batch[:, rows // 2:rows // 2 + height, columns // 2:columns // 2 + width]
    return ops.cast(image.resize(crop_to_aspect_ratio(batch, height, width), (height, width)), batch.dtype)


class CenterCrop(Layer):
    """The centred ``height × width`` window of each image (an image smaller than that is cropped to the aspect
    ratio and resized up, as Keras 3 does).

    >>> import minitape as tf
    >>> tf.keras.layers.CenterCrop(2, 3)(tf.ones((1, 5, 5, 3))).shape
    TensorShape([1, 2, 3, 3])
    """

    def __init__(self, height: int, width: int, data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        checks.channels_last(data_format)
        self.height, self.width = height, width

    def call(self, inputs: Tensor) -> Tensor:
        """The centre crop of one image or of a batch.

        >>> import minitape as tf
        >>> tf.keras.layers.CenterCrop(1, 1).call(tf.reshape(tf.range(9.0), (3, 3, 1)))[..., 0].numpy()
        array([[4.]], dtype=float32)
        """
        batch, single = as_batch(inputs, "images")
        return unbatch(_center_crop(batch, self.height, self.width), single)


def _fold(index: np.ndarray, size: int, fill_mode: str) -> tuple[np.ndarray, np.ndarray]:
    """Indices outside ``[0, size)`` brought back as ``fill_mode`` says, and where they were inside already."""
    inside = (index >= 0) & (index < size)
    if fill_mode == "reflect":                    # d c b a | a b c d | d c b a
        index = np.mod(index, 2 * size)
        index = np.where(index >= size, 2 * size - 1 - index, index)
    elif fill_mode == "wrap":
        index = np.mod(index, size)
    return np.clip(index, 0, size - 1), inside | (fill_mode != "constant")


def affine_transform(batch: Tensor, transforms: np.ndarray, fill_mode: str = "reflect", fill_value: float = 0.0,
                     interpolation: str = "bilinear") -> Tensor:
    """Move pixels by affine maps, one per image: output pixel ``(y, x)`` reads the input at
    ``(b0 x + b1 y + b2, a0 x + a1 y + a2)`` for ``transforms[i] = [a0, a1, a2, b0, b1, b2]``.

    >>> import minitape as tf
    >>> import numpy as np
    >>> from minitape.keras.layers.image_preprocessing import affine_transform
    >>> shift = np.array([[1.0, 0.0, 1.0, 0.0, 1.0, 0.0]])          # read one pixel to the right
    >>> affine_transform(tf.constant([[[[1.0], [2.0], [3.0]]]]), shift, "constant")[0, 0, :, 0].numpy()
    array([2., 3., 0.], dtype=float32)
    """
    n, height, width, channels = batch.shape
    ys, xs = np.meshgrid(np.arange(height), np.arange(width), indexing="ij")
    a = [transforms[:, k, None, None] for k in range(6)]
    x_in, y_in = a[0] * xs + a[1] * ys + a[2], a[3] * xs + a[4] * ys + a[5]
    if interpolation == "nearest":
        corners = [(np.round(y_in), np.round(x_in), np.ones_like(x_in))]
    else:
        y0, x0 = np.floor(y_in), np.floor(x_in)
        dy, dx = y_in - y0, x_in - x0
        corners = [(y0, x0, (1 - dy) * (1 - dx)), (y0, x0 + 1, (1 - dy) * dx), (y0 + 1, x0, dy * (1 - dx)),
                   (y0 + 1, x0 + 1, dy * dx)]
    pixels = ops.reshape(batch, (-1, channels))
    out = ops.zeros_like(batch)
    for rows, columns, weight in corners:
        (rows, row_inside), (columns, column_inside) = (_fold(rows.astype(int), height, fill_mode),
                                                        _fold(columns.astype(int), width, fill_mode))
        inside = row_inside & column_inside
        flat = ((np.arange(n)[:, None, None] * height + rows) * width + columns).reshape(-1)
        picked = ops.reshape(ops.gather(pixels, flat), batch.shape)
        kept = ops.cast((weight * inside)[..., None], batch.dtype)
        filled = ops.cast((weight * ~inside * fill_value)[..., None], batch.dtype)
        out = out + picked * kept + filled
    return out


def _factor(factor: Any, bounds: tuple[int, int] = (-1, 1)) -> tuple[float, float]:
    """Keras 3's ``_set_factor``: a number ``f`` is ``(-f, f)`` (no lower than the bounds allow), a pair sorted."""
    message = (f"The `factor` argument should be a number (or a list of two numbers) in the range "
               f"[{bounds[0]}, {bounds[1]}]. Received: factor={factor}")
    if isinstance(factor, list | tuple):
        if len(factor) != 2 or factor[0] > bounds[1] or factor[1] < bounds[0]:
            raise ValueError(message)
        return tuple(sorted(factor))
    if not isinstance(factor, int | float) or not bounds[0] <= factor <= bounds[1]:
        raise ValueError(message)
    return max(-abs(factor), bounds[0]), abs(factor)


class RandomLayer(Layer):
    """The base of the random augmentations: they augment in training (and when called directly, as Keras 3's do);
    with ``training=False`` (``predict``, ``evaluate``) the identity.  One image gets a batch axis for the while.

    >>> import minitape as tf
    >>> x = tf.ones((2, 4, 4, 3))
    >>> tf.keras.layers.RandomContrast(0.5)(x, training=False) is x
    True
    """
    fill_modes = ("reflect", "wrap", "constant", "nearest")

    def __init__(self, seed: int | None = None, fill_mode: str = "reflect", interpolation: str = "bilinear",
                 fill_value: float = 0.0, data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        checks.channels_last(data_format)
        if fill_mode not in self.fill_modes:
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one {self.fill_modes}.")
        if interpolation not in ("nearest", "bilinear"):
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one "
                                      f"('nearest', 'bilinear').")
        self.seed, self.fill_mode, self.interpolation, self.fill_value = seed, fill_mode, interpolation, fill_value

    def call(self, inputs: Tensor, training: bool = True) -> Tensor:
        """``inputs`` augmented, or with ``training=False`` (as ``predict`` and ``evaluate`` call it) unchanged.

        Called directly, with no ``training``, the layer augments, as Keras 3's do.

        >>> import minitape as tf
        >>> tf.keras.layers.RandomRotation(0.5).call(tf.ones((4, 4, 1)), training=True).shape
        TensorShape([4, 4, 1])
        """
        if not training:
            return inputs
        batch, single = as_batch(inputs, "images")
        return unbatch(self._augment(batch), single)

    def _uniform(self, low: float, high: float, count: int) -> np.ndarray:
        """``count`` numbers drawn uniformly from ``[low, high)`` with minitape's seeded random source."""
        return random.uniform_array((count,), low, high, dtype="float64", seed=self.seed)

    def _warp(self, batch: Tensor, transforms: np.ndarray) -> Tensor:
        return affine_transform(batch, transforms, self.fill_mode, self.fill_value, self.interpolation)

    def _augment(self, batch: Tensor) -> Tensor:
        raise NotImplementedError


class RandomFlip(RandomLayer):
    """While training, flip each image left-right and/or up-down (each with probability 1/2): ``mode`` is
    ``"horizontal"``, ``"vertical"`` or ``"horizontal_and_vertical"``.

    >>> import minitape as tf
    >>> tf.random.set_seed(1)
    >>> out = tf.keras.layers.RandomFlip("horizontal")(tf.ones((8, 2, 2, 1)), training=True)
    >>> out.shape
    TensorShape([8, 2, 2, 1])
    """

    def __init__(self, mode: str = "horizontal_and_vertical", seed: int | None = None, data_format: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        if mode not in ("horizontal", "vertical", "horizontal_and_vertical"):
            raise ValueError(f"RandomFlip layer {self.name} received an unknown mode argument {mode}")
        self.mode = mode

    def _augment(self, batch: Tensor) -> Tensor:
        if "horizontal" in self.mode:
            batch = image.random_flip_left_right(batch, seed=self.seed)
        if "vertical" in self.mode:
            batch = image.random_flip_up_down(batch, seed=self.seed)
        return batch


class RandomRotation(RandomLayer):
    """While training, rotate each image about its centre by a random angle: ``factor`` is a fraction of a full
    turn, ``f`` meaning ``[-f, f]`` (``0.1``: up to 36 degrees either way).

    >>> import minitape as tf
    >>> tf.keras.layers.RandomRotation(0.1)(tf.ones((2, 8, 8, 3)), training=True).shape
    TensorShape([2, 8, 8, 3])
    """

    def __init__(self, factor: float | tuple[float, float], fill_mode: str = "reflect",
                 interpolation: str = "bilinear", seed: int | None = None, fill_value: float = 0.0,
                 data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(seed, fill_mode, interpolation, fill_value, data_format, **kwargs)
        self.factor = _factor(factor)

    def _augment(self, batch: Tensor) -> Tensor:
        angles = self._uniform(*self.factor, batch.shape[0]) * 2 * math.pi
        cos, sin = np.cos(angles), np.sin(angles)
        h, w = batch.shape[1] - 1, batch.shape[2] - 1
        x_offset, y_offset = (w - (cos * w - sin * h)) / 2, (h - (sin * w + cos * h)) / 2
        return self._warp(batch, np.stack([cos, -sin, x_offset, sin, cos, y_offset], axis=1))


class RandomZoom(RandomLayer):
    """While training, zoom each image about its centre: ``height_factor`` ``f`` draws from ``[1 - f, 1 + f]``
    (positive: zoom out); ``width_factor`` None keeps the aspect ratio.

    >>> import minitape as tf
    >>> tf.keras.layers.RandomZoom(0.2)(tf.ones((2, 8, 8, 3)), training=True).shape
    TensorShape([2, 8, 8, 3])
    """

    def __init__(self, height_factor: Any, width_factor: Any = None, fill_mode: str = "reflect",
                 interpolation: str = "bilinear", seed: int | None = None, fill_value: float = 0.0,
                 data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(seed, fill_mode, interpolation, fill_value, data_format, **kwargs)
        self.height_factor = _factor(height_factor)
        self.width_factor = None if width_factor is None else _factor(width_factor)

    def _augment(self, batch: Tensor) -> Tensor:
        n = batch.shape[0]
        zoom_y = 1 + self._uniform(*self.height_factor, n)
        zoom_x = zoom_y if self.width_factor is None else 1 + self._uniform(*self.width_factor, n)
        h, w = (batch.shape[1] - 1) / 2, (batch.shape[2] - 1) / 2
        zeros = np.zeros(n)
        return self._warp(batch, np.stack([zoom_x, zeros, w * (1 - zoom_x), zeros, zoom_y, h * (1 - zoom_y)], 1))


class RandomTranslation(RandomLayer):
    """While training, shift each image by a random fraction of its height and of its width.

    >>> import minitape as tf
    >>> tf.keras.layers.RandomTranslation(0.1, 0.2)(tf.ones((2, 8, 8, 3)), training=True).shape
    TensorShape([2, 8, 8, 3])
    """

    def __init__(self, height_factor: Any, width_factor: Any, fill_mode: str = "reflect",
                 interpolation: str = "bilinear", seed: int | None = None, fill_value: float = 0.0,
                 data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(seed, fill_mode, interpolation, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = _factor(height_factor), _factor(width_factor)

    def _augment(self, batch: Tensor) -> Tensor:
        n = batch.shape[0]
        dy = self._uniform(*self.height_factor, n) * batch.shape[1]
        dx = self._uniform(*self.width_factor, n) * batch.shape[2]
        ones, zeros = np.ones(n), np.zeros(n)
        return self._warp(batch, np.stack([ones, zeros, -dx, zeros, ones, -dy], axis=1))


class RandomContrast(RandomLayer):
    """While training, scale each image's distance from its per-channel mean by a factor drawn from
    ``[1 - factor, 1 + factor]``, clipped to ``value_range``.

    >>> import minitape as tf
    >>> tf.keras.layers.RandomContrast(0.5)(tf.ones((2, 4, 4, 3)), training=True).shape
    TensorShape([2, 4, 4, 3])
    """

    def __init__(self, factor: Any, value_range: tuple[float, float] = (0, 255), seed: int | None = None,
                 **kwargs: Any) -> None:
        super().__init__(seed=seed, **kwargs)
        self.factor, self.value_range = _factor(factor, (0, 1)), value_range

    def _augment(self, batch: Tensor) -> Tensor:
        lower, upper = self.factor
        factors = ops.cast(self._uniform(1 - abs(lower), 1 + upper, batch.shape[0]).reshape(-1, 1, 1, 1), batch.dtype)
        mean = ops.reduce_mean(batch, axis=[1, 2], keepdims=True)
        return ops.clip_by_value((batch - mean) * factors + mean, *self.value_range)


class RandomBrightness(RandomLayer):
    """While training, add to each image a random fraction (in ``factor``'s range) of ``value_range``'s width,
    clipped to ``value_range``.

    >>> import minitape as tf
    >>> tf.keras.layers.RandomBrightness(0.2)(tf.ones((2, 4, 4, 3)), training=True).shape
    TensorShape([2, 4, 4, 3])
    """

    def __init__(self, factor: Any, value_range: tuple[float, float] = (0, 255), seed: int | None = None,
                 **kwargs: Any) -> None:
        super().__init__(seed=seed, **kwargs)
        self.factor, self.value_range = _factor(factor), value_range

    def _augment(self, batch: Tensor) -> Tensor:
        deltas = self._uniform(*self.factor, batch.shape[0]) * (self.value_range[1] - self.value_range[0])
        shifted = batch + ops.cast(deltas.reshape(-1, 1, 1, 1), batch.dtype)
        return ops.clip_by_value(shifted, *self.value_range)


class RandomCrop(RandomLayer):
    """While training, a ``height × width`` window at a random place in each batch (the centre one, resized
    up, of an image smaller than that); with ``training=False`` the images unchanged, as Keras 3 does.

    >>> import minitape as tf
    >>> tf.keras.layers.RandomCrop(3, 3)(tf.ones((2, 5, 5, 1)), training=True).shape
    TensorShape([2, 3, 3, 1])
    """

    def __init__(self, height: int, width: int, seed: int | None = None, data_format: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.height, self.width = height, width

    def _augment(self, batch: Tensor) -> Tensor:
        if batch.shape[1] < self.height or batch.shape[2] < self.width:
            return _center_crop(batch, self.height, self.width)
        top, left = (int(u * (n - size + 1)) for u, n, size in zip(self._uniform(0, 1, 2), batch.shape[1:3],
                                                                   (self.height, self.width)))
        return batch[:, top:top + self.height, left:left + self.width]
