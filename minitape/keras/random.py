"""``keras.random``: Keras 3's random ops, and the ``SeedGenerator`` that makes a sequence of them reproducible.

Keras 3's seeds differ from TensorFlow's: an integer ``seed`` makes a call give the same numbers
every time; a ``SeedGenerator`` gives new numbers at each call, the same sequence each run; no
seed draws from minitape's global random state (``keras.utils.set_random_seed`` seeds it).

>>> from minitape import keras
>>> a = keras.random.normal((2,), seed=1)
>>> bool((a.numpy() == keras.random.normal((2,), seed=1).numpy()).all())
True
>>> gen = keras.random.SeedGenerator(42)
>>> bool((keras.random.normal((2,), seed=gen).numpy() == keras.random.normal((2,), seed=gen).numpy()).all())
False
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape import ops
from minitape.core import random as tape_random
from minitape.core.tensor import Tensor, constant
from minitape.keras.ops.promotion import as_tensor

FLOATX = "float32"


class SeedGenerator:
    """A seed that advances at each random call it is given to: a reproducible sequence of draws.

    >>> from minitape import keras
    >>> first = keras.random.uniform((1,), seed=keras.random.SeedGenerator(7)).numpy()
    >>> bool((first == keras.random.uniform((1,), seed=keras.random.SeedGenerator(7)).numpy()).all())
    True
    """

    def __init__(self, seed: int | None = None, name: str | None = None, **kwargs: Any) -> None:
        self.name = name or "seed_generator"
        self._rng = np.random.default_rng(tape_random.draw_seed() if seed is None else seed)

    def next(self) -> np.random.Generator:
        """A generator for the next draw (and the state moves on).

        >>> from minitape import keras
        >>> type(keras.random.SeedGenerator(0).next()).__name__
        'Generator'
        """
        return np.random.default_rng(self._rng.integers(2**63))


def _generator(seed: Any) -> np.random.Generator:
    """Keras 3's seed rule: an int repeats, a SeedGenerator advances, None draws from the global state."""
    if isinstance(seed, SeedGenerator):
        return seed.next()
    if seed is None:
        return np.random.default_rng(tape_random.draw_seed())
    return np.random.default_rng(int(seed))


def _tensor(values: np.ndarray, dtype: Any) -> Tensor:
    return constant(values.astype(str(getattr(dtype, "name", dtype))))


def normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None, seed: Any = None) -> Tensor:
    """Samples from a normal distribution, float32 unless ``dtype`` says otherwise.

    >>> from minitape import keras
    >>> keras.random.normal((2, 3), seed=0).shape
    TensorShape([2, 3])
    """
    return _tensor(_generator(seed).normal(mean, stddev, size=tuple(shape)), dtype or FLOATX)


def uniform(shape: Any, minval: float = 0.0, maxval: float = 1.0, dtype: Any = None, seed: Any = None) -> Tensor:
    """Samples from a uniform distribution on ``[minval, maxval)``.

    >>> from minitape import keras
    >>> x = keras.random.uniform((100,), minval=2, maxval=3, seed=0).numpy()
    >>> bool(((x >= 2) & (x < 3)).all())
    True
    """
    return _tensor(_generator(seed).uniform(minval, maxval, size=tuple(shape)), dtype or FLOATX)


def truncated_normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None,
                     seed: Any = None) -> Tensor:
    """Normal samples, redrawn where more than two standard deviations from the mean.

    >>> from minitape import keras
    >>> bool((abs(keras.random.truncated_normal((500,), seed=0).numpy()) <= 2).all())
    True
    """
    rng, size = _generator(seed), tuple(shape)
    values = rng.normal(size=size)
    while (outside := np.abs(values) > 2).any():
        values[outside] = rng.normal(size=int(outside.sum()))
    return _tensor(values * stddev + mean, dtype or FLOATX)


def randint(shape: Any, minval: int, maxval: int, dtype: Any = "int32", seed: Any = None) -> Tensor:
    """Integers drawn uniformly from ``[minval, maxval)``.

    >>> from minitape import keras
    >>> sorted(set(keras.random.randint((200,), 0, 3, seed=0).numpy().tolist()))
    [0, 1, 2]
    """
    return _tensor(_generator(seed).integers(minval, maxval, size=tuple(shape)), dtype)


def categorical(logits: Any, num_samples: int, dtype: Any = "int32", seed: Any = None) -> Tensor:
    """For each row of ``logits`` (unnormalised log-probabilities), ``num_samples`` class indices drawn from it.

    >>> from minitape import keras
    >>> keras.random.categorical([[0.0, -1e9]], 3, seed=0).numpy()
    array([[0, 0, 0]], dtype=int32)
    """
    logits = as_tensor(logits).numpy().astype(np.float64)
    probabilities = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probabilities /= probabilities.sum(axis=-1, keepdims=True)
    rng = _generator(seed)
    draws = [rng.choice(len(row), size=num_samples, p=row) for row in probabilities]
    return _tensor(np.array(draws), dtype)


def dropout(inputs: Any, rate: float, noise_shape: Any = None, seed: Any = None) -> Tensor:
    """``inputs`` with a fraction ``rate`` of entries zeroed and the rest scaled by ``1 / (1 - rate)``.

    >>> from minitape import keras
    >>> y = keras.random.dropout(keras.ops.ones((1000,)), 0.5, seed=0).numpy()
    >>> sorted(set(y.tolist()))
    [0.0, 2.0]
    """
    inputs = as_tensor(inputs)
    shape = tuple(inputs.shape) if noise_shape is None else tuple(noise_shape)
    keep = _generator(seed).uniform(size=shape) >= rate
    return inputs * _tensor(keep / (1.0 - rate), inputs.dtype.name)


def shuffle(x: Any, axis: int = 0, seed: Any = None) -> Tensor:
    """``x`` with its slices along ``axis`` in a random order.

    >>> from minitape import keras
    >>> sorted(keras.random.shuffle(keras.ops.arange(5), seed=0).numpy().tolist())
    [0, 1, 2, 3, 4]
    """
    x = as_tensor(x)
    order = _generator(seed).permutation(x.shape[axis])
    return ops.gather(x, order.astype(np.int32), axis=axis)
