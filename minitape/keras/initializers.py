"""Weight initialisers with Keras 3's distributions and defaults, drawn from minitape's seeded random ops.

An initialiser is an object called as ``initializer(shape, dtype)``.  ``Zeros`` and ``Ones`` are
TensorFlow's own (``minitape.dialect.init_ops``).  As in Keras 3, the
snake-case names are the classes themselves (``he_normal is HeNormal``), and layers take
either an object or a name: ``Conv2D(8, 3, kernel_initializer="he_normal")``.

The variance-scaling family divides ``scale`` by a *fan*: for a kernel of shape
``(kh, kw, in, out)`` (or ``(in, out)``), ``fan_in = kh·kw·in`` and ``fan_out = kh·kw·out``.

======================  ==============================================================
``he_normal``           truncated normal, ``stddev = sqrt(2 / fan_in) / 0.8796``
``he_uniform``          uniform on ``±sqrt(6 / fan_in)``
``glorot_normal``       truncated normal, ``stddev = sqrt(2 / (fan_in + fan_out)) / 0.8796``
``glorot_uniform``      uniform on ``±sqrt(6 / (fan_in + fan_out))`` (Dense and Conv2D kernels)
``lecun_normal``        truncated normal, ``stddev = sqrt(1 / fan_in) / 0.8796`` (SELU networks)
``lecun_uniform``       uniform on ``±sqrt(3 / fan_in)``
``random_normal``       normal, mean 0, ``stddev = 0.05``
``random_uniform``      uniform on ``±0.05`` (Embedding)
``zeros``, ``ones``     constants (biases; BatchNormalization's beta and gamma)
======================  ==============================================================

Seeds are Keras 3's: a random initialiser gives the same values on every call.  One given a
``seed`` draws from a generator made from it (two with one seed agree); an unseeded one draws a
seed on its first call and keeps it, so two unseeded objects differ (``keras.utils.set_random_seed``
makes them repeatable).  TF's ``tf.random_normal_initializer()`` instead draws afresh each call.

The truncated normal redraws samples beyond two standard deviations, which shrinks the
spread by the factor 0.8796; dividing by it gives back the intended standard deviation.

>>> import minitape as tf
>>> from minitape.keras import initializers
>>> w = initializers.get("glorot_uniform")((2, 3), tf.float32)
>>> bool(abs(w.numpy()).max() <= (6 / 5) ** 0.5)
True
>>> initializers.he_normal is initializers.HeNormal
True
"""
from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from minitape.dialect import init_ops
from minitape.core import dtypes, random
from minitape.core.tensor import Tensor
from minitape.core.tensor import constant as make_constant
from minitape.dialect.init_ops import Initializer, Ones, RandomInitializer, Zeros, initializer_dtype

TRUNCATION = 0.87962566103423978        # the standard deviation of a unit normal truncated at ±2


def compute_fans(shape: tuple[int, ...]) -> tuple[int, int]:
    """``(fan_in, fan_out)`` of a weight of ``shape``: a kernel's receptive field counts in both.

    >>> from minitape.keras.initializers import compute_fans
    >>> compute_fans((3, 3, 8, 16)), compute_fans((4, 2)), compute_fans((5,))
    ((72, 144), (4, 2), (5, 5))
    """
    shape = tuple(shape)
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive = math.prod(shape[:-2])
    return shape[-2] * receptive, shape[-1] * receptive


class Constant(init_ops.Constant):
    """Keras' ``Constant``: as ``tf.constant_initializer``, but float32 unless a dtype is given.

    >>> import minitape as tf
    >>> tf.keras.initializers.Constant(3)((2,)).numpy()
    array([3., 3.], dtype=float32)
    """

    def __call__(self, shape: tuple[int, ...], dtype: Any = None) -> Tensor:
        return super().__call__(shape, dtype or dtypes.float32)


class KerasRandomInitializer(RandomInitializer):
    """Keras 3's seeding (see the module's text): unseeded, the seed drawn on the first call is kept.

    >>> import minitape as tf
    >>> init = tf.keras.initializers.RandomNormal()
    >>> bool((init((3,)).numpy() == init((3,)).numpy()).all()), init.get_config()["seed"]
    (True, None)
    """

    def call_seed(self) -> int:
        """``seed``, or the seed drawn on the first call.

        >>> import minitape as tf
        >>> tf.keras.initializers.HeNormal(seed=4).call_seed()
        4
        """
        if self.seed is not None:
            return self.seed
        if getattr(self, "_drawn_seed", None) is None:
            self._drawn_seed = random.draw_seed()
        return self._drawn_seed

    def get_config(self) -> dict[str, Any]:
        """Keras' config: ``seed`` first (None when unseeded), then the arguments.

        >>> import minitape as tf
        >>> tf.keras.initializers.RandomUniform(seed=1).get_config()
        {'seed': 1, 'minval': -0.05, 'maxval': 0.05}
        """
        return {"seed": self.seed} | {k: v for k, v in super().get_config().items() if k != "seed"}


