"""What the pixels hold: dtype conversion (with TF's scaling rules), brightness, contrast, grey levels and
standardisation.

TF's convention: a float image holds values in ``[0, 1]``, an integer image values up to its dtype's
maximum (255 for uint8).  ``convert_image_dtype`` moves between the two, and the adjustments of an
integer image compute in float32 and convert back, clipping (``saturate``).

>>> import minitape as tf
>>> tf.image.convert_image_dtype(tf.constant([0, 255], tf.uint8), tf.float32).numpy()
array([0., 1.], dtype=float32)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape import ops
from minitape.core import dtypes, random
from minitape.core.tensor import Tensor, constant, convert_to_tensor


def _saturate_cast(x: Tensor, dtype: dtypes.DType) -> Tensor:
    """``x`` clipped to ``dtype``'s range, then cast (TF's ``saturate_cast``)."""
    if dtype.is_integer:
        info = np.iinfo(dtype.as_numpy_dtype_)
        x = ops.clip_by_value(x, ops.cast(max(info.min, -2**53), x.dtype), ops.cast(min(info.max, 2**53), x.dtype))
    return ops.cast(x, dtype)


def _maximum(dtype: dtypes.DType) -> int:
    return int(np.iinfo(dtype.as_numpy_dtype_).max)


def convert_image_dtype(image: Any, dtype: Any, saturate: bool = False, name: str | None = None) -> Tensor:
    """``image`` in ``dtype``, rescaled: integers span ``[0, MAX]`` of their dtype, floats ``[0, 1]``.

    Integer to float divides by the input's ``MAX``; float to integer multiplies by ``MAX + 0.5`` and
    truncates; integer to integer shifts by the difference in bits.  Float to float only casts.

    >>> import minitape as tf
    >>> tf.image.convert_image_dtype(tf.constant([0.0, 0.5, 1.0]), tf.uint8).numpy()
    array([  0, 127, 255], dtype=uint8)
    """
    image, dtype = convert_to_tensor(image), dtypes.as_dtype(dtype)
    if not (image.dtype.is_floating or image.dtype.is_integer) or not (dtype.is_floating or dtype.is_integer):
        raise AttributeError(f"convert_image_dtype: images hold integers or floats; got {image.dtype.name} to "
                             f"{dtype.name}.")
    if image.dtype == dtype:
        return image
    if image.dtype.is_integer and dtype.is_integer:
        scale_in, scale_out = _maximum(image.dtype), _maximum(dtype)
        if scale_in > scale_out:
            shrunk = ops.floordiv(image, ops.cast((scale_in + 1) // (scale_out + 1), image.dtype))
            return _saturate_cast(shrunk, dtype) if saturate else ops.cast(shrunk, dtype)
        return ops.cast(image, dtype) * ops.cast((scale_out + 1) // (scale_in + 1), dtype)
    if image.dtype.is_floating and dtype.is_floating:
        return ops.cast(image, dtype)
    if image.dtype.is_integer:
        return ops.cast(image, dtype) * ops.cast(1.0 / _maximum(image.dtype), dtype)
    scaled = image * ops.cast(_maximum(dtype) + 0.5, image.dtype)
    return _saturate_cast(scaled, dtype) if saturate else ops.cast(scaled, dtype)


def _in_float(image: Any, adjust: Any) -> Tensor:
    """``adjust`` applied to a float image as it is, or to an integer image in float32 and converted back."""
    image = convert_to_tensor(image)
    if image.dtype.is_floating:
        return adjust(image)
    return convert_image_dtype(adjust(convert_image_dtype(image, dtypes.float32)), image.dtype, saturate=True)


def adjust_brightness(image: Any, delta: float) -> Tensor:
    """``delta`` added to every pixel (in the ``[0, 1]`` scale for an integer image).

    >>> import minitape as tf
    >>> tf.image.adjust_brightness(tf.constant([[[0.2]]]), 0.5).numpy().ravel()
    array([0.7], dtype=float32)
    """
    return _in_float(image, lambda x: x + ops.cast(delta, x.dtype))


def adjust_contrast(images: Any, contrast_factor: float) -> Tensor:
    """Each channel's distance from its mean (over the image's pixels) multiplied by ``contrast_factor``.

    >>> import minitape as tf
    >>> tf.image.adjust_contrast(tf.constant([[[0.0], [1.0]]]), 2.0).numpy().ravel()
    array([-0.5,  1.5], dtype=float32)
    """
    def adjust(x: Tensor) -> Tensor:
        mean = ops.reduce_mean(x, axis=[-3, -2], keepdims=True)
        return (x - mean) * ops.cast(contrast_factor, x.dtype) + mean
    return _in_float(images, adjust)


def rgb_to_grayscale(images: Any, name: str | None = None) -> Tensor:
    """One channel of luma, ``0.2989 R + 0.587 G + 0.114 B``, in the input's dtype.

    >>> import minitape as tf
    >>> tf.image.rgb_to_grayscale(tf.constant([[[1.0, 1.0, 1.0]]])).shape
    TensorShape([1, 1, 1])
    """
    images = convert_to_tensor(images)
    floats = convert_image_dtype(images, dtypes.float32)
    gray = ops.tensordot(floats, constant([0.2989, 0.5870, 0.1140]), [[-1], [-1]])
    return convert_image_dtype(ops.expand_dims(gray, -1), images.dtype)


def grayscale_to_rgb(images: Any, name: str | None = None) -> Tensor:
    """The one grey channel copied into three.

    >>> import minitape as tf
    >>> tf.image.grayscale_to_rgb(tf.ones((2, 2, 1))).shape
    TensorShape([2, 2, 3])
    """
    images = convert_to_tensor(images)
    if images.ndim < 2 or images.shape[-1] != 1:
        raise ValueError("Last dimension of a grayscale image should be size 1.")
    return ops.tile(images, [1] * (images.ndim - 1) + [3])


def per_image_standardization(image: Any) -> Tensor:
    """Each image shifted and scaled to mean 0 and standard deviation 1 (float32); the deviation is kept at
    least ``1 / sqrt(pixels)`` so a flat image does not divide by zero.

    >>> import minitape as tf
    >>> tf.image.per_image_standardization(tf.constant([[[1.0], [3.0]]])).numpy().ravel()
    array([-1.,  1.], dtype=float32)
    """
    image = convert_to_tensor(image)
    if image.ndim < 3:
        raise ValueError(f"'image' (shape {tuple(image.shape)}) must be at least three-dimensional.")
    image = ops.cast(image, dtypes.float32)
    mean = ops.reduce_mean(image, axis=[-1, -2, -3], keepdims=True)
    deviation = ops.sqrt(ops.reduce_mean(ops.square(image - mean), axis=[-1, -2, -3], keepdims=True))
    smallest = 1.0 / np.sqrt(np.float32(np.prod(image.shape[-3:])))
    return (image - mean) / ops.maximum(deviation, ops.cast(smallest, dtypes.float32))


def total_variation(images: Any, name: str | None = None) -> Tensor:
    """The sum of absolute differences between neighbouring pixels, per image: a measure of noise, and a
    smoothness penalty in style transfer.

    >>> import minitape as tf
    >>> tf.image.total_variation(tf.constant([[[0.0], [1.0]], [[3.0], [1.0]]])).numpy()
    np.float32(6.0)
    """
    images = convert_to_tensor(images)
    if images.ndim not in (3, 4):
        raise ValueError("'images' must be either 3 or 4-dimensional.")
    axes = [-3, -2, -1]
    rows = ops.reduce_sum(ops.abs(images[..., 1:, :, :] - images[..., :-1, :, :]), axis=axes)
    columns = ops.reduce_sum(ops.abs(images[..., :, 1:, :] - images[..., :, :-1, :]), axis=axes)
    return rows + columns


def random_brightness(image: Any, max_delta: float, seed: int | None = None) -> Tensor:
    """``adjust_brightness`` by one delta drawn uniformly from ``[-max_delta, max_delta)``.

    >>> import minitape as tf
    >>> tf.image.random_brightness(tf.zeros((2, 2, 1)), 0.1).shape
    TensorShape([2, 2, 1])
    """
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_brightness(image, float(random.uniform_array((), -max_delta, max_delta, seed=seed)))


def random_contrast(image: Any, lower: float, upper: float, seed: int | None = None) -> Tensor:
    """``adjust_contrast`` by one factor drawn uniformly from ``[lower, upper)``.

    >>> import minitape as tf
    >>> tf.image.random_contrast(tf.zeros((2, 2, 1)), 0.5, 1.5).shape
    TensorShape([2, 2, 1])
    """
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    return adjust_contrast(image, float(random.uniform_array((), lower, upper, seed=seed)))
