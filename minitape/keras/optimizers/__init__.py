"""Keras 3's optimisers, by family, and their learning-rate ``schedules``.

``optimizer`` holds the base class and the order of a step; ``sgd_family`` and
``adam_family`` hold the update rules; ``regularizing`` weight decay and the moving
average; ``schedules`` the learning-rate schedules.  ``get`` finds one by name.

>>> import minitape as tf
>>> w = tf.Variable(1.0)
>>> opt = tf.keras.optimizers.get("adamw")
>>> type(opt).__name__, opt.weight_decay
('AdamW', 0.004)
>>> tf.optimizers is tf.keras.optimizers
True
"""
from __future__ import annotations

from typing import Any

from minitape.keras.optimizers import schedules
from minitape.keras.optimizers.adam_family import Adafactor, Adam, Adamax, AdamW, Lion, Nadam
from minitape.keras.optimizers.optimizer import Optimizer
from minitape.keras.optimizers.sgd_family import SGD, Adadelta, Adagrad, Ftrl, RMSprop

_CLASSES = (SGD, RMSprop, Adagrad, Adadelta, Ftrl, Adam, AdamW, Adamax, Nadam, Lion, Adafactor)
#: Keras 3's names: each class's own, and its lower-case spelling (``"adamw"``, ``"rmsprop"``).
_BY_NAME: dict[str, type] = {**{cls.__name__: cls for cls in _CLASSES},
                             **{cls.__name__.lower(): cls for cls in _CLASSES}}


def serialize(optimizer: Optimizer) -> dict[str, Any]:
    """Keras' ``{"class_name", "config"}`` dict for an optimiser.

    >>> import minitape as tf
    >>> tf.keras.optimizers.serialize(tf.keras.optimizers.SGD(0.5))["class_name"]
    'SGD'
    """
    return {"module": "keras.optimizers", "class_name": type(optimizer).__name__,
            "config": optimizer.get_config(), "registered_name": None}


def deserialize(config: dict[str, Any]) -> Optimizer:
    """The optimiser ``serialize`` described.

    >>> import minitape as tf
    >>> opt = tf.keras.optimizers.deserialize(tf.keras.optimizers.serialize(tf.keras.optimizers.Nadam(0.5)))
    >>> type(opt).__name__, float(opt.learning_rate.numpy())
    ('Nadam', 0.5)
    """
    return get(config)


def get(identifier: Any) -> Optimizer:
    """An optimiser: a new one with Keras' defaults for a name (``"adam"``, ``"sgd"``, ``"adamw"``...), one made
    from a ``serialize`` dict, or the optimiser itself.

    >>> import minitape as tf
    >>> tf.keras.optimizers.get("nadam").learning_rate.numpy()
    np.float32(0.001)
    """
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, dict) and identifier.get("class_name") in _BY_NAME:
        return _BY_NAME[identifier["class_name"]].from_config(identifier.get("config", {}))
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")


__all__ = ["Optimizer", *(cls.__name__ for cls in _CLASSES), "get", "serialize", "deserialize", "schedules"]
