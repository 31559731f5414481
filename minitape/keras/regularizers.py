"""Regularizers: penalties on a layer's weights (or outputs) that training adds to the loss.

``Dense(4, kernel_regularizer=tf.keras.regularizers.L2(0.01))`` gives the layer a loss of
``0.01 * sum(kernel ** 2)``.  As in Keras 3, ``layer.losses`` computes the weight penalties
afresh each time it is read (so they follow the current weights and a tape can
differentiate them), and ``fit`` adds every loss in ``model.losses`` to the compiled one.

======================  ======================================================
``L1(l1=0.01)``         ``l1 * sum(|x|)``
``L2(l2=0.01)``         ``l2 * sum(x ** 2)``
``L1L2(l1=0, l2=0)``    both (``l1_l2``; zero unless given)
======================  ======================================================

>>> import minitape as tf
>>> tf.keras.regularizers.l2(0.1)(tf.constant([[1.0, -2.0], [3.0, 4.0]]))
<minitape.Tensor: shape=(), dtype=float32, numpy=3.0>
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minitape import ops
from minitape.core.tensor import Tensor, convert_to_tensor
from minitape.keras.naming import from_identifier


def _factor(value: Any, name: str) -> float:
    """A regularization factor: a non-negative float (None means the default, handled by the caller)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        raise ValueError(f"Invalid value for argument {name}: expected a non-negative float.Received: {name}={value}")
    return float(value)


def penalty(x: Any, l1: float = 0.0, l2: float = 0.0) -> Tensor:
    """The one formula behind ``L1``, ``L2`` and ``L1L2``: ``l1 * sum(|x|) + l2 * sum(x ** 2)``, in ``x``'s dtype,
    a zero factor's term left out.  (In Keras, as here, ``L1`` and ``L2`` are not ``L1L2`` subclasses.)

    >>> import minitape as tf
    >>> from minitape.keras.regularizers import penalty
    >>> penalty(tf.constant([1.0, -2.0]), l1=0.5).numpy(), penalty(tf.constant([1.0, -2.0]), l2=0.5).numpy()
    (np.float32(1.5), np.float32(2.5))
    """
    x = convert_to_tensor(x)
    total = ops.zeros((), x.dtype)
    if l1:
        total = total + ops.cast(l1, x.dtype) * ops.reduce_sum(ops.abs(x))
    if l2:
        total = total + ops.cast(l2, x.dtype) * ops.reduce_sum(ops.square(x))
    return total


class Regularizer:
    """The base class: ``regularizer(x)`` is a scalar penalty (0 for the base class itself).

    >>> import minitape as tf
    >>> class Sum(tf.keras.regularizers.Regularizer):
    ...     def __call__(self, x):
    ...         return tf.reduce_sum(x)
    >>> Sum()(tf.constant([1.0, 2.0])).numpy()
    np.float32(3.0)
    """

    def __call__(self, x: Tensor) -> Any:
        return 0.0

    def get_config(self) -> dict[str, float]:
        """The factors that make this regularizer again: ``type(r)(**r.get_config())``.

        >>> import minitape as tf
        >>> tf.keras.regularizers.L1L2(l1=0.1).get_config()
        {'l1': 0.1, 'l2': 0.0}
        """
        raise NotImplementedError(f"{self} does not implement get_config()")

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Regularizer:
        """The regularizer a ``get_config()`` describes.

        >>> import minitape as tf
        >>> tf.keras.regularizers.L2.from_config({"l2": 0.5}).l2
        0.5
        """
        return cls(**config)


class L1L2(Regularizer):
    """``l1 * sum(|x|) + l2 * sum(x ** 2)``; each factor 0 unless given (``l1_l2``).

    >>> import minitape as tf
    >>> tf.keras.regularizers.l1_l2(l1=0.1, l2=0.2)(tf.constant([1.0, -2.0])).numpy()
    np.float32(1.3)
    """

    def __init__(self, l1: float = 0.0, l2: float = 0.0) -> None:
        self.l1 = _factor(0.0 if l1 is None else l1, "l1")
        self.l2 = _factor(0.0 if l2 is None else l2, "l2")

    def __call__(self, x: Tensor) -> Tensor:
        return penalty(x, self.l1, self.l2)

    def get_config(self) -> dict[str, float]:
        """``{'l1': ..., 'l2': ...}``.

        >>> import minitape as tf
        >>> tf.keras.regularizers.L1L2().get_config()
        {'l1': 0.0, 'l2': 0.0}
        """
        return {"l1": self.l1, "l2": self.l2}


class L1(Regularizer):
    """``l1 * sum(|x|)``, 0.01 by default: pushes weights to exactly zero.

    >>> import minitape as tf
    >>> tf.keras.regularizers.l1(0.1)(tf.constant([[1.0, -2.0], [3.0, 4.0]])).numpy()
    np.float32(1.0)
    """

    def __init__(self, l1: float = 0.01) -> None:
        self.l1 = _factor(0.01 if l1 is None else l1, "l1")

    def __call__(self, x: Tensor) -> Tensor:
        return penalty(x, l1=self.l1)

    def get_config(self) -> dict[str, float]:
        """``{'l1': ...}``, the factor rounded to float32 (Keras 3 keeps L1's factor as a float32 tensor).

        >>> import minitape as tf
        >>> tf.keras.regularizers.L1(0.5).get_config(), tf.keras.regularizers.L1().get_config()
        ({'l1': 0.5}, {'l1': 0.009999999776482582})
        """
        return {"l1": float(np.float32(self.l1))}


class L2(Regularizer):
    """``l2 * sum(x ** 2)``, 0.01 by default (weight decay).

    >>> import minitape as tf
    >>> tf.keras.regularizers.L2()(tf.constant([3.0, 4.0])).numpy()
    np.float32(0.25)
    """

    def __init__(self, l2: float = 0.01) -> None:
        self.l2 = _factor(0.01 if l2 is None else l2, "l2")

    def __call__(self, x: Tensor) -> Tensor:
        return penalty(x, l2=self.l2)

    def get_config(self) -> dict[str, float]:
        """``{'l2': ...}``.

        >>> import minitape as tf
        >>> tf.keras.regularizers.L2(0.5).get_config()
        {'l2': 0.5}
        """
        return {"l2": self.l2}


# Keras 3's snake-case names are the classes themselves.
l1, l2, l1_l2 = L1, L2, L1L2

_BY_NAME: dict[str, type] = {"Regularizer": Regularizer, "L1": L1, "L2": L2, "L1L2": L1L2,
                             "regularizer": Regularizer, "l1": L1, "l2": L2, "l1l2": L1L2}


def get(identifier: Any) -> Callable | None:
    """The regularizer for ``identifier``: None, a name (``"l1"``, ``"L2"``, ``"l1l2"``), a config dict,
    a class (made with its defaults) or a callable (kept).

    >>> import minitape as tf
    >>> tf.keras.regularizers.get("l2").l2, tf.keras.regularizers.get({"class_name": "L1", "config": {"l1": 0.5}}).l1
    (0.01, 0.5)
    """
    return from_identifier(identifier, _BY_NAME, "Could not interpret regularizer identifier: {identifier}. Known "
                           "names: l1, l2, l1l2 (or L1, L2, L1L2); or pass a regularizer object or a callable.")

__all__ = ["L1", "L1L2", "L2", "Regularizer", "get", "l1", "l1_l2", "l2", "penalty"]
