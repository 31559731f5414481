"""Constraints: functions a weight is projected through after each optimiser step, as Keras 3 applies them.

A layer given ``kernel_constraint`` (or ``bias_constraint``) hands it to its weight; after
``apply_gradients`` has updated the weights, the optimiser assigns ``constraint(weight)``
to each weight that has one.  A constraint is any callable from a tensor to a tensor of
the same shape: one of the classes here (by object or by name), or a function of yours.

>>> import minitape as tf
>>> layer = tf.keras.layers.Dense(1, kernel_initializer="ones", kernel_constraint="non_neg")
>>> layer.build((None, 2))
>>> _ = tf.keras.optimizers.SGD(learning_rate=1.0).apply_gradients([(tf.constant([[3.0], [-1.0]]), layer.kernel)])
>>> layer.kernel.numpy()                     # 1 - 3 = -2 is projected back to 0
array([[0.],
       [2.]], dtype=float32)
"""
from __future__ import annotations

from typing import Any

from minitape import ops
from minitape.keras.naming import from_identifier

EPSILON = 1e-7          # Keras' backend.epsilon(), added to the norms it divides by


class Constraint:
    """The base class: ``__call__(w)`` returns the projected weight (the base class returns ``w``).

    >>> import minitape as tf
    >>> class Clip(tf.keras.constraints.Constraint):
    ...     def __call__(self, w):
    ...         return tf.clip_by_value(w, -1.0, 1.0)
    >>> Clip()(tf.constant([-3.0, 0.5])).numpy()
    array([-1. ,  0.5], dtype=float32)
    """

    def __call__(self, w: Any) -> Any:
        return w

    def get_config(self) -> dict[str, Any]:
        """The arguments that rebuild this constraint.

        >>> import minitape as tf
        >>> tf.keras.constraints.MaxNorm(3.0).get_config()
        {'max_value': 3.0, 'axis': 0}
        """
        return {}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Constraint:
        """A constraint made from ``get_config``'s dict.

        >>> import minitape as tf
        >>> tf.keras.constraints.UnitNorm.from_config({"axis": 1}).axis
        1
        """
        return cls(**config)


def _norms(w: Any, axis: Any) -> Any:
    """The Euclidean norm of ``w`` along ``axis``, its axes kept (so it divides ``w``)."""
    return ops.sqrt(ops.reduce_sum(ops.square(w), axis=axis, keepdims=True))


class MaxNorm(Constraint):
    """Rescale each slice along ``axis`` (each unit's incoming weights, for a Dense kernel) whose norm is over
    ``max_value`` down to that norm: ``w · clip(norm, 0, max_value) / (ε + norm)``.

    >>> import minitape as tf
    >>> tf.keras.constraints.MaxNorm(max_value=1.0)(tf.constant([[3.0], [4.0]])).numpy()
    array([[0.6],
           [0.8]], dtype=float32)
    """

    def __init__(self, max_value: float = 2, axis: Any = 0) -> None:
        self.max_value, self.axis = max_value, axis

    def __call__(self, w: Any) -> Any:
        norms = _norms(w, self.axis)
        return w * (ops.clip_by_value(norms, 0.0, self.max_value) / (EPSILON + norms))

    def get_config(self) -> dict[str, Any]:
        """``max_value`` and ``axis``.

        >>> import minitape as tf
        >>> tf.keras.constraints.MaxNorm().get_config()
        {'max_value': 2, 'axis': 0}
        """
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg(Constraint):
    """Negative weights become zero: ``maximum(w, 0)``.

    >>> import minitape as tf
    >>> tf.keras.constraints.NonNeg()(tf.constant([-1.0, 2.0])).numpy()
    array([0., 2.], dtype=float32)
    """

    def __call__(self, w: Any) -> Any:
        w = ops.as_operand(w)
        return ops.maximum(w, ops.zeros_like(w))


class UnitNorm(Constraint):
    """Each slice along ``axis`` scaled to norm 1: ``w / (ε + norm)``.

    >>> import minitape as tf
    >>> tf.keras.constraints.UnitNorm()(tf.constant([[3.0], [4.0]])).numpy()
    array([[0.6],
           [0.8]], dtype=float32)
    """

    def __init__(self, axis: Any = 0) -> None:
        self.axis = axis

    def __call__(self, w: Any) -> Any:
        return w / (EPSILON + _norms(w, self.axis))

    def get_config(self) -> dict[str, Any]:
        """``axis``.

        >>> import minitape as tf
        >>> tf.keras.constraints.UnitNorm(axis=1).get_config()
        {'axis': 1}
        """
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    """Each slice's norm moved into ``[min_value, max_value]``, ``rate`` of the way (1: all the way)::

        desired = rate · clip(norm, min_value, max_value) + (1 − rate) · norm;   w · desired / (ε + norm)

    >>> import minitape as tf
    >>> tf.keras.constraints.MinMaxNorm(0.5, 1.5, rate=0.5)(tf.constant([[3.0], [0.0]])).numpy()
    array([[2.25],
           [0.  ]], dtype=float32)
    """

    def __init__(self, min_value: float = 0.0, max_value: float = 1.0, rate: float = 1.0, axis: Any = 0) -> None:
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w: Any) -> Any:
        norms = _norms(w, self.axis)
        desired = self.rate * ops.clip_by_value(norms, self.min_value, self.max_value) + (1 - self.rate) * norms
        return w * (desired / (EPSILON + norms))

    def get_config(self) -> dict[str, Any]:
        """``min_value``, ``max_value``, ``rate`` and ``axis``.

        >>> import minitape as tf
        >>> tf.keras.constraints.MinMaxNorm().get_config()
        {'min_value': 0.0, 'max_value': 1.0, 'rate': 1.0, 'axis': 0}
        """
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate, "axis": self.axis}


# Keras 3's lower-case names are the same classes.
max_norm, non_neg, unit_norm, min_max_norm = MaxNorm, NonNeg, UnitNorm, MinMaxNorm

_BY_NAME = {"max_norm": MaxNorm, "non_neg": NonNeg, "unit_norm": UnitNorm, "min_max_norm": MinMaxNorm,
            "MaxNorm": MaxNorm, "NonNeg": NonNeg, "UnitNorm": UnitNorm, "MinMaxNorm": MinMaxNorm}


def get(identifier: Any) -> Any:
    """The constraint for ``identifier``: None, a name (``"max_norm"``, ``"NonNeg"``...), a config dict, a class
    (made with its defaults) or a callable (kept).

    >>> import minitape as tf
    >>> type(tf.keras.constraints.get("non_neg")).__name__, tf.keras.constraints.get(None)
    ('NonNeg', None)
    >>> tf.keras.constraints.get("nonneg")
    Traceback (most recent call last):
    ...
    ValueError: Could not interpret constraint identifier: nonneg; known names: max_norm, min_max_norm, non_neg, unit_norm (or MaxNorm, MinMaxNorm, NonNeg, UnitNorm); or pass a constraint object or a callable.
    """
    return from_identifier(identifier, _BY_NAME, "Could not interpret constraint identifier: {identifier}; known "
                           "names: max_norm, min_max_norm, non_neg, unit_norm (or MaxNorm, MinMaxNorm, NonNeg, "
                           "UnitNorm); or pass a constraint object or a callable.")

__all__ = ["Constraint", "MaxNorm", "MinMaxNorm", "NonNeg", "UnitNorm", "get", "max_norm", "min_max_norm", "non_neg",
           "unit_norm"]
