"""Normalization layers: ``BatchNormalization`` (statistics over the batch) and ``LayerNormalization``
(over each example's features).

``BatchNormalization`` holds state: while training it normalizes by the batch's mean and
variance and moves its ``moving_mean`` and ``moving_variance`` towards them; in inference it
normalizes by those moving statistics.  Run inside a recomputation (``recompute_grad``
running the layer again for the backward pass), it leaves them alone: they move once per
training step, checkpointed or not.  Seed 003 (``tf.contrib.layers.recompute_grad``) warns
that a recomputed function must not update batch normalization's moving averages twice;
TF 2.21 does, minitape does not.

>>> import minitape as tf
>>> bn = tf.keras.layers.BatchNormalization()
>>> x = tf.constant([[0.0, 10.0], [2.0, 30.0]])
>>> bn(x, training=True).numpy().round(4)                 # (x - mean) / sqrt(variance + 0.001)
array([[-0.9995, -1.    ],
       [ 0.9995,  1.    ]], dtype=float32)
>>> bn.moving_mean.numpy().round(6)                       # 0.99 · 0 + 0.01 · [1, 20]
array([0.01, 0.2 ], dtype=float32)
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minitape import ops
from minitape.dialect import nn
from minitape.checkpointing.call import is_recomputing
from minitape.core import dtypes
from minitape.core.state import stop_recording
from minitape.core.tensor import Tensor, Variable
from minitape.keras import initializers
from minitape.keras.layers.core import Layer


def _as(value: Tensor | Variable | None, dtype: dtypes.DType) -> Any:
    """``value`` in ``dtype``, itself when it already is (a cast would add an op to the tape)."""
    return value if value is None or value.dtype == dtype else ops.cast(value, dtype)


def _statistics_dtype(inputs: Tensor) -> dtypes.DType:
    """float16 inputs are normalised with float32 statistics, as Keras does; others in their own dtype."""
    return dtypes.float32 if inputs.dtype == dtypes.float16 else inputs.dtype


def _per_feature(value: Tensor | Variable | None, x: Tensor, shape: list[int]) -> Any:
    """A per-feature vector (or None) in ``x``'s dtype, shaped to broadcast against ``x``."""
    value = _as(value, x.dtype)
    if value is None or (list(value.shape) == shape[-1:] and shape[:-1] == [1] * (len(shape) - 1)):
        return value                    # a vector over the last axis broadcasts as it is: no reshape to record
    return ops.reshape(value, shape)


def _axes(axis: int | list[int], ndim: int) -> list[int]:
    axes = [axis] if isinstance(axis, int) else list(axis)
    if any(not -ndim <= a < ndim for a in axes):
        raise ValueError(f"Axis {axis} is out of bounds for an input of rank {ndim}.")
    return sorted(a % ndim for a in axes)


