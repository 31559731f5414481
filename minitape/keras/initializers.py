"""Weight initialisers with Keras' defaults, drawn from minitape's seeded random ops.

>>> import minitape as tf
>>> from minitape.keras import initializers
>>> w = initializers.get("glorot_uniform")((2, 3), tf.float32)
>>> bool(abs(w.numpy()).max() <= (6 / 5) ** 0.5)
True
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minitape.core import random
from minitape import ops
from minitape.core.tensor import Tensor


def glorot_uniform(shape: tuple[int, ...], dtype: Any) -> Tensor:
    """Uniform on ``[-limit, limit]`` with ``limit = sqrt(6 / (fan_in + fan_out))``.

    >>> import minitape as tf
    >>> w = tf.keras.initializers.glorot_uniform((4, 2), tf.float32)
    >>> w.shape, bool(abs(w.numpy()).max() <= 1.0)       # limit = sqrt(6 / (4 + 2)) = 1
    (TensorShape([4, 2]), True)
    """
    fan_in, fan_out = (shape[-2], shape[-1]) if len(shape) >= 2 else (shape[0], shape[0]) if shape else (1, 1)
    receptive = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
    limit = float(np.sqrt(6.0 / ((fan_in + fan_out) * receptive)))
    return random.uniform(shape, -limit, limit, dtype=dtype)


def zeros(shape: tuple[int, ...], dtype: Any) -> Tensor:
    """All zeros: the default for biases.

    >>> import minitape as tf
    >>> tf.keras.initializers.zeros((2,), tf.float32).numpy()
    array([0., 0.], dtype=float32)
    """
    return ops.zeros(shape, dtype)


def ones(shape: tuple[int, ...], dtype: Any) -> Tensor:
    """All ones.

    >>> import minitape as tf
    >>> tf.keras.initializers.ones((2, 2), tf.float64).numpy()
    array([[1., 1.],
           [1., 1.]])
    """
    return ops.ones(shape, dtype)


_BY_NAME: dict[str, Callable] = {"glorot_uniform": glorot_uniform, "zeros": zeros, "ones": ones}


def get(identifier: str | Callable) -> Callable:
    """The initialiser named ``identifier``, or ``identifier`` itself if callable.

    >>> import minitape as tf
    >>> tf.keras.initializers.get("zeros") is tf.keras.initializers.zeros
    True
    """
    if callable(identifier):
        return identifier
    if identifier not in _BY_NAME:
        raise ValueError(f"Unknown initializer: {identifier!r}. Known: {', '.join(sorted(_BY_NAME))}.")
    return _BY_NAME[identifier]
