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

from collections.abc import Callable, Iterable
from typing import Any

from minitape.core.tensor import constant
from minitape.keras.layers import Layer
from minitape.keras.summary import print_summary
from minitape.keras.trainer import Trainer


class Model(Trainer, Layer):
    """A layer made of layers: assign sub-layers as attributes and write ``call``; train it with
    ``compile`` and ``fit`` (see ``trainer``), or with your own loop.

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

    @property
    def layers(self) -> list[Layer]:
        """The layers this model holds directly, in the order they were attached.

        >>> import minitape as tf
        >>> class Two(tf.keras.Model):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.first, self.second = tf.keras.layers.Dense(2), tf.keras.layers.ReLU()
        >>> [type(layer).__name__ for layer in Two().layers]
        ['Dense', 'ReLU']
        """
        return list(self._layers)

    def summary(self, print_fn: Callable[[str], Any] | None = None) -> None:
        """Print Keras 3's table: each layer, its output shape, its parameter count; then the totals.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Conv2D(4, 3, name="conv")], name="net")
        >>> _ = model(tf.ones((1, 8, 8, 1)))
        >>> model.summary()
        Model: "net"
        ...
        │ conv (Conv2D)                        │ (None, 6, 6, 4)             │              40 │
        ...
         Total params: 40 (160.00 B)
        ...
        """
        print_summary(self, print_fn)


class Sequential(Model):
    """Layers applied one after another.

    >>> import minitape as tf
    >>> model = tf.keras.Sequential([tf.keras.layers.Dense(2), tf.keras.layers.ReLU()])
    >>> len(model.layers)
    2
    """

    def __init__(self, layers: Iterable[Layer] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
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
        self._layers.append(layer)
        first = self._layers[0].input_shape_hint
        if first is not None:           # the input shape is known: build now, as Keras does (summary shows shapes)
            self(constant(0.0, shape=(1, *first)))

    def call(self, inputs: Any, training: bool | None = None) -> Any:
        """Each layer applied in turn, passing ``training`` on to the layers that take it.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Lambda(lambda x: x + 1.0), tf.keras.layers.Dropout(0.5)])
        >>> model.call(tf.constant([1.0, 2.0]), training=False).numpy()
        array([2., 3.], dtype=float32)
        """
        x = inputs
        for layer in self.layers:
            x = layer(x) if training is None else layer(x, training=training)
        return x