class RandomNormal(KerasRandomInitializer, init_ops.RandomNormal):
    """Keras' ``RandomNormal``: ``tf.random_normal_initializer``'s samples with Keras' seeding.

    >>> import minitape as tf
    >>> tf.keras.initializers.RandomNormal(stddev=1.0, seed=1).get_config()
    {'seed': 1, 'mean': 0.0, 'stddev': 1.0}
    """


class RandomUniform(KerasRandomInitializer, init_ops.RandomUniform):
    """Keras' ``RandomUniform``: ``tf.random_uniform_initializer``'s samples with Keras' seeding.

    >>> import minitape as tf
    >>> w = tf.keras.initializers.RandomUniform(-1.0, 1.0, seed=0)((2,))
    >>> bool((abs(w.numpy()) <= 1.0).all())
    True
    """


class VarianceScaling(KerasRandomInitializer):
    """Samples whose variance is ``scale / fan``, where ``mode`` chooses the fan (``fan_in``, ``fan_out`` or
    their mean, ``fan_avg``) and ``distribution`` the shape (``truncated_normal``, ``untruncated_normal``,
    ``uniform``).

    >>> import minitape as tf
    >>> init = tf.keras.initializers.VarianceScaling(scale=2.0, mode="fan_in", distribution="uniform")
    >>> bool(abs(init((8, 100)).numpy()).max() <= (3 * 2.0 / 8) ** 0.5)
    True
    """

    MODES = ("fan_in", "fan_out", "fan_avg")
    DISTRIBUTIONS = ("truncated_normal", "untruncated_normal", "uniform")

    def __init__(self, scale: float = 1.0, mode: str = "fan_in", distribution: str = "truncated_normal",
                 seed: int | None = None) -> None:
        if not float(scale) > 0:
            raise ValueError(f"Argument `scale` must be positive float. Received: scale={scale}")
        if mode not in self.MODES:
            raise ValueError(f"Invalid `mode` argument: {mode}. Please use one of {list(self.MODES)}")
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in self.DISTRIBUTIONS:
            raise ValueError(f"Invalid `distribution` argument: {distribution}. Please use one of "
                             f"{list(self.DISTRIBUTIONS)}")
        super().__init__(seed)
        self.scale, self.mode, self.distribution = float(scale), mode, distribution

    def __call__(self, shape: tuple[int, ...], dtype: Any = None) -> Tensor:
        fan_in, fan_out = compute_fans(shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        scale, dtype = self.scale / max(1.0, fan), initializer_dtype(dtype, type(self).__name__)
        with self.draws():
            if self.distribution == "truncated_normal":
                return random.truncated_normal(shape, 0.0, math.sqrt(scale) / TRUNCATION, dtype)
            if self.distribution == "untruncated_normal":
                return random.normal(shape, 0.0, math.sqrt(scale), dtype)
            limit = math.sqrt(3.0 * scale)
            return random.uniform(shape, -limit, limit, dtype)


class GlorotUniform(VarianceScaling):
    """Uniform on ``±sqrt(6 / (fan_in + fan_out))``: the default kernel initialiser of Dense and Conv2D.

    >>> import minitape as tf
    >>> w = tf.keras.initializers.GlorotUniform()((4, 2))
    >>> w.shape, bool(abs(w.numpy()).max() <= 1.0)       # limit = sqrt(6 / (4 + 2)) = 1
    (TensorShape([4, 2]), True)
    """

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(1.0, "fan_avg", "uniform", seed)


class Orthogonal(KerasRandomInitializer):
    """A random orthogonal matrix times ``gain``: the Q of the QR factorisation of a normal sample, its columns'
    signs fixed by R's diagonal (so Q is unique).  The default recurrent kernel of the RNN layers, which keeps
    a state's length from growing or shrinking through the steps.  A shape of more than two axes is
    flattened to ``(prod(shape[:-1]), shape[-1])`` first.

    >>> import minitape as tf
    >>> w = tf.keras.initializers.Orthogonal(seed=1)((3, 3)).numpy()
    >>> bool(np.allclose(w @ w.T, np.eye(3), atol=1e-6))
    True
    """

    def __init__(self, gain: float = 1.0, seed: int | None = None) -> None:
        super().__init__(seed)
        self.gain = gain

    def __call__(self, shape: tuple[int, ...], dtype: Any = None) -> Tensor:
        shape = tuple(shape)
        if len(shape) < 2:
            raise ValueError(f"The tensor to initialize must be at least two-dimensional. Received: shape={shape} "
                             f"of rank {len(shape)}.")
        rows, columns = math.prod(shape[:-1]), shape[-1]
        dtype = initializer_dtype(dtype, type(self).__name__)
        with self.draws():
            sample = random.normal((max(rows, columns), min(rows, columns)), 0.0, 1.0, dtype)
        q, r = np.linalg.qr(sample.numpy())     # the factorisation is not a minitape op: no gradient flows here
        q = q * np.sign(np.diag(r))
        q = q.T if rows < columns else q
        return make_constant(self.gain * q.reshape(shape), dtype)

    def get_config(self) -> dict[str, Any]:
        """Keras' config: ``seed``, then ``gain``.

        >>> import minitape as tf
        >>> tf.keras.initializers.Orthogonal(gain=2.0).get_config()
        {'seed': None, 'gain': 2.0}
        """
        return {"seed": self.seed, "gain": self.gain}


class GlorotNormal(VarianceScaling):
    """Truncated normal with ``stddev = sqrt(2 / (fan_in + fan_out))`` (before truncation: over 0.8796).

    >>> import minitape as tf
    >>> w = tf.keras.initializers.GlorotNormal(seed=0)((200, 200))
    >>> round(float(w.numpy().std()) * 200 ** 0.5, 1)                  # sqrt(2 / 400) · sqrt(200)
    1.0
    """

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(1.0, "fan_avg", "truncated_normal", seed)


class HeNormal(VarianceScaling):
    """Truncated normal with ``stddev = sqrt(2 / fan_in)``, for layers followed by ReLU (He et al., 2015).

    >>> import minitape as tf
    >>> w = tf.keras.initializers.HeNormal(seed=0)((3, 3, 8, 400))          # fan_in = 3·3·8 = 72
    >>> round(float(w.numpy().std()) * 36 ** 0.5, 1)                  # sqrt(2 / 72) · 6
    1.0
    """

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(2.0, "fan_in", "truncated_normal", seed)


class HeUniform(VarianceScaling):
    """Uniform on ``±sqrt(6 / fan_in)``.

    >>> import minitape as tf
    >>> w = tf.keras.initializers.HeUniform()((6, 50))
    >>> bool(abs(w.numpy()).max() <= 1.0)
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(2.0, "fan_in", "uniform", seed)


class LecunNormal(VarianceScaling):
    """Truncated normal with ``stddev = sqrt(1 / fan_in)``, for SELU networks (Klambauer et al., 2017).

    >>> import minitape as tf
    >>> w = tf.keras.initializers.LecunNormal(seed=0)((100, 400))
    >>> round(float(w.numpy().std()) * 100 ** 0.5, 1)                  # sqrt(1 / 100) · 10
    1.0
    """

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(1.0, "fan_in", "truncated_normal", seed)


class LecunUniform(VarianceScaling):
    """Uniform on ``±sqrt(3 / fan_in)``.

    >>> import minitape as tf
    >>> w = tf.keras.initializers.LecunUniform(seed=0)((3, 50))
    >>> bool(abs(w.numpy()).max() <= 1.0)
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(1.0, "fan_in", "uniform", seed)


lecun_normal, lecun_uniform = LecunNormal, LecunUniform
# Keras 3's snake-case names are the classes themselves.
zeros, ones, constant, random_normal, random_uniform = Zeros, Ones, Constant, RandomNormal, RandomUniform
glorot_uniform, glorot_normal, he_normal, he_uniform = GlorotUniform, GlorotNormal, HeNormal, HeUniform
orthogonal = Orthogonal
variance_scaling = VarianceScaling

_BY_NAME: dict[str, type] = {
    "zeros": Zeros, "ones": Ones, "constant": Constant, "random_normal": RandomNormal, "random_uniform": RandomUniform,
    "uniform": RandomUniform, "normal": RandomNormal, "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal,
    "he_normal": HeNormal, "he_uniform": HeUniform, "variance_scaling": VarianceScaling,
    "orthogonal": Orthogonal, "OrthogonalInitializer": Orthogonal,
    "lecun_normal": LecunNormal, "lecun_uniform": LecunUniform,
}
_KNOWN: dict[str, type] = {**_BY_NAME, **{cls.__name__: cls for cls in _BY_NAME.values()}}     # class names too


def get(identifier: str | Callable | None) -> Callable | None:
    """The initialiser named ``identifier`` (a new object), an initialiser class made into one, or a callable.

    >>> import minitape as tf
    >>> tf.keras.initializers.get("he_normal"), tf.keras.initializers.get(tf.keras.initializers.Zeros)
    (<HeNormal>, <Zeros>)
    """
    if identifier is None or (callable(identifier) and not inspect.isclass(identifier)):
        return identifier
    if inspect.isclass(identifier):
        return identifier()
    if identifier not in _KNOWN:
        raise ValueError(f"Could not interpret initializer identifier: {identifier!r}. Known names: "
                         f"{', '.join(sorted(_BY_NAME))}; or pass an initializer object or a callable.")
    return _KNOWN[identifier]()


__all__ = ["Constant", "GlorotNormal", "GlorotUniform", "HeNormal", "HeUniform", "Initializer",
           "KerasRandomInitializer", "Ones", "Orthogonal", "RandomNormal",
           "RandomUniform", "VarianceScaling", "Zeros", "compute_fans", "get", "glorot_normal", "glorot_uniform",
           "he_normal", "he_uniform", "orthogonal", "constant", "ones", "random_normal", "random_uniform", "variance_scaling",
           "zeros"]
__all__ += ["LecunNormal", "LecunUniform", "lecun_normal", "lecun_uniform"]
