"""Where the pixels go: crops, pads, flips, quarter turns and random crops of NHWC images.

Each takes one image ``(h, w, c)`` or a batch ``(n, h, w, c)``, and is built from slicing,
``tf.pad``, ``tf.reverse`` and ``tf.transpose``, so gradients flow through all of them.

>>> import minitape as tf
>>> image = tf.reshape(tf.range(4.0), (2, 2, 1))
>>> tf.image.flip_left_right(image)[..., 0].numpy()
array([[1., 0.],
       [3., 2.]], dtype=float32)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape import ops
from minitape.core import random
from minitape.core.errors import InvalidArgumentError
from minitape.core.tensor import Tensor, constant, convert_to_tensor


def as_batch(images: Any, name: str = "image") -> tuple[Tensor, bool]:
    """``images`` as a batch ``(n, h, w, c)``, and whether it was one image ``(h, w, c)`` (to undo with
    ``unbatch``).

    >>> import minitape as tf
    >>> from minitape.dialect.image.geometry import as_batch
    >>> batch, single = as_batch(tf.ones((4, 5, 3)))
    >>> batch.shape, single
    (TensorShape([1, 4, 5, 3]), True)
    """
    images = convert_to_tensor(images)
    if images.ndim not in (3, 4):
        shape = "" if name == "images" else f" (shape {tuple(images.shape)})"      # TF's two wordings
        raise ValueError(f"'{name}'{shape} must have either 3 or 4 dimensions.")
    return (ops.expand_dims(images, 0), True) if images.ndim == 3 else (images, False)


def unbatch(batch: Tensor, single: bool) -> Tensor:
    """The batch back as one image if ``as_batch`` made it one.

    >>> import minitape as tf
    >>> from minitape.dialect.image.geometry import unbatch
    >>> unbatch(tf.ones((1, 4, 5, 3)), True).shape
    TensorShape([4, 5, 3])
    """
    return batch[0] if single else batch


def crop_to_bounding_box(image: Any, offset_height: int, offset_width: int, target_height: int,
                         target_width: int) -> Tensor:
    """The ``target_height × target_width`` window whose top-left corner is at ``(offset_height, offset_width)``.

    >>> import minitape as tf
    >>> tf.image.crop_to_bounding_box(tf.ones((5, 5, 3)), 1, 2, 3, 3).shape
    TensorShape([3, 3, 3])
    """
    batch, single = as_batch(image)
    for value, what in ((offset_width, "offset_width"), (offset_height, "offset_height")):
        if value < 0:
            raise ValueError(f"{what} must be >= 0.")
    for value, what in ((target_width, "target_width"), (target_height, "target_height")):
        if value <= 0:
            raise ValueError(f"{what} must be > 0.")
    if batch.shape[2] < target_width + offset_width:
        raise ValueError("width must be >= target + offset.")
    if batch.shape[1] < target_height + offset_height:
        raise ValueError("height must be >= target + offset.")
    return unbatch(batch[:, offset_height:offset_height + target_height,
                         offset_width:offset_width + target_width], single)


def pad_to_bounding_box(image: Any, offset_height: int, offset_width: int, target_height: int,
                        target_width: int) -> Tensor:
    """Zeros around the image to make it ``target_height × target_width``, ``offset_height`` rows above it and
    ``offset_width`` columns to its left.

    >>> import minitape as tf
    >>> tf.image.pad_to_bounding_box(tf.ones((1, 1, 1)), 1, 0, 2, 2)[..., 0].numpy()
    array([[0., 0.],
           [1., 0.]], dtype=float32)
    """
    batch, single = as_batch(image)
    below, right = target_height - offset_height - batch.shape[1], target_width - offset_width - batch.shape[2]
    for value, what in ((offset_height, "offset_height must be >= 0"), (offset_width, "offset_width must be >= 0"),
                        (right, "width must be <= target - offset"), (below, "height must be <= target - offset")):
        if value < 0:
            raise ValueError(what)
    return unbatch(ops.pad(batch, [[0, 0], [offset_height, below], [offset_width, right], [0, 0]]), single)


def resize_with_crop_or_pad(image: Any, target_height: int, target_width: int) -> Tensor:
    """Crop (centred) an axis longer than the target, pad (centred, zeros) one shorter.

    >>> import minitape as tf
    >>> tf.image.resize_with_crop_or_pad(tf.ones((4, 1, 1)), 2, 3)[..., 0].numpy()
    array([[0., 1., 0.],
           [0., 1., 0.]], dtype=float32)
    """
    batch, single = as_batch(image)
    for value, what in ((target_width, "target_width"), (target_height, "target_height")):
        if value <= 0:
            raise ValueError(f"{what} must be > 0.")
    height, width = batch.shape[1], batch.shape[2]
    cropped = crop_to_bounding_box(batch, max((height - target_height) // 2, 0), max((width - target_width) // 2, 0),
                                   min(target_height, height), min(target_width, width))
    padded = pad_to_bounding_box(cropped, max((target_height - height) // 2, 0), max((target_width - width) // 2, 0),
                                 target_height, target_width)
    return unbatch(padded, single)


def central_crop(image: Any, central_fraction: float) -> Tensor:
    """The centre of the image, ``central_fraction`` of its height and of its width.

    >>> import minitape as tf
    >>> tf.image.central_crop(tf.ones((10, 10, 3)), 0.5).shape
    TensorShape([6, 6, 3])
    """
    if central_fraction <= 0.0 or central_fraction > 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    batch, single = as_batch(image)
    if central_fraction == 1.0:
        return unbatch(batch, single)
    top, left = (int((float(n) - float(n) * central_fraction) / 2) for n in batch.shape[1:3])
    return unbatch(batch[:, top:batch.shape[1] - top, left:batch.shape[2] - left], single)


def flip_left_right(image: Any) -> Tensor:
    """The image mirrored: its columns in reverse order.

    >>> import minitape as tf
    >>> tf.image.flip_left_right(tf.constant([[[1.0], [2.0]]]))[..., 0].numpy()
    array([[2., 1.]], dtype=float32)
    """
    batch, single = as_batch(image)
    return unbatch(ops.reverse(batch, [2]), single)


def flip_up_down(image: Any) -> Tensor:
    """The image upside down: its rows in reverse order.

    >>> import minitape as tf
    >>> tf.image.flip_up_down(tf.constant([[[1.0]], [[2.0]]]))[..., 0].numpy()
    array([[2.],
           [1.]], dtype=float32)
    """
    batch, single = as_batch(image)
    return unbatch(ops.reverse(batch, [1]), single)


def transpose(image: Any, name: str | None = None) -> Tensor:
    """Rows and columns swapped (a reflection in the main diagonal).

    >>> import minitape as tf
    >>> tf.image.transpose(tf.ones((2, 5, 3))).shape
    TensorShape([5, 2, 3])
    """
    batch, single = as_batch(image)
    return unbatch(ops.transpose(batch, (0, 2, 1, 3)), single)


def rot90(image: Any, k: int = 1, name: str | None = None) -> Tensor:
    """The image turned ``k`` quarter turns counter-clockwise.

    >>> import minitape as tf
    >>> tf.image.rot90(tf.reshape(tf.range(4.0), (2, 2, 1)))[..., 0].numpy()
    array([[1., 3.],
           [0., 2.]], dtype=float32)
    """
    batch, single = as_batch(image)
    for _ in range(int(k) % 4):
        batch = ops.reverse(transpose(batch), [1])
    return unbatch(batch, single)


def flip_where(image: Any, axis: int, flips: np.ndarray) -> Tensor:
    """The images of a batch for which ``flips`` is true flipped along ``axis`` (1: up-down, 2: left-right).

    >>> import minitape as tf
    >>> import numpy as np
    >>> from minitape.dialect.image.geometry import flip_where
    >>> flip_where(tf.constant([[[[1.0], [2.0]]]] * 2), 2, np.array([True, False]))[..., 0].numpy()
    array([[[2., 1.]],
    <BLANKLINE>
           [[1., 2.]]], dtype=float32)
    """
    batch, single = as_batch(image)
    mask = ops.reshape(convert_to_tensor(np.asarray(flips).reshape(-1)), (-1, 1, 1, 1))
    return unbatch(ops.where(mask, ops.reverse(batch, [axis]), batch), single)


def _random_flip(image: Any, axis: int, seed: int | None) -> Tensor:
    """Each image of the batch flipped along ``axis`` with probability 1/2 (one coin per image)."""
    count = convert_to_tensor(image).shape[0] if convert_to_tensor(image).ndim == 4 else 1
    return flip_where(image, axis, random.uniform_array((count,), dtype="float32", seed=seed) < 0.5)


def random_flip_left_right(image: Any, seed: int | None = None) -> Tensor:
    """``flip_left_right`` with probability 1/2, decided for each image of a batch.

    >>> import minitape as tf
    >>> tf.random.set_seed(0)
    >>> flipped = tf.image.random_flip_left_right(tf.constant([[[1.0], [2.0]]]))
    >>> sorted(flipped[..., 0].numpy()[0].tolist())
    [1.0, 2.0]
    """
    return _random_flip(image, 2, seed)


def random_flip_up_down(image: Any, seed: int | None = None) -> Tensor:
    """``flip_up_down`` with probability 1/2, decided for each image of a batch.

    >>> import minitape as tf
    >>> tf.image.random_flip_up_down(tf.ones((4, 2, 2, 1))).shape
    TensorShape([4, 2, 2, 1])
    """
    return _random_flip(image, 1, seed)


def random_crop(value: Any, size: Any, seed: int | None = None, name: str | None = None) -> Tensor:
    """A window of shape ``size`` (one entry per axis of ``value``) at a uniformly random place.

    >>> import minitape as tf
    >>> tf.image.random_crop(tf.ones((10, 10, 3)), (4, 4, 3)).shape
    TensorShape([4, 4, 3])
    """
    value = convert_to_tensor(value)
    size = [int(n) for n in np.asarray(convert_to_tensor(size).numpy() if isinstance(size, Tensor) else size)]
    if len(size) != value.ndim or any(n > m or n < 0 for n, m in zip(size, value.shape)):
        raise InvalidArgumentError(f"random_crop: need value.shape >= size, got value.shape {list(value.shape)} and "
                                   f"size {size}; pass one size per axis, each at most the value's.")
    return crop_at(value, size, random.uniform_array((len(size),), dtype="float64", seed=seed))


def crop_at(value: Any, size: list[int], draws: np.ndarray) -> Tensor:
    """The window of shape ``size`` whose start on each axis is the fraction ``draws[i]`` of the room there.

    >>> import minitape as tf
    >>> import numpy as np
    >>> from minitape.dialect.image.geometry import crop_at
    >>> crop_at(tf.range(10), [3], np.array([0.99])).numpy()
    array([7, 8, 9], dtype=int32)
    """
    value = convert_to_tensor(value)
    starts = [int(u * (m - n + 1)) for u, n, m in zip(draws, size, value.shape)]
    return value[tuple(slice(s, s + n) for s, n in zip(starts, size))]