class BatchNormalization(Layer):
    """Normalize each feature (the ``axis``, channels by default) by the batch's statistics while training,
    by the moving statistics otherwise; then scale by ``gamma`` and shift by ``beta``.

    ``moving = moving · momentum + batch statistic · (1 - momentum)``, Keras 3's defaults
    ``momentum=0.99`` and ``epsilon=1e-3``; the variance is the biased one.  ``moving_mean``
    and ``moving_variance`` are non-trainable variables.

    >>> import minitape as tf
    >>> bn = tf.keras.layers.BatchNormalization(name="bn")
    >>> _ = bn(tf.ones((4, 3)))
    >>> [v.path for v in bn.trainable_variables], [v.path for v in bn.non_trainable_variables]
    (['bn/gamma', 'bn/beta'], ['bn/moving_mean', 'bn/moving_variance'])
    """

    def __init__(self, axis: int = -1, momentum: float = 0.99, epsilon: float = 1e-3, center: bool = True,
                 scale: bool = True, beta_initializer: str | Callable = "zeros", gamma_initializer: str | Callable = "ones",
                 moving_mean_initializer: str | Callable = "zeros", moving_variance_initializer: str | Callable = "ones",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis, self.momentum, self.epsilon = int(axis), float(momentum), float(epsilon)
        self.center, self.scale = center, scale
        given = {"gamma": gamma_initializer, "beta": beta_initializer, "moving_mean": moving_mean_initializer,
                 "moving_variance": moving_variance_initializer}
        self.initializers = {name: initializers.get(value) for name, value in given.items()}

    def build(self, input_shape: tuple[int, ...]) -> None:
        """Create ``gamma`` and ``beta`` (trainable), ``moving_mean`` and ``moving_variance`` (not), one per feature.

        >>> import minitape as tf
        >>> bn = tf.keras.layers.BatchNormalization()
        >>> bn.build((None, 8, 8, 16))
        >>> tuple(bn.gamma.shape), bn.moving_variance.trainable
        ((16,), False)
        """
        (axis,) = _axes(self.axis, len(input_shape))
        shape = (input_shape[axis],)
        self.gamma = self.add_weight(name="gamma", shape=shape, initializer=self.initializers["gamma"]) \
            if self.scale else None
        self.beta = self.add_weight(name="beta", shape=shape, initializer=self.initializers["beta"]) \
            if self.center else None
        self.moving_mean = self.add_weight(name="moving_mean", shape=shape,
                                           initializer=self.initializers["moving_mean"], trainable=False)
        self.moving_variance = self.add_weight(name="moving_variance", shape=shape,
                                               initializer=self.initializers["moving_variance"], trainable=False)
        self.reduction_axes = [a for a in range(len(input_shape)) if a != axis]
        super().build(input_shape)

    def call(self, inputs: Tensor, training: bool | None = None) -> Tensor:
        """Normalize ``inputs``: by the batch's statistics when ``training`` (updating the moving ones), else by
        the moving statistics.

        >>> import minitape as tf
        >>> bn = tf.keras.layers.BatchNormalization()
        >>> bn.build((None, 2))
        >>> bn.call(tf.constant([[1.0, 2.0]]), training=False).numpy()      # moving mean 0, variance 1
        array([[0.9995004, 1.9990008]], dtype=float32)
        """
        x = _as(inputs, _statistics_dtype(inputs))
        shape = [1 if a in self.reduction_axes else n for a, n in enumerate(x.shape)]

        def per_feature(value: Any) -> Any:
            return _per_feature(value, x, shape)

        if training and self.trainable and self._fusable(x):
            outputs, mean, variance = ops.fused_batch_norm(x, self.gamma, self.beta, self.epsilon)
            if not is_recomputing():
                self._update_moving_statistics(mean, variance)
            return _as(outputs, inputs.dtype)
        if training and self.trainable:
            mean, variance = nn.moments(x, axes=self.reduction_axes)
            if not is_recomputing():         # a recomputation runs this again: the step has updated them already
                self._update_moving_statistics(mean, variance)
            mean, variance = per_feature(mean), per_feature(variance)
        else:
            mean, variance = per_feature(self.moving_mean), per_feature(self.moving_variance)
        outputs = nn.batch_normalization(x, mean, variance, offset=per_feature(self.beta),
                                         scale=per_feature(self.gamma), variance_epsilon=self.epsilon)
        return _as(outputs, inputs.dtype)

    def _fusable(self, x: Tensor) -> bool:
        # One primitive (ops.fused_batch_norm) for the usual case: features on the last axis, scaled and
        # shifted, in the weights' dtype; one tape entry per layer instead of a dozen. On
        # benchmarks/cnn_step.py's ResNet (--against the tree before) the step took 0.84x, 1.01x and 0.85x
        # the CPU time and 0.95x, 0.80x and 0.83x the wall time in three paired runs on a busy machine.
        return (self.center and self.scale and x.ndim > 1 and self.reduction_axes == list(range(x.ndim - 1))
                and x.dtype == self.gamma.dtype == self.beta.dtype)

    def _update_moving_statistics(self, mean: Tensor, variance: Tensor) -> None:
        with stop_recording():                 # state, not part of what is differentiated
            for moving, batch in ((self.moving_mean, mean), (self.moving_variance, variance)):
                moving.assign(_as(moving * self.momentum + _as(batch, moving.dtype) * (1.0 - self.momentum),
                                  moving.dtype))


class LayerNormalization(Layer):
    """Normalize each example over ``axis`` (its features, by default the last axis), then scale by ``gamma``
    and shift by ``beta``; ``epsilon`` 1e-3 as in Keras 3.  No state: training or not, the same.

    >>> import minitape as tf
    >>> tf.keras.layers.LayerNormalization(epsilon=0.0)(tf.constant([[1.0, 3.0], [0.0, 10.0]])).numpy()
    array([[-1.,  1.],
           [-1.,  1.]], dtype=float32)
    """

    supports_masking = True      # a mask on the input reaches the output, as in Keras 3

    def __init__(self, axis: int | list[int] = -1, epsilon: float = 1e-3, center: bool = True, scale: bool = True,
                 beta_initializer: str | Callable = "zeros", gamma_initializer: str | Callable = "ones",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis, self.epsilon, self.center, self.scale = axis, float(epsilon), center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)

    def build(self, input_shape: tuple[int, ...]) -> None:
        """Create ``gamma`` and ``beta``, shaped as the normalized axes.

        >>> import minitape as tf
        >>> norm = tf.keras.layers.LayerNormalization(name="norm")
        >>> norm.build((None, 5))
        >>> [(v.path, tuple(v.shape)) for v in norm.variables]
        [('norm/gamma', (5,)), ('norm/beta', (5,))]
        """
        self.axes = _axes(self.axis, len(input_shape))
        shape = tuple(input_shape[a] for a in self.axes)
        self.gamma = self.add_weight(name="gamma", shape=shape, initializer=self.gamma_initializer) \
            if self.scale else None
        self.beta = self.add_weight(name="beta", shape=shape, initializer=self.beta_initializer) \
            if self.center else None
        super().build(input_shape)

    def call(self, inputs: Tensor) -> Tensor:
        """``(inputs - mean) / sqrt(variance + epsilon) · gamma + beta``, the statistics over ``axis``.

        Over the last axes, with ``gamma`` and ``beta``, that is one primitive, ``ops.layer_normalization``;
        otherwise (and for float16, normalized in float32) it is written with ops.

        >>> import minitape as tf
        >>> norm = tf.keras.layers.LayerNormalization(center=False)
        >>> norm.build((1, 4))
        >>> norm.call(tf.constant([[0.0, 0.0, 2.0, 2.0]])).numpy().round(4)      # 1 / sqrt(1 + 0.001)
        array([[-0.9995, -0.9995,  0.9995,  0.9995]], dtype=float32)
        """
        trailing = self.axes == list(range(inputs.ndim - len(self.axes), inputs.ndim))
        if trailing and self.scale and self.center and inputs.dtype == self.gamma.dtype == _statistics_dtype(inputs):
            return ops.layer_normalization(inputs, self.gamma, self.beta, len(self.axes), self.epsilon)
        x = _as(inputs, _statistics_dtype(inputs))
        shape = [n if a in self.axes else 1 for a, n in enumerate(x.shape)]
        mean, variance = nn.moments(x, axes=self.axes, keepdims=True)
        outputs = nn.batch_normalization(x, mean, variance, offset=_per_feature(self.beta, x, shape),
                                         scale=_per_feature(self.gamma, x, shape), variance_epsilon=self.epsilon)
        return _as(outputs, inputs.dtype)
