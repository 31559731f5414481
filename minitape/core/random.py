"""``tf.random``: random tensors whose randomness can be replayed.

Every random op draws one integer *seed* and computes its values from that
seed alone.  Seeds come from the global source (reset by [`set_seed`][minitape.random.set_seed]),
or, inside a checkpointed function, from that call's own ``Source``,
which ``recompute_grad`` recreates from the same seed when it recomputes:
dropout masks and noise come out identical, so the recomputed gradient equals
the plain one.

The numbers are drawn on the host by NumPy and then copied to the current
device, so a seed gives the same numbers on every backend, GPU included.

>>> import minitape as tf
>>> tf.random.set_seed(0)
>>> a = tf.random.uniform((2,))
>>> tf.random.set_seed(0)
>>> bool((a.numpy() == tf.random.uniform((2,)).numpy()).all())
True
"""
from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np

from minitape.core import arrays, backends, dtypes
from minitape.core.errors import InvalidArgumentError
from minitape.core.tensor import Tensor, wrap

_SEED_RANGE = 2**63


class Source:
    """Where one checkpointed call draws its op seeds from.

    Its own seed is drawn from the enclosing source only when a random op first
    needs it, so a checkpoint around a function without randomness changes no
    other random number.  A source made with a known ``seed`` replays it.

    >>> import minitape as tf
    >>> source = tf.random.Source()
    >>> source.seed is None
    True
    >>> with tf.random.replay(source):
    ...     _ = tf.random.normal(())
    >>> isinstance(source.seed, int)
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.generator: np.random.Generator | None = None


class _Sources(threading.local):
    def __init__(self) -> None:
        self.stack: list[Source] = []


_global = np.random.default_rng()
_sources = _Sources()


def set_seed(seed: int) -> None:
    """Make every later random op reproducible from ``seed``.

    >>> import minitape as tf
    >>> tf.random.set_seed(7)
    >>> first = tf.random.normal((3,)).numpy()
    >>> tf.random.set_seed(7)
    >>> bool((tf.random.normal((3,)).numpy() == first).all())
    True
    """
    global _global
    _global = np.random.default_rng(seed)


def draw_seed() -> int:
    """A fresh seed from the current source (a checkpoint's, or the global one).

    >>> import minitape as tf
    >>> tf.random.set_seed(0)
    >>> seed = tf.random.draw_seed()
    >>> tf.random.set_seed(0)
    >>> tf.random.draw_seed() == seed
    True
    """
    return int(_generator(len(_sources.stack) - 1).integers(_SEED_RANGE))


def _generator(level: int) -> np.random.Generator:
    """The generator of the source at ``level`` of the stack (-1: the global one), seeding it if needed."""
    if level < 0:
        return _global
    source = _sources.stack[level]
    if source.generator is None:
        if source.seed is None:
            source.seed = int(_generator(level - 1).integers(_SEED_RANGE))
        source.generator = np.random.default_rng(source.seed)
    return source.generator


@contextlib.contextmanager
def replay(source: Source) -> Iterator[Source]:
    """Inside the block, random ops draw their seeds from ``source``.

    >>> import minitape as tf
    >>> with tf.random.replay(tf.random.Source(seed=42)):
    ...     a = tf.random.uniform((2,))
    >>> with tf.random.replay(tf.random.Source(seed=42)):
    ...     b = tf.random.uniform((2,))
    >>> bool((a.numpy() == b.numpy()).all())
    True
    """
    _sources.stack.append(source)
    try:
        yield source
    finally:
        _sources.stack.pop()


@contextlib.contextmanager
def global_source() -> Iterator[None]:
    """Draw from the global source even inside a checkpoint (for creating state, such as weights).

    >>> import minitape as tf
    >>> tf.random.set_seed(3)
    >>> expected = tf.random.uniform(()).numpy()
    >>> tf.random.set_seed(3)
    >>> with tf.random.replay(tf.random.Source(seed=1)), tf.random.global_source():
    ...     drawn = tf.random.uniform(())
    >>> bool(drawn.numpy() == expected)
    True
    """
    saved, _sources.stack = _sources.stack, []
    try:
        yield
    finally:
        _sources.stack = saved


def _values_generator(seed: int | None) -> np.random.Generator:
    drawn = draw_seed()
    return np.random.default_rng(drawn if seed is None else [drawn, int(seed)])


def _floating(dtype: Any, op: str) -> np.dtype:
    kind = dtypes.as_dtype(dtype)
    if not kind.is_floating:
        raise ValueError(f"random.{op}: dtype must be floating, got {kind.name}.")
    return kind.as_numpy_dtype_


def normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = dtypes.float32,
           seed: int | None = None, name: str | None = None) -> Tensor:
    """Samples from a normal distribution.

    >>> import minitape as tf
    >>> tf.random.normal((2, 3)).shape
    TensorShape([2, 3])
    """
    target = _floating(dtype, "normal")
    values = _values_generator(seed).standard_normal(_shape(shape, "normal")) * stddev + mean
    return wrap(backends.current().from_numpy(values.astype(target)))


def truncated_normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = dtypes.float32,
                     seed: int | None = None, name: str | None = None) -> Tensor:
    """Samples from a normal distribution, each one beyond two standard deviations drawn again.

    >>> import minitape as tf
    >>> x = tf.random.truncated_normal((1000,), stddev=0.5)
    >>> bool(abs(x.numpy()).max() <= 1.0)
    True
    """
    target = _floating(dtype, "truncated_normal")
    generator = _values_generator(seed)
    values = generator.standard_normal(_shape(shape, "truncated_normal"))
    outside = np.abs(values) > 2
    while outside.any():
        values[outside] = generator.standard_normal(int(outside.sum()))
        outside = np.abs(values) > 2
    return wrap(backends.current().from_numpy((values * stddev + mean).astype(target)))


def uniform(shape: Any, minval: Any = 0, maxval: Any = None, dtype: Any = dtypes.float32,
            seed: int | None = None, name: str | None = None) -> Tensor:
    """Samples from a uniform distribution on ``[minval, maxval)`` (for floats ``maxval`` defaults to 1).

    Integer dtypes (int32, int64) draw integers and need ``maxval``, as in TF.

    >>> import minitape as tf
    >>> x = tf.random.uniform((100,), 2.0, 3.0)
    >>> bool((x.numpy() >= 2).all() and (x.numpy() < 3).all())
    True
    >>> dice = tf.random.uniform((1000,), 1, 7, dtype=tf.int32)
    >>> dice.dtype.name, sorted(set(dice.numpy().tolist()))
    ('int32', [1, 2, 3, 4, 5, 6])
    """
    kind = _admitted(dtype)
    values = _integers(shape, minval, maxval, kind, seed) if kind.is_integer else uniform_array(shape, minval, maxval,
                                                                                                kind, seed)
    return wrap(backends.current().from_numpy(values))


def _admitted(dtype: Any) -> dtypes.DType:
    kind = dtypes.as_dtype(dtype)
    if kind not in (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64):
        raise ValueError(f"random.uniform: Argument `dtype` got invalid value {kind.name}. Accepted dtypes are "
                         f"float16, float32, float64, int32, int64.")
    return kind


def _integers(shape: Any, minval: Any, maxval: Any, kind: dtypes.DType, seed: int | None) -> np.ndarray:
    """Integers drawn uniformly from ``[minval, maxval)``: TF's RandomUniformInt."""
    if maxval is None:
        raise ValueError(f"random.uniform: Must specify maxval for integer dtype {kind.name}.")
    low, high = (_bound(v, kind, which) for v, which in ((minval, "minval"), (maxval, "maxval")))
    if low >= high:
        raise InvalidArgumentError(f"random.uniform: Need minval < maxval, got {low} >= {high}.")
    target = kind.as_numpy_dtype_
    return _values_generator(seed).integers(low, high, _shape(shape, "uniform"), dtype=target)


def _bound(value: Any, kind: dtypes.DType, which: str) -> int:
    """``minval`` or ``maxval`` of an integer draw: one integer that ``kind`` holds."""
    array = np.asarray(value.numpy() if isinstance(value, Tensor) else value)
    if isinstance(value, Tensor) and value.dtype is not kind:
        raise ValueError(f"random.uniform: {which} is a {value.dtype.name} tensor but dtype is {kind.name}; "
                         f"tf.cast it.")
    if array.ndim != 0:
        raise InvalidArgumentError(f"random.uniform: {which} must be 0-D, got shape {list(array.shape)}.")
    if array.dtype.kind not in "iub":
        raise TypeError(f"random.uniform: Cannot convert {value!r} to EagerTensor of dtype {kind.name}: {which} "
                        f"of an integer draw must be an integer.")
    limits = np.iinfo(kind.as_numpy_dtype_)
    if not limits.min <= int(array) <= limits.max:
        raise InvalidArgumentError(f"random.uniform: {which} {int(array)} is out of range for {kind.name}.")
    return int(array)


def uniform_array(shape: Any, minval: float = 0, maxval: float | None = None, dtype: Any = dtypes.float32,
                  seed: int | None = None) -> np.ndarray:
    """The values [`uniform`][minitape.random.uniform] would give, as a NumPy array.

    For ops that place the values themselves.

    >>> import minitape as tf
    >>> values = tf.random.uniform_array((2, 3), -1.0, 1.0)
    >>> type(values).__name__, values.dtype, values.shape
    ('ndarray', dtype('float32'), (2, 3))
    """
    target = _floating(dtype, "uniform")
    high = 1.0 if maxval is None else maxval
    return _values_generator(seed).uniform(minval, high, _shape(shape, "uniform")).astype(target)


def _shape(shape: Any, op: str) -> tuple[int, ...]:
    # TF's random kernels meet the shape as a tensor: a float there is an InvalidArgumentError.
    return arrays.dimensions(shape, f"random.{op}: shape", InvalidArgumentError)
