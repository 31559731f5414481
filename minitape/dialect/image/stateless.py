"""``tf.image.stateless_random_*`` and ``sobel_edges``.

A stateless op's randomness is a function of its ``seed``, a pair of integers, alone: the same seed
gives the same result on every call (the tf.data augmentation recipe). minitape's numbers come from
NumPy's generator seeded with that pair, so they differ from TF's (Philox) for the same seed: the
determinism is what is the same.

>>> import minitape as tf
>>> image = tf.reshape(tf.range(6.0), (1, 6, 1))
>>> a = tf.image.stateless_random_crop(image, (1, 3, 1), seed=(1, 2))
>>> b = tf.image.stateless_random_crop(image, (1, 3, 1), seed=(1, 2))
>>> bool((a.numpy() == b.numpy()).all())
True
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape import ops
from minitape.core.errors import InvalidArgumentError
from minitape.core.tensor import Tensor, convert_to_tensor
from minitape.dialect.image.color import adjust_brightness, adjust_contrast
from minitape.dialect.image.geometry import as_batch, crop_at, flip_where


def _generator(seed: Any, op: str) -> np.random.Generator:
    pair = np.asarray(seed.numpy() if isinstance(seed, Tensor) else seed)
    if pair.shape != (2,) or pair.dtype.kind not in "iu":
        raise InvalidArgumentError(f"{op}: seed must have shape [2], not {list(pair.shape)}; pass two integers, "
                                   f"e.g. seed=(1, 2).")
    return np.random.default_rng([int(n) % 2**63 for n in pair])


def stateless_random_flip_left_right(image: Any, seed: Any) -> Tensor:
    """``flip_left_right`` with probability 1/2 per image, decided by ``seed``.

    >>> import minitape as tf
    >>> tf.image.stateless_random_flip_left_right(tf.ones((3, 2, 2, 1)), seed=(0, 1)).shape
    TensorShape([3, 2, 2, 1])
    """
    count = as_batch(image)[0].shape[0]
    return flip_where(image, 2, _generator(seed, "stateless_random_flip_left_right").uniform(size=count) < 0.5)


def stateless_random_flip_up_down(image: Any, seed: Any) -> Tensor:
    """``flip_up_down`` with probability 1/2 per image, decided by ``seed``.

    >>> import minitape as tf
    >>> tf.image.stateless_random_flip_up_down(tf.ones((3, 2, 2, 1)), seed=(0, 1)).shape
    TensorShape([3, 2, 2, 1])
    """
    count = as_batch(image)[0].shape[0]
    return flip_where(image, 1, _generator(seed, "stateless_random_flip_up_down").uniform(size=count) < 0.5)


def stateless_random_brightness(image: Any, max_delta: float, seed: Any) -> Tensor:
    """``adjust_brightness`` by a delta in ``[-max_delta, max_delta)`` decided by ``seed``.

    >>> import minitape as tf
    >>> tf.image.stateless_random_brightness(tf.zeros((2, 2, 1)), 0.2, seed=(3, 4)).shape
    TensorShape([2, 2, 1])
    """
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    delta = _generator(seed, "stateless_random_brightness").uniform(-max_delta, max_delta)
    return adjust_brightness(image, float(delta))


def stateless_random_contrast(image: Any, lower: float, upper: float, seed: Any) -> Tensor:
    """``adjust_contrast`` by a factor in ``[lower, upper)`` decided by ``seed``.

    >>> import minitape as tf
    >>> tf.image.stateless_random_contrast(tf.zeros((2, 2, 1)), 0.5, 1.5, seed=(3, 4)).shape
    TensorShape([2, 2, 1])
    """
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    return adjust_contrast(image, float(_generator(seed, "stateless_random_contrast").uniform(lower, upper)))


def stateless_random_crop(value: Any, size: Any, seed: Any, name: str | None = None) -> Tensor:
    """A window of shape ``size`` at a place decided by ``seed``.

    >>> import minitape as tf
    >>> tf.image.stateless_random_crop(tf.ones((10, 10, 3)), (4, 4, 3), seed=(5, 6)).shape
    TensorShape([4, 4, 3])
    """
    size = [int(n) for n in np.asarray(size.numpy() if isinstance(size, Tensor) else size)]
    return crop_at(value, size, _generator(seed, "stateless_random_crop").uniform(size=len(size)))


_SOBEL = (((-1, -2, -1), (0, 0, 0), (1, 2, 1)), ((-1, 0, 1), (-2, 0, 2), (-1, 0, 1)))


def sobel_edges(image: Any) -> Tensor:
    """The vertical and horizontal Sobel gradients of each channel, ``(n, h, w, c, 2)``: 3×3 weighted
    differences over the image reflected at its edges.

    >>> import minitape as tf
    >>> ramp = tf.reshape(tf.tile(tf.range(4.0), [4]), (1, 4, 4, 1))      # brighter to the right
    >>> tf.image.sobel_edges(ramp)[0, 1, 1, 0].numpy()
    array([0., 8.], dtype=float32)
    """
    image = convert_to_tensor(image)
    if image.ndim != 4:
        raise ValueError(f"sobel_edges: image must be a batch (n, h, w, c); got shape {tuple(image.shape)}.")
    height, width = image.shape[1], image.shape[2]
    padded = ops.pad(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    edges = []
    for kernel in _SOBEL:
        total = ops.zeros_like(image)
        for i, row in enumerate(kernel):
            for j, weight in enumerate(row):
                if weight:
                    total = total + ops.cast(weight, image.dtype) * padded[:, i:i + height, j:j + width]
        edges.append(total)
    return ops.stack(edges, axis=-1)
