"""Metrics that reduce values to one: ``Mean``, the running (weighted) mean, and ``MeanMetricWrapper``, the mean of a
function of ``(y_true, y_pred)`` over the examples seen.

>>> import minitape as tf
>>> mean = tf.keras.metrics.Mean()
>>> mean.update_state([1.0, 3.0]); float(mean.result())
2.0
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minitape.core.errors import InvalidArgumentError
from minitape.core.tensor import Tensor, constant
from minitape import ops
from minitape.keras.loss import same_rank
from minitape.keras.masking import get_keras_mask, mask_weights
from minitape.keras.metric import Metric
from minitape.keras.metric import host as _host
from minitape.keras.naming import snake_case


def _samplewise(values: np.ndarray, sample_weight: Any, dtype: np.dtype,
                reduce: Any = np.mean) -> tuple[np.ndarray, np.ndarray | None]:
    """Keras 3's ``reduce_to_samplewise_values``: one value per example (the mean of its entries), times its
    weight; the weights as many as the examples (``None`` if none were given)."""
    values = values.astype(dtype)
    weights = None
    if sample_weight is not None:
        weights = _host(sample_weight).astype(dtype)
        values, weights = same_rank(values, weights)
        if values.ndim > weights.ndim:            # average what the weights do not reach
            values = reduce(values, axis=tuple(range(weights.ndim, values.ndim)), dtype=dtype)
        try:
            weights = np.broadcast_to(weights, values.shape)
        except ValueError:
            raise InvalidArgumentError(f"Metric update_state: sample_weight of shape {weights.shape} does not "
                                       f"broadcast to the values' shape {values.shape}; give one weight per "
                                       f"example, or per value.") from None
        values = values * weights
        if weights.ndim > 1:
            weights = reduce(weights, axis=tuple(range(1, weights.ndim)), dtype=dtype)
    if values.ndim > 1:
        values = reduce(values, axis=tuple(range(1, values.ndim)), dtype=dtype)
    return values, weights


class Mean(Metric):
    """The (weighted) mean of the examples seen: ``total / count``, as Keras 3 keeps them (float32 by default).

    An example is a row of ``values``: one with several entries counts once, as their mean.
    ``sample_weight`` weighs each example (or each entry, given their shape).

    >>> import minitape as tf
    >>> mean = tf.keras.metrics.Mean(name="loss")
    >>> mean.update_state(2.0, sample_weight=3)        # a batch of 3 whose mean loss is 2
    >>> mean.update_state(6.0, sample_weight=1)
    >>> mean.result()                                  # (2·3 + 6·1) / 4
    <minitape.Tensor: shape=(), dtype=float32, numpy=3.0>
    >>> mean.variables
    [<Variable path=loss/total, shape=(), dtype=float32, value=12.0>,
     <Variable path=loss/count, shape=(), dtype=float32, value=4.0>]
    """

    def __init__(self, name: str = "mean", dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable((), "zeros", dtype=self.dtype, name="total")
        self.count = self.add_variable((), "zeros", dtype=self.dtype, name="count")

    def update_state(self, values: Any, sample_weight: Any = None) -> None:
        """Add each example of ``values`` (weighted by ``sample_weight``, 1 if None) to the running mean.

        >>> import minitape as tf
        >>> mean = tf.keras.metrics.Mean()
        >>> mean.update_state([[1.0, 2.0], [3.0, 4.0]], sample_weight=[1.0, 0.0])      # the first row only
        >>> float(mean.result()), float(mean.count)
        (1.5, 1.0)
        """
        dtype = self.total.dtype.as_numpy_dtype_
        values, weights = _samplewise(_host(values), sample_weight, dtype)
        count = weights.sum(dtype=dtype) if weights is not None else (values.shape[0] if values.ndim else 1)
        self.total.assign_add(values.sum(dtype=dtype))
        self.count.assign_add(count)

    def result(self) -> Tensor:
        """``total / count`` (0 before any update).

        >>> import minitape as tf
        >>> tf.keras.metrics.Mean().result()
        <minitape.Tensor: shape=(), dtype=float32, numpy=0.0>
        """
        total, count = self.total.numpy(), self.count.numpy()
        return constant(total / count if count else np.zeros((), total.dtype))


class MeanMetricWrapper(Mean):
    """The mean over examples of ``fn(y_true, y_pred)``, one value per example (subclasses name their ``fn``).

    >>> import minitape as tf
    >>> error = tf.keras.metrics.MeanMetricWrapper(tf.keras.losses.mean_squared_error, name="mse")
    >>> error.update_state([[0.0], [0.0]], [[1.0], [3.0]])
    >>> float(error.result())
    5.0
    """

    fn: Callable | None = None

    def __init__(self, fn: Callable | None = None, name: str | None = None, dtype: Any = None,
                 **fn_kwargs: Any) -> None:
        self.fn, self.fn_kwargs = fn or type(self).fn, fn_kwargs
        name = name or getattr(self.fn, "__name__", None) or snake_case(type(self).__name__)
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        """Add one batch: ``fn`` of each example, weighted by ``sample_weight``.

        >>> import minitape as tf
        >>> accuracy = tf.keras.metrics.CategoricalAccuracy()
        >>> accuracy.update_state([[0, 1], [1, 0]], [[0.2, 0.8], [0.3, 0.7]], sample_weight=[1.0, 3.0])
        >>> float(accuracy.result())
        0.25
        """
        values, mask = self.fn(y_true, y_pred, **self.fn_kwargs), get_keras_mask(y_pred)
        if mask is not None:          # as Keras 3: a prediction's padding steps do not count
            sample_weight = mask_weights(mask, ops.as_operand(values), sample_weight)
        super().update_state(values, sample_weight)


class Sum(Metric):
    """The (weighted) sum of every value seen, kept in a float32 ``total``.

    >>> import minitape as tf
    >>> total = tf.keras.metrics.Sum()
    >>> total.update_state([1.0, 3.0, 5.0, 7.0]); float(total.result())
    16.0
    >>> total.update_state([[1.0, 2.0]], sample_weight=[2.0]); float(total.result())
    22.0
    """

    def __init__(self, name: str = "sum", dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable((), "zeros", dtype=self.dtype, name="total")

    def update_state(self, values: Any, sample_weight: Any = None) -> None:
        """Add ``values`` (each row summed, times its weight).

        >>> import minitape as tf
        >>> total = tf.keras.metrics.Sum()
        >>> total.update_state(2.0, sample_weight=3.0); float(total.result())
        6.0
        """
        dtype = self.total.dtype.as_numpy_dtype_
        self.total.assign_add(_samplewise(_host(values), sample_weight, dtype, np.sum)[0].sum(dtype=dtype))

    def result(self) -> Tensor:
        """The total so far.

        >>> import minitape as tf
        >>> tf.keras.metrics.Sum().result()
        <minitape.Tensor: shape=(), dtype=float32, numpy=0.0>
        """
        return constant(self.total.numpy())
