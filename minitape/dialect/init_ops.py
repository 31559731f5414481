"""TensorFlow 2's initialisers: objects that make a variable's first value, called ``init(shape, dtype)``.

TensorFlow 2.21 names five at its top level, and these are they::

    tf.zeros_initializer()            tf.ones_initializer()        tf.constant_initializer(value)
    tf.random_normal_initializer(mean=0.0, stddev=0.05, seed=None)
    tf.random_uniform_initializer(minval=-0.05, maxval=0.05, seed=None)

(``tf.glorot_uniform_initializer`` and the other TF1 names are gone from TF 2; Keras has
``glorot_uniform``.)  The dtype is float32 unless given, except that a constant initialiser
keeps its value's own dtype.  Keras' ``Zeros`` and ``Ones`` are these same classes;
``minitape.keras.initializers`` gathers them with Keras' own (and ``tf.initializers`` is that
Keras module, as in TF 2.21).

A random initialiser given a ``seed`` draws from a generator made from that seed on every
call (see ``core/random``), so it gives the same values each time, and two with one seed
agree; an unseeded one draws afresh on each call.  (Keras' unseeded ones keep the first
seed they draw instead: see ``minitape.keras.initializers``.)

>>> import minitape as tf
>>> init = tf.random_normal_initializer(stddev=1.0, seed=3)
>>> w = tf.Variable(init(shape=(2, 3), dtype=tf.float32))
>>> w.shape.as_list(), w.dtype.name
([2, 3], 'float32')
>>> tf.constant_initializer([1, 2, 3])((3,))
<minitape.Tensor: shape=(3,), dtype=int32, numpy=array([1, 2, 3], dtype=int32)>
"""
from __future__ import annotations

import contextlib
from typing import Any

from minitape import ops
from minitape.core import dtypes, random
from minitape.core.tensor import Tensor, constant


class Initializer:
    """The base class: ``initializer(shape, dtype=None)`` returns a tensor (float32 by default).

    >>> import minitape as tf
    >>> class Twos(tf.keras.initializers.Initializer):
    ...     def __call__(self, shape, dtype=None):
    ...         return tf.fill(shape, tf.constant(2.0, dtype or tf.float32))
    >>> Twos()((2,)).numpy()
    array([2., 2.], dtype=float32)
    """

    def __call__(self, shape: tuple[int, ...], dtype: Any = None) -> Tensor:
        raise NotImplementedError

    def get_config(self) -> dict[str, Any]:
        """The arguments that make this initialiser again: ``type(init)(**init.get_config())``.

        >>> import minitape as tf
        >>> tf.random_uniform_initializer(maxval=1.0).get_config()
        {'minval': -0.05, 'maxval': 1.0, 'seed': None}
        """
        return {}

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


def initializer_dtype(dtype: Any, initializer: str, floating: bool = False) -> dtypes.DType:
    """The dtype an initialiser was asked for (float32 if None); ``floating``: refuse others, as TensorFlow does.

    >>> import minitape as tf
    >>> from minitape.dialect.init_ops import initializer_dtype
    >>> initializer_dtype(None, "zeros_initializer").name, initializer_dtype("float64", "RandomNormal").name
    ('float32', 'float64')
    """
    dtype = dtypes.as_dtype(dtype or dtypes.float32)
    if floating and not dtype.is_floating:
        raise ValueError(f"Argument `dtype` is expected to be floating point. Received: {dtype}. "
                         f"({initializer} draws real numbers: ask for float16, float32 or float64.)")
    return dtype


class Zeros(Initializer):
    """All zeros: the default for biases (``tf.zeros_initializer``).

    >>> import minitape as tf
    >>> tf.zeros_initializer()((2,), tf.int32).numpy()
    array([0, 0], dtype=int32)
    """

    def __call__(self, shape: tuple[int, ...], dtype: Any = None) -> Tensor:
        return ops.zeros(shape, initializer_dtype(dtype, "zeros_initializer"))


class Ones(Initializer):
    """All ones (``tf.ones_initializer``).

    >>> import minitape as tf
    >>> tf.keras.initializers.ones()((2, 2), tf.float64).numpy()
    array([[1., 1.],
           [1., 1.]])
    """

    def __call__(self, shape: tuple[int, ...], dtype: Any = None) -> Tensor:
        return ops.ones(shape, initializer_dtype(dtype, "ones_initializer"))


