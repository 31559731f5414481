"""Models: layers that hold other layers.  Subclass :class:`Model` and write ``call``,
or stack layers with :class:`Sequential`.

>>> import minitape as tf
>>> class TwoLayers(tf.keras.Model):
...     def __init__(self):
...         super().__init__()
...         self.hidden = tf.keras.layers.Dense(4, activation="tanh")
...         self.out = tf.keras.layers.Dense(1)
...     def call(self, x):
...         return self.out(self.hidden(x))
>>> model = TwoLayers()
>>> model(tf.ones((3, 2))).shape, len(model.trainable_variables)
(TensorShape([3, 1]), 4)
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from minitape.keras.layers import Layer


class Model(Layer):
    """A layer made of layers: assign sub-layers as attributes and write ``call``."""


class Sequential(Model):
    """Layers applied one after another.

    >>> import minitape as tf
    >>> model = tf.keras.Sequential([tf.keras.layers.Dense(2), tf.keras.layers.ReLU()])
    >>> len(model.layers)
    2
    """

    def __init__(self, layers: Iterable[Layer] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.layers: list[Layer] = []
        for layer in layers or []:
            self.add(layer)

    def add(self, layer: Layer) -> None:
        if not isinstance(layer, Layer):
            raise TypeError(f"Sequential takes Keras layers, got {type(layer).__name__}.")
        self.layers = self.layers + [layer]

    def call(self, inputs: Any, training: bool | None = None) -> Any:
        x = inputs
        for layer in self.layers:
            x = layer(x, training=training)
        return x
