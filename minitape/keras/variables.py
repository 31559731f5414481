"""Keras 3's variables: ``name`` is the weight's own name, ``path`` says which layer holds it.

A layer's ``add_weight(name="kernel")`` makes a variable named ``kernel`` whose path is
the names of the layers being called around its creation, then its own: a Dense layer
built inside a model's call gets ``model/dense/kernel``.  It prints as Keras 3 prints it.
It is a minitape ``Variable`` like any other (TF 2.21's Keras variable wraps a
``tf.Variable`` instead), so tapes watch it and ``recompute_grad`` finds it.

>>> import minitape as tf
>>> layer = tf.keras.layers.Dense(2, kernel_initializer="ones", name="my_dense_layer")
>>> layer.build((None, 1))
>>> layer.kernel.name, layer.kernel.path
('kernel', 'my_dense_layer/kernel')
>>> print(layer.kernel)
<Variable path=my_dense_layer/kernel, shape=(1, 2), dtype=float32, value=[[1. 1.]]>
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minitape.core.tensor import Tensor, Variable


class KerasVariable(Variable):
    """A layer's weight: a ``Variable`` with Keras' ``name``, ``path``, ``regularizer`` and ``constraint`` (which
    optimisers apply after each step; see ``constraints``).

    >>> from minitape.keras.variables import KerasVariable
    >>> v = KerasVariable([1.0, 2.0], name="scale", path="block/scale")
    >>> v
    <Variable path=block/scale, shape=(2,), dtype=float32, value=[1. 2.]>
    >>> v.name, v.trainable, v.regularizer is None, v.constraint is None
    ('scale', True, True, True)
    """

    __slots__ = ("path", "regularizer", "constraint")

    def __init__(self, initial_value: Any, trainable: bool = True, name: str = "variable", path: str | None = None,
                 regularizer: Callable | None = None, constraint: Callable | None = None) -> None:
        super().__init__(initial_value, trainable=trainable)
        self.name, self.path, self.regularizer, self.constraint = name, path or name, regularizer, constraint

    @property
    def value(self) -> Tensor:
        """The current value as a tensor: in Keras 3 ``value`` is a property, not a method.

        >>> from minitape.keras.variables import KerasVariable
        >>> KerasVariable(2.0, name="scale").value
        <minitape.Tensor: shape=(), dtype=float32, numpy=2.0>
        """
        return self.read_value()

    def __repr__(self) -> str:
        return f"<Variable path={self.path}, shape={tuple(self.shape)}, dtype={self.dtype.name}, value={self.numpy()}>"
