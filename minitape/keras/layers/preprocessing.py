"""Preprocessing layers on numbers, placed first in a model so it takes raw data: ``Rescaling``,
``Normalization`` (learnt by ``adapt``), ``CategoryEncoding`` and ``Discretization``.

None of them has trainable weights; ``Normalization`` keeps what ``adapt`` measured as
non-trainable ones (``mean``, ``variance``, ``count``), as Keras 3 does.

>>> import minitape as tf
>>> import numpy as np
>>> norm = tf.keras.layers.Normalization()
>>> norm.adapt(np.array([[1.0], [2.0], [3.0]]))
>>> norm(tf.constant([[2.0], [4.0]])).numpy().round(4)
array([[0.    ],
       [2.4495]], dtype=float32)
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

import numpy as np

from minitape import ops
from minitape.core import dtypes
from minitape.core.errors import InvalidArgumentError
from minitape.core.tensor import Tensor, convert_to_tensor
from minitape.keras.layers.core import Layer


class Rescaling(Layer):
    """``inputs * scale + offset``: pixels in ``[0, 255]`` to ``[0, 1]`` with ``Rescaling(1 / 255)``, or to
    ``[-1, 1]`` with ``Rescaling(1 / 127.5, offset=-1)``.

    >>> import minitape as tf
    >>> tf.keras.layers.Rescaling(1 / 127.5, offset=-1)(tf.constant([0, 255])).numpy()
    array([-1.,  1.], dtype=float32)
    """

    def __init__(self, scale: float, offset: float = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset

    def call(self, inputs: Tensor) -> Tensor:
        """``inputs * scale + offset``, in float32.

        >>> import minitape as tf
        >>> tf.keras.layers.Rescaling(2.0, 1.0).call(tf.constant([1.0])).numpy()
        array([3.], dtype=float32)
        """
        dtype = inputs.dtype if inputs.dtype.is_floating else dtypes.float32
        return ops.cast(inputs, dtype) * ops.cast(self.scale, dtype) + ops.cast(self.offset, dtype)


def _batches(data: Any) -> Iterable[np.ndarray]:
    """``adapt``'s data as arrays: one array or tensor, or an iterable of batches (a list, a generator, a
    ``tf.data.Dataset``); of ``(x, y)`` pairs, ``x``."""
    if isinstance(data, np.ndarray | Tensor):
        return [np.asarray(data)]
    if hasattr(data, "element_spec") and hasattr(data, "batch"):      # a tf.data.Dataset
        spec = data.element_spec[0] if isinstance(data.element_spec, tuple) else data.element_spec
        if len(spec.shape) == 1:          # Keras' guess: rows of features, not yet batched
            data = data.batch(128)
    if not hasattr(data, "__iter__"):
        raise TypeError(f"Unsupported data type: {type(data)}. `adapt` supports `np.ndarray`, backend tensors, "
                        f"`tf.data.Dataset`, `keras.utils.PyDataset`, and iterables of batches (e.g. list, generator).")
    return (np.asarray(batch[0] if isinstance(batch, tuple) else batch) for batch in data)


class Normalization(Layer):
    """``(inputs - mean) / sqrt(variance)`` per feature: ``mean`` and ``variance`` given, or measured by ``adapt``.

    ``axis`` says which axes have their own statistics (the last by default; ``None`` for one over all).
    ``invert=True`` undoes the normalization.

    >>> import minitape as tf
    >>> tf.keras.layers.Normalization(mean=2.0, variance=4.0)(tf.constant([[0.0, 4.0]])).numpy()
    array([[-1.,  1.]], dtype=float32)
    """

    def __init__(self, axis: int | tuple[int, ...] | None = -1, mean: Any = None, variance: Any = None,
                 invert: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = () if axis is None else (axis,) if isinstance(axis, int) else tuple(axis)
        self.input_mean, self.input_variance, self.invert = mean, variance, invert
        if (mean is not None) != (variance is not None):
            raise ValueError(f"When setting values directly, both `mean` and `variance` must be set. Received: "
                             f"mean={mean} and variance={variance}")
        if mean is not None and np.shape(mean) != np.shape(variance):
            raise ValueError(f"When setting values directly, `mean` and `variance` must have the same shape. "
                             f"Received: mean shape {np.shape(mean)} and variance shape {np.shape(variance)}")
        if mean is not None and len(np.shape(mean)) > len(self.axis):
            raise ValueError(f"The rank of `mean` must be less than or equal to the number of axes "
                             f"({len(self.axis)}). Received: mean shape {np.shape(mean)} for axis {self.axis}")

    def build(self, input_shape: Any) -> None:
        """Work out the axes kept and reduced; make the ``mean``/``variance``/``count`` weights ``adapt`` fills.

        >>> import minitape as tf
        >>> layer = tf.keras.layers.Normalization(axis=-1)
        >>> layer.build((None, 3))
        >>> [(v.name, tuple(v.shape)) for v in layer.weights]
        [('mean', (3,)), ('variance', (3,)), ('count', ())]
        """
        ndim = len(input_shape)
        if any(a < -ndim or a >= ndim for a in self.axis):
            raise ValueError(f"All `axis` values must be in the range [-ndim, ndim). Received inputs with "
                             f"ndim={ndim}, while axis={self.axis}")
        self._keep = tuple(sorted(a % ndim for a in self.axis))
        if any(input_shape[a] is None for a in self._keep):
            raise ValueError(f"All `axis` values to be kept must have a known shape. Received axis={self.axis}, "
                             f"inputs.shape={tuple(input_shape)}")
        self._build_shape = tuple(input_shape)
        self._reduce = tuple(a for a in range(ndim) if a not in self._keep)
        self._broadcast = [input_shape[a] if a in self._keep else 1 for a in range(ndim)]
        stats_shape = tuple(input_shape[a] for a in self._keep)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(shape=stats_shape, initializer="zeros", trainable=False, name="mean")
            self.adapt_variance = self.add_weight(shape=stats_shape, initializer="ones", trainable=False,
                                                  name="variance")
            self.count = self.add_weight(shape=(), dtype="int64", initializer="zeros", trainable=False, name="count")
            return
        mean, variance = (np.asarray(v, np.float32) for v in (self.input_mean, self.input_variance))
        placed = [1] * ndim              # the given statistics line up with the kept axes from the right
        for i in range(1, mean.ndim + 1):
            placed[self._keep[-i]] = mean.shape[-i]
        self.mean, self.variance = (np.broadcast_to(v.reshape(placed), self._broadcast) for v in (mean, variance))

    def adapt(self, data: Any) -> None:
        """Measure each kept position's mean and variance over ``data``: an array, a tensor, or an iterable of
        batches (a ``tf.data.Dataset`` of batches, a list, a generator), combined batch by batch.

        >>> import minitape as tf
        >>> import numpy as np
        >>> layer = tf.keras.layers.Normalization()
        >>> layer.adapt([np.array([[0.0], [2.0]]), np.array([[4.0], [6.0]])])
        >>> float(layer.adapt_mean[0]), float(layer.adapt_variance[0])
        (3.0, 5.0)
        """
        batches = iter(_batches(data))
        first = next(batches, None)
        if first is None:
            raise ValueError("adapt() received an empty iterable (no batches). Expected at least one batch.")
        if not self.built:
            self.build(first.shape)
            self.built = True
        mean = variance = np.zeros(self.adapt_mean.shape)
        total = 0
        for batch in itertools.chain([first], batches):
            if any(batch.shape[a] != self._build_shape[a] for a in self._keep):
                raise ValueError(f"The layer was built with input_shape={self._build_shape}, but adapt() is being "
                                 f"called with data with an incompatible shape, data.shape={batch.shape}")
            batch = batch.astype(np.float64)
            count = int(np.prod([batch.shape[a] for a in self._reduce]))
            total += count
            # Chan's parallel update: the pooled variance from each part's variance and the shift of its mean.
            weight = count / total
            pooled = mean * (1 - weight) + batch.mean(axis=self._reduce) * weight
            variance = ((variance + (mean - pooled) ** 2) * (1 - weight)
                        + (batch.var(axis=self._reduce) + (batch.mean(axis=self._reduce) - pooled) ** 2) * weight)
            mean = pooled
        self.adapt_mean.assign(mean.astype(np.float32))
        self.adapt_variance.assign(variance.astype(np.float32))

    def call(self, inputs: Tensor) -> Tensor:
        """``(inputs - mean) / max(sqrt(variance), 1e-7)`` (or its inverse).

        >>> import minitape as tf
        >>> tf.keras.layers.Normalization(mean=1.0, variance=4.0, invert=True)(tf.constant([[1.0]])).numpy()
        array([[3.]], dtype=float32)
        """
        if self.input_mean is None:
            mean = ops.reshape(self.adapt_mean, self._broadcast)
            variance = ops.reshape(self.adapt_variance, self._broadcast)
        else:
            mean, variance = convert_to_tensor(self.mean), convert_to_tensor(self.variance)
        inputs = ops.cast(inputs, dtypes.float32)
        scale = ops.maximum(ops.sqrt(variance), 1e-7)
        return mean + inputs * scale if self.invert else (inputs - mean) / scale


class CategoryEncoding(Layer):
    """Integer categories as vectors of ``num_tokens`` entries: ``"one_hot"`` (one vector per integer),
    ``"multi_hot"`` (one per example, 1 where its integers are) or ``"count"`` (how often each occurs).

    >>> import minitape as tf
    >>> tf.keras.layers.CategoryEncoding(4, output_mode="multi_hot")(tf.constant([[0, 1], [3, 3]])).numpy()
    array([[1., 1., 0., 0.],
           [0., 0., 0., 1.]], dtype=float32)
    """
    casts_inputs = False                 # its inputs are indices

    def __init__(self, num_tokens: int | None = None, output_mode: str = "multi_hot", sparse: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        output_mode = "multi_hot" if output_mode == "binary" else output_mode
        if output_mode not in ("count", "one_hot", "multi_hot"):
            raise ValueError(f"Unknown arg for output_mode: {output_mode}")
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of tokens is not known "
                             "beforehand, use the IntegerLookup layer instead.")
        if num_tokens < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        if sparse:
            raise ValueError("CategoryEncoding: sparse=True is not supported by minitape (no sparse tensors); "
                             "pass sparse=False.")
        self.num_tokens, self.output_mode = num_tokens, output_mode

    def call(self, inputs: Any, count_weights: Any = None) -> Tensor:
        """The encoding of ``inputs`` (a scalar, a vector of one example's integers, or a batch of them).

        >>> import minitape as tf
        >>> tf.keras.layers.CategoryEncoding(3, output_mode="one_hot").call(tf.constant([2, 0])).numpy()
        array([[0., 0., 1.],
               [1., 0., 0.]], dtype=float32)
        """
        inputs = convert_to_tensor(inputs)
        if count_weights is not None and self.output_mode != "count":
            raise ValueError(f"`count_weights` is not used when `output_mode` is not `'count'`. Received "
                             f"`count_weights={count_weights}`.")
        if inputs.ndim == 0:
            inputs = ops.reshape(inputs, (1,))
        if self.output_mode == "one_hot":
            if inputs.ndim > 1 and inputs.shape[-1] == 1:
                inputs = ops.squeeze(inputs, -1)
            return ops.one_hot(inputs, self.num_tokens, dtype=dtypes.float32)
        negative = np.asarray(inputs)[np.asarray(inputs) < 0]
        if negative.size:            # TF's bincount refuses them (larger indices it drops, as one_hot does)
            raise InvalidArgumentError(f"Input 'in' must be non-negative! Negative input value found: "
                                       f"{negative.flat[0]} [Op:DenseBincount]")
        encoded = ops.one_hot(inputs, self.num_tokens, dtype=dtypes.float32)
        if count_weights is not None:
            encoded = encoded * ops.expand_dims(ops.cast(count_weights, dtypes.float32), -1)
        counts = ops.reduce_sum(encoded, axis=1 if inputs.ndim > 1 else 0)
        return ops.minimum(counts, 1.0) if self.output_mode == "multi_hot" else counts


class Discretization(Layer):
    """Numbers into bins: the output is how many of the sorted ``bin_boundaries`` are ``<=`` the input (int32).

    >>> import minitape as tf
    >>> tf.keras.layers.Discretization(bin_boundaries=[0.0, 1.0])(tf.constant([-0.5, 0.0, 0.5, 2.0])).numpy()
    array([0, 1, 1, 2], dtype=int32)
    """

    def __init__(self, bin_boundaries: list[float] | None = None, num_bins: int | None = None,
                 epsilon: float = 0.01, output_mode: str = "int", sparse: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if bin_boundaries is None:
            raise ValueError("Discretization: minitape needs `bin_boundaries` (adapting bins from data with "
                             "`num_bins` is not implemented); pass the boundaries, e.g. from np.quantile.")
        if num_bins is not None:
            raise ValueError(f"Both `num_bins` and `bin_boundaries` should not be set. Received: num_bins="
                             f"{num_bins} and bin_boundaries={bin_boundaries}")
        if output_mode != "int" or sparse:
            raise ValueError(f"Discretization: output_mode={output_mode!r} is not supported by minitape; "
                             f"use output_mode='int' and a CategoryEncoding layer after it.")
        self.bin_boundaries = list(bin_boundaries)

    def call(self, inputs: Tensor) -> Tensor:
        """The bin of each entry: ``searchsorted(bin_boundaries, inputs, side="right")``.

        >>> import minitape as tf
        >>> tf.keras.layers.Discretization([10.0]).call(tf.constant([[5.0, 10.0]])).numpy()
        array([[0, 1]], dtype=int32)
        """
        bins = np.searchsorted(np.asarray(self.bin_boundaries, np.float64), np.asarray(inputs), side="right")
        return convert_to_tensor(bins.astype(np.int32))
