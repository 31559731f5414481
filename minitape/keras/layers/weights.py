"""What a layer says about its weights: ``variables`` (its own and its sub-layers'), the trainable and
non-trainable ones, how many numbers they hold, and ``get_weights`` / ``set_weights`` to copy them as NumPy.

Freezing is Keras 3's: ``layer.trainable = False`` sets ``trainable`` on every sub-layer too, and
marks each weight the layers made trainable as not trainable (setting it back marks them again);
a frozen layer lists all its weights as non-trainable, so ``fit`` leaves them alone.

>>> import minitape as tf
>>> dense = tf.keras.layers.Dense(2, kernel_initializer="ones")
>>> dense.build((None, 3))
>>> [w.shape for w in dense.get_weights()], dense.count_params()
([(3, 2), (2,)], 8)
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from minitape.core.tensor import Variable


class WeightHolder:
    """The weight-reading half of ``Layer`` (``Layer`` inherits it; it needs the layer's ``_walk``).

    >>> import minitape as tf
    >>> from minitape.keras.layers.weights import WeightHolder
    >>> issubclass(tf.keras.layers.Layer, WeightHolder)
    True
    """

    @property
    def trainable(self) -> bool:
        """Whether training updates this layer's weights.  Setting it sets it for every sub-layer and marks each
        weight made with ``trainable=True`` (``v.trainable``) as it; weights made non-trainable stay so.

        >>> import minitape as tf
        >>> bn = tf.keras.layers.BatchNormalization()
        >>> bn.build((None, 2))
        >>> bn.trainable = False
        >>> len(bn.trainable_weights), [v.trainable for v in bn.weights]
        (0, [False, False, False, False])
        >>> bn.trainable = True
        >>> [v.name for v in bn.trainable_weights]
        ['gamma', 'beta']
        """
        return self._trainable

    @trainable.setter
    def trainable(self, value: bool) -> None:
        self._trainable = bool(value)
        for v in self._made_trainable:
            v.trainable = self._trainable
        for layer in self._layers:
            layer.trainable = self._trainable

    def count_params(self) -> int:
        """How many numbers the layer's variables hold, sub-layers' included.

        >>> import minitape as tf
        >>> layer = tf.keras.layers.Dense(3)
        >>> layer.build((None, 4))
        >>> layer.count_params()                # a 4 x 3 kernel and 3 biases
        15
        """
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on layer '{self.name}', but the layer isn't built. "
                             f"You can build it manually via: `{self.name}.build(input_shape)`.")
        return sum(math.prod(v.shape) for v in self.variables)

    @property
    def variables(self) -> list[Variable]:
        """All variables of this layer and its sub-layers, each once.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, name="a"), tf.keras.layers.Dense(1, name="b")],
        ...                             name="model")
        >>> _ = model(tf.ones((1, 3)))
        >>> [v.path for v in model.variables]
        ['model/a/kernel', 'model/a/bias', 'model/b/kernel', 'model/b/bias']
        """
        seen: dict[int, Variable] = {}
        for layer in self._walk():
            for v in layer._weights:
                seen.setdefault(id(v), v)
        return list(seen.values())

    weights = variables

    @property
    def trainable_variables(self) -> list[Variable]:
        """The variables that training updates: those marked trainable, none if the layer is frozen.

        >>> import minitape as tf
        >>> dense = tf.keras.layers.Dense(2, name="d")
        >>> _ = dense(tf.ones((1, 3)))
        >>> [tuple(v.shape) for v in dense.trainable_variables]
        [(3, 2), (2,)]
        """
        return [v for v in self.variables if v.trainable] if self.trainable else []

    trainable_weights = trainable_variables

    @property
    def non_trainable_variables(self) -> list[Variable]:
        """The variables that training leaves alone: those marked non-trainable, all of them if the layer is frozen.

        >>> import minitape as tf
        >>> layer = tf.keras.layers.Layer(name="counter")
        >>> _ = layer.add_weight(name="w"), layer.add_weight(name="count", trainable=False)
        >>> [v.name for v in layer.non_trainable_variables]
        ['count']
        """
        return [v for v in self.variables if not v.trainable] if self.trainable else self.variables

    non_trainable_weights = non_trainable_variables

    def get_weights(self) -> list[np.ndarray]:
        """The values of ``weights``, in the same order, as NumPy arrays (copies); empty before the layer is built.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, kernel_initializer="ones")])
        >>> model.get_weights()
        []
        >>> _ = model(tf.ones((1, 1)))
        >>> model.get_weights()
        [array([[1., 1.]], dtype=float32), array([0., 0.], dtype=float32)]
        """
        return [np.array(v.numpy()) for v in self.weights]

    def set_weights(self, weights: Sequence[Any]) -> None:
        """Assign ``weights`` (arrays, one per weight, in ``get_weights``' order), each cast to its weight's dtype.

        A list of the wrong length, or an array of the wrong shape, is Keras' ValueError.

        >>> import minitape as tf
        >>> dense = tf.keras.layers.Dense(1)
        >>> dense.build((None, 2))
        >>> dense.set_weights([np.array([[1], [2]]), np.array([0.5])])
        >>> dense(tf.constant([[1.0, 1.0]])).numpy()
        array([[3.5]], dtype=float32)
        """
        variables = self.weights
        if len(variables) != len(weights):
            raise ValueError(f"You called `set_weights(weights)` on layer '{self.name}' with a weight list of length "
                             f"{len(weights)}, but the layer was expecting {len(variables)} weights.")
        values = [np.asarray(value) for value in weights]
        for variable, value in zip(variables, values):
            if tuple(variable.shape) != value.shape:
                raise ValueError(f"Layer {self.name} weight shape {tuple(variable.shape)} is not compatible with "
                                 f"provided weight shape {value.shape}.")
        for variable, value in zip(variables, values):
            variable.assign(value.astype(variable.dtype.as_numpy_dtype_))
