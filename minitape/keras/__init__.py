"""A small Keras: layers and models whose variables tapes and checkpoints can see.

>>> import minitape as tf
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="relu", name="hidden"),
...                              tf.keras.layers.Dense(1, name="out")])
>>> model(tf.ones((2, 4))).shape
TensorShape([2, 1])
>>> [v.name for v in model.variables]
['kernel', 'bias', 'kernel', 'bias']
"""
from minitape.keras import (activations, callbacks, constraints, initializers, layers, losses, metrics, optimizers,
                            regularizers, trainer, utils)
from minitape.keras import ops  # noqa: E402
from minitape.keras import backend, config, random  # noqa: E402
from minitape.keras import saving  # noqa: E402
from minitape.keras import preprocessing  # noqa: E402
from minitape.keras.layers import Input
from minitape.keras.layers import Layer  # Keras 3's top-level alias: `class Dense(keras.Layer)`
from minitape.keras.models import Model, Sequential
from minitape.keras.variables import KerasVariable as Variable

__all__ = ["Input", "Model", "Sequential", "Variable", "activations", "callbacks", "constraints", "initializers",
           "layers", "losses", "metrics", "optimizers", "regularizers", "trainer", "utils"]
__all__ += ["ops", "backend", "config", "random"]
__all__ += ["saving"]
__all__ += ["Layer"]
