"""``Loss``, the base of Keras' losses: one value per example from ``call``, then weighed and reduced.

A loss object is called as ``loss(y_true, y_pred, sample_weight=None)``.  Its ``call`` gives the
loss of each example; each is multiplied by its ``sample_weight`` (brought to the losses' rank
first), and the ``reduction`` makes one number of them, as Keras 3 does:

* ``"sum_over_batch_size"`` (the default) and ``"mean"``: the sum over *every* example, divided by
  how many there are (a weight of 0 still counts in the divisor);
* ``"mean_with_sample_weight"``: the sum divided by the sum of the weights;
* ``"sum"``: the sum; ``"none"`` or ``None``: the weighted losses themselves.

>>> import minitape as tf
>>> mse = tf.keras.losses.MeanSquaredError(reduction="none")
>>> mse([[0.0], [0.0]], [[1.0], [3.0]]).numpy()
array([1., 9.], dtype=float32)
>>> tf.keras.losses.MeanSquaredError()([[0.0], [0.0]], [[1.0], [3.0]], sample_weight=[1.0, 0.0]).numpy()
np.float32(0.5)
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minitape import ops
from minitape.core import dtypes
from minitape.core.tensor import Tensor, constant
from minitape.keras.masking import get_keras_mask, mask_weights
from minitape.keras.naming import unique_name

EPSILON = 1e-7          # Keras' backend.epsilon(): the clip before each log
REDUCTIONS = ("sum_over_batch_size", "sum", None, "none", "mean", "mean_with_sample_weight")


def same_rank(x1: Any, x2: Any, expand_rank_1: bool = True) -> tuple[Any, Any]:
    """Keras' ``squeeze_or_expand_to_same_rank``: when the ranks are one apart and the longer one ends in an axis
    of 1, that axis is dropped (or, with ``expand_rank_1``, one is added to a vector instead).  For tensors and
    NumPy arrays alike.

    >>> import numpy as np
    >>> from minitape.keras.losses import same_rank
    >>> [x.shape for x in same_rank(np.zeros((3, 1)), np.zeros(3))]
    [(3, 1), (3, 1)]
    >>> [x.shape for x in same_rank(np.zeros((3, 1)), np.zeros(3), expand_rank_1=False)]
    [(3,), (3,)]
    """
    if x1.ndim == x2.ndim + 1 and x1.shape[-1] == 1:
        return (x1, x2[..., None]) if x2.ndim == 1 and expand_rank_1 else (x1[..., 0], x2)
    if x2.ndim == x1.ndim + 1 and x2.shape[-1] == 1:
        return (x1[..., None], x2) if x1.ndim == 1 and expand_rank_1 else (x1, x2[..., 0])
    return x1, x2


def check_reduction(reduction: str | None) -> str | None:
    """``reduction`` if Keras knows it, else Keras' ValueError.

    >>> from minitape.keras.loss import check_reduction
    >>> check_reduction("average")
    Traceback (most recent call last):
    ...
    ValueError: Invalid value for argument `reduction`. Expected one of ('sum_over_batch_size', 'sum', None, 'none', 'mean', 'mean_with_sample_weight'). Received: reduction=average
    """
    if reduction not in REDUCTIONS:
        raise ValueError(f"Invalid value for argument `reduction`. Expected one of {REDUCTIONS}. "
                         f"Received: reduction={reduction}")
    return reduction


def reduce_weighted(values: Tensor, sample_weight: Any = None, reduction: str | None = "sum_over_batch_size",
                    mask: Tensor | None = None) -> Tensor:
    """Keras 3's ``reduce_weighted_values``: the losses times their weights, reduced.  A ``mask`` (0 for entries
    to leave out) is folded into the weights so that the mean is over the entries kept.

    >>> import minitape as tf
    >>> from minitape.keras.loss import reduce_weighted
    >>> reduce_weighted(tf.constant([1.0, 3.0]), [2.0, 1.0], "sum").numpy()
    np.float32(5.0)
    """
    if mask is not None:
        mask = ops.cast(mask, values.dtype)
        if reduction in ("mean", "sum_over_batch_size"):          # kept entries count total/valid each
            valid = ops.reduce_sum(mask)
            mask = mask * ops.where(valid > 0, float(mask.shape.num_elements()) / ops.maximum(valid, 1.0), 0.0)
        if sample_weight is not None:
            mask, weight = same_rank(mask, ops.cast(sample_weight, values.dtype))
            mask = mask * weight
        sample_weight = mask
    if sample_weight is not None:
        values, sample_weight = same_rank(values, ops.cast(sample_weight, values.dtype))
        values = values * sample_weight
    if reduction in (None, "none") or values.shape.rank == 0 or tuple(values.shape) == (0,):
        return values
    total = ops.reduce_sum(values)
    if reduction == "sum":
        return total
    divisor = (ops.reduce_sum(ops.broadcast_to(sample_weight, values.shape))
               if reduction == "mean_with_sample_weight" and sample_weight is not None
               else constant(float(values.shape.num_elements()), values.dtype))
    return ops.where(divisor != 0, total / ops.where(divisor != 0, divisor, 1.0), 0.0)     # divide_no_nan


class Loss:
    """A loss object: ``loss(y_true, y_pred, sample_weight=None)`` gives ``call``'s per-example losses, weighed and
    reduced (see the module).  Subclasses write ``call``; ``name`` defaults to the class's, in snake case.

    >>> import minitape as tf
    >>> class MeanAbsoluteError(tf.keras.losses.Loss):
    ...     def call(self, y_true, y_pred):
    ...         return tf.reduce_mean(tf.abs(y_pred - y_true), axis=-1)   # tensors here, as in Keras
    >>> MeanAbsoluteError()([[0.0, 1.0], [1.0, 1.0]], [[1.0, 1.0], [1.0, 3.0]]).numpy()
    np.float32(0.75)
    >>> MeanAbsoluteError(name="mae", reduction="sum").get_config()
    {'name': 'mae', 'reduction': 'sum'}
    """

    def __init__(self, name: str | None = None, reduction: str | None = "sum_over_batch_size",
                 dtype: Any = None) -> None:
        self.name = name or unique_name(type(self))
        self.reduction = check_reduction(reduction)
        self.dtype = dtypes.as_dtype(dtype or "float32").name

    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Tensor:
        # As Keras: lists and arrays arrive at ``call`` as tensors of the loss's dtype.
        padding = get_keras_mask(y_pred)          # a sequence model's padding steps (see minitape.keras.masking)
        y_pred = ops.cast(ops.as_operand(y_pred), self.dtype)
        y_true = ops.cast(ops.as_operand(y_true), self.dtype)
        losses = self.call(y_true, y_pred)
        mask = self.mask(y_true, y_pred)
        if padding is not None:
            padding = mask_weights(padding, losses)
            mask = padding if mask is None else ops.cast(mask, losses.dtype) * padding
        return reduce_weighted(losses, sample_weight, self.reduction, mask)

    def call(self, y_true: Any, y_pred: Any) -> Tensor:
        """The loss of each example: what subclasses write.

        >>> import minitape as tf
        >>> tf.keras.losses.Loss().call([1.0], [0.0])
        Traceback (most recent call last):
        ...
        NotImplementedError
        """
        raise NotImplementedError

    def mask(self, y_true: Tensor, y_pred: Tensor) -> Tensor | None:
        """Which losses count (1) and which are left out (0), or None for all: Keras' mask on the losses.

        >>> import minitape as tf
        >>> tf.keras.losses.MeanSquaredError().mask(tf.ones(2), tf.ones(2)) is None
        True
        """
        return None

    def get_config(self) -> dict[str, Any]:
        """The name and reduction: what ``from_config`` needs to make the loss again.

        >>> import minitape as tf
        >>> tf.keras.losses.Huber(delta=2.0).get_config()         # Keras 3 leaves ``delta`` out
        {'name': 'huber_loss', 'reduction': 'sum_over_batch_size'}
        """
        return {"name": self.name, "reduction": self.reduction}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Loss:
        """The loss ``get_config`` describes.

        >>> import minitape as tf
        >>> tf.keras.losses.BinaryCrossentropy.from_config({"from_logits": True}).from_logits
        True
        """
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A function of ``(y_true, y_pred)`` giving one loss per example, as a loss object (``compile`` makes these
    of functions and names; the built-in losses are these too).  The labels are brought to the predictions'
    rank first (``same_rank``); ``fn_kwargs`` go to ``fn``.

    >>> import minitape as tf
    >>> loss = tf.keras.losses.LossFunctionWrapper(tf.keras.losses.mean_squared_error)
    >>> loss([[0.0], [0.0]], [[1.0], [3.0]]).numpy()
    np.float32(5.0)
    """

    def __init__(self, fn: Callable, reduction: str | None = "sum_over_batch_size", name: str | None = None,
                 dtype: Any = None, **fn_kwargs: Any) -> None:
        super().__init__(name=name or getattr(fn, "__name__", None), reduction=reduction, dtype=dtype)
        self.fn, self.fn_kwargs = fn, fn_kwargs
        for key, value in fn_kwargs.items():          # as Keras: ``BinaryCrossentropy().from_logits``...
            setattr(self, key, value)

    def call(self, y_true: Any, y_pred: Any) -> Tensor:
        """``fn(y_true, y_pred, **fn_kwargs)``, the labels at the predictions' rank.

        >>> import minitape as tf
        >>> tf.keras.losses.LossFunctionWrapper(tf.keras.losses.mean_squared_error).call([0.0], [[2.0]]).numpy()
        array([4.], dtype=float32)
        """
        y_true, y_pred = same_rank(ops.as_operand(y_true), ops.as_operand(y_pred))
        return self.fn(y_true, y_pred, **self.fn_kwargs)

    configured: tuple[str, ...] | None = None        # the options a built-in loss's config lists (Keras' choice)

    def get_config(self) -> dict[str, Any]:
        """Name and reduction, then the function's options (those in ``configured`` for a built-in loss).

        >>> import minitape as tf
        >>> tf.keras.losses.CategoricalCrossentropy(label_smoothing=0.1).get_config()["label_smoothing"]
        0.1
        """
        if type(self) is LossFunctionWrapper:
            return {**super().get_config(), "fn": getattr(self.fn, "__name__", repr(self.fn)), **self.fn_kwargs}
        return {**super().get_config(), **{key: self.fn_kwargs[key] for key in self.configured or ()}}

    def __repr__(self) -> str:
        return f"<LossFunctionWrapper({getattr(self.fn, '__name__', self.fn)}, kwargs={self.fn_kwargs})>"