class Constant(Initializer):
    """``value`` everywhere, or, a list of as many values as the shape holds, laid out in it
    (``tf.constant_initializer``); without a dtype, the value's own.

    >>> import minitape as tf
    >>> tf.constant_initializer(0.5)((2,)).numpy()
    array([0.5, 0.5], dtype=float32)
    >>> tf.constant_initializer([1.0, 2.0, 3.0, 4.0])((2, 2), tf.float64).numpy()
    array([[1., 2.],
           [3., 4.]])
    """

    def __init__(self, value: Any = 0) -> None:
        self.value = value

    def __call__(self, shape: tuple[int, ...], dtype: Any = None) -> Tensor:
        return constant(self.value, dtype=dtype, shape=shape)

    def get_config(self) -> dict[str, Any]:
        """``{'value': value}``.

        >>> import minitape as tf
        >>> tf.constant_initializer(3).get_config()
        {'value': 3}
        """
        return {"value": self.value}


class RandomInitializer(Initializer):
    """The base of the random initialisers: ``seed`` given, each call draws from a generator made from it.

    Subclasses draw their values inside ``self.draws()``.

    >>> import minitape as tf
    >>> init = tf.random_uniform_initializer(seed=5)
    >>> bool((init((3,)).numpy() == init((3,)).numpy()).all())
    True
    >>> bool((tf.random_uniform_initializer()((3,)).numpy() == tf.random_uniform_initializer()((3,)).numpy()).all())
    False
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def call_seed(self) -> int | None:
        """The seed this call draws from: ``seed`` (None: draw afresh, as TF's unseeded initialisers do).

        >>> import minitape as tf
        >>> tf.random_normal_initializer(seed=2).call_seed(), tf.random_normal_initializer().call_seed()
        (2, None)
        """
        return self.seed

    def draws(self) -> contextlib.AbstractContextManager:
        """A block whose random ops draw from a source made from ``call_seed()`` (when there is one).

        >>> import minitape as tf
        >>> init = tf.random_normal_initializer(seed=1)
        >>> with init.draws():
        ...     a = tf.random.normal((2,))
        >>> with init.draws():
        ...     b = tf.random.normal((2,))
        >>> bool((a.numpy() == b.numpy()).all())
        True
        """
        seed = self.call_seed()
        return contextlib.nullcontext() if seed is None else random.replay(random.Source(seed=seed))


class RandomNormal(RandomInitializer):
    """Normal samples, ``mean`` 0 and ``stddev`` 0.05 by default (``tf.random_normal_initializer``).

    >>> import minitape as tf
    >>> w = tf.keras.initializers.RandomNormal(stddev=1.0, seed=1)((1000,))
    >>> round(float(w.numpy().std()), 1)
    1.0
    """

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: int | None = None) -> None:
        super().__init__(seed)
        self.mean, self.stddev = float(mean), float(stddev)

    def __call__(self, shape: tuple[int, ...], dtype: Any = None) -> Tensor:
        dtype = initializer_dtype(dtype, "random_normal_initializer", floating=True)
        with self.draws():
            return random.normal(shape, self.mean, self.stddev, dtype)

    def get_config(self) -> dict[str, Any]:
        """``mean``, ``stddev`` and ``seed``.

        >>> import minitape as tf
        >>> tf.random_normal_initializer(stddev=1.0).get_config()
        {'mean': 0.0, 'stddev': 1.0, 'seed': None}
        """
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class RandomUniform(RandomInitializer):
    """Uniform samples on ``[minval, maxval)``, ``±0.05`` by default (``tf.random_uniform_initializer``).

    >>> import minitape as tf
    >>> w = tf.random_uniform_initializer()((100,))
    >>> bool(abs(w.numpy()).max() <= 0.05)
    True
    """

    def __init__(self, minval: float = -0.05, maxval: float = 0.05, seed: int | None = None) -> None:
        super().__init__(seed)
        self.minval, self.maxval = float(minval), float(maxval)

    def __call__(self, shape: tuple[int, ...], dtype: Any = None) -> Tensor:
        dtype = initializer_dtype(dtype, "random_uniform_initializer", floating=True)
        with self.draws():
            return random.uniform(shape, self.minval, self.maxval, dtype)

    def get_config(self) -> dict[str, Any]:
        """``minval``, ``maxval`` and ``seed``.

        >>> import minitape as tf
        >>> tf.random_uniform_initializer(-1.0, 1.0).get_config()
        {'minval': -1.0, 'maxval': 1.0, 'seed': None}
        """
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


# TensorFlow 2's top-level names for them.
zeros_initializer, ones_initializer, constant_initializer = Zeros, Ones, Constant
random_normal_initializer, random_uniform_initializer = RandomNormal, RandomUniform

__all__ = ["Constant", "Initializer", "Ones", "RandomInitializer", "RandomNormal", "RandomUniform", "Zeros",
           "constant_initializer", "initializer_dtype", "ones_initializer", "random_normal_initializer", "random_uniform_initializer", "zeros_initializer"]
