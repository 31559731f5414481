"""Models: layers that hold other layers.  Subclass [`Model`][minitape.keras.Model] and write ``call``,
or stack layers with [`Sequential`][minitape.keras.Sequential].

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
    """A layer made of layers: assign sub-layers as attributes and write ``call``.

    >>> import minitape as tf
    >>> class Residual(tf.keras.Model):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.inner = tf.keras.layers.Dense(2)
    ...     def call(self, x):
    ...         return x + self.inner(x)
    >>> model = Residual()
    >>> model(tf.ones((1, 2))).shape, len(model.variables)
    (TensorShape([1, 2]), 2)
    """


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
        """Put ``layer`` at the end of the stack.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential()
        >>> model.add(tf.keras.layers.Dense(2))
        >>> model.add(tf.keras.layers.ReLU())
        >>> [type(layer).__name__ for layer in model.layers]
        ['Dense', 'ReLU']
        """
        if not isinstance(layer, Layer):
            raise ValueError(f"Only instances of `keras.Layer` can be added to a Sequential model. Received: "
                             f"{layer!r} (of type {type(layer)}).")
        self.layers = self.layers + [layer]

    def call(self, inputs: Any, training: bool | None = None) -> Any:
        """Each layer applied in turn, passing ``training`` on to the layers that take it.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Lambda(lambda x: x + 1.0), tf.keras.layers.Dropout(0.5)])
        >>> model.call(tf.constant([1.0, 2.0]), training=False).numpy()
        array([2., 3.], dtype=float32)
        """
        x = inputs
        for layer in self.layers:
            x = layer(x, training=training)
        return x
