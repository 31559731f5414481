"""``get_config`` and ``from_config``: a layer as the arguments that rebuild it, as Keras 3 keeps them.

Keras 3 records the arguments each layer was made with (its "auto config"); ``get_config``
returns them with the layer's ``name``, ``trainable`` and ``dtype`` policy, and
``from_config(config)`` calls the class with them again.  An object argument (an
initializer, a regularizer, a layer inside a model) is written as Keras writes it,
``{"module", "class_name", "config", "registered_name"}``, and ``deserialize`` makes it
again, looking its class up in minitape's Keras (or in ``custom_objects``).

>>> import minitape as tf
>>> dense = tf.keras.layers.Dense(3, activation="relu", name="hidden")
>>> config = dense.get_config()
>>> config["units"], config["activation"], config["name"]
(3, 'relu', 'hidden')
>>> again = tf.keras.layers.Dense.from_config(config)
>>> again.units, again.name
(3, 'hidden')
"""
from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Callable
from typing import Any

from minitape.core import dtypes

_BASE = ("name", "trainable", "dtype")
_DROPPED_WHEN_NONE = ("input_shape", "activity_regularizer")         # Layer's own, absent from Keras' configs
_MODULES = ("minitape.keras.layers", "minitape.keras.models", "minitape.keras.initializers",
            "minitape.keras.regularizers", "minitape.keras.constraints", "minitape.keras.metrics")


def dtype_policy(dtype: Any) -> dict[str, Any]:
    """Keras 3's dtype policy dict for a layer's ``dtype`` argument (float32 when none was given).

    >>> from minitape.keras.serialization import dtype_policy
    >>> dtype_policy("int32")["config"]
    {'name': 'int32'}
    """
    name = "float32" if dtype is None else dtypes.as_dtype(dtype).name
    return {"module": "keras", "class_name": "DTypePolicy", "config": {"name": name}, "registered_name": None}


class Configurable:
    """What gives a layer its config: the arguments of its outermost ``__init__`` call, recorded.

    >>> import minitape as tf
    >>> tf.keras.layers.Dropout(0.25, name="drop").get_config()["rate"]
    0.25
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__init__" in cls.__dict__:
            cls.__init__ = _records_arguments(cls.__dict__["__init__"])

    def get_config(self) -> dict[str, Any]:
        """The arguments that rebuild this layer: ``name``, ``trainable``, ``dtype``, then those it was made with.

        >>> import minitape as tf
        >>> config = tf.keras.layers.Dense(2, name="d").get_config()
        >>> config["name"], config["trainable"], config["units"]
        ('d', True, 2)
        """
        made_with = getattr(self, "_init_arguments", {})
        config = {"name": self.name, "trainable": self.trainable, "dtype": dtype_policy(made_with.get("dtype"))}
        for key, value in made_with.items():
            if key in _BASE or (key in _DROPPED_WHEN_NONE and value is None):
                continue
            # as Keras: no activation is written as "linear"
            config[key] = "linear" if key.endswith("activation") and value is None else serialize(value)
        return config

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict[str, Any] | None = None) -> Any:
        """A layer made from ``get_config``'s dict (objects in it made again).

        >>> import minitape as tf
        >>> tf.keras.layers.Dropout.from_config({"rate": 0.5, "name": "again"}).rate
        0.5
        """
        arguments = {key: deserialize(value, custom_objects) for key, value in config.items()}
        return cls(**arguments)


def _records_arguments(init: Callable) -> Callable:
    """``__init__`` that keeps the arguments of the outermost call (a subclass's, not those it passes to its base)."""
    signature = inspect.signature(init)

    @functools.wraps(init)
    def init_and_record(self: Any, *args: Any, **kwargs: Any) -> None:
        if "_init_arguments" not in self.__dict__:
            bound = signature.bind(self, *args, **kwargs)
            bound.apply_defaults()                  # as Keras 3's config: every argument, defaults too
            arguments: dict[str, Any] = {}
            for name, value in list(bound.arguments.items())[1:]:
                kind = signature.parameters[name].kind
                if kind is inspect.Parameter.VAR_KEYWORD:
                    arguments.update(value)
                elif kind is not inspect.Parameter.VAR_POSITIONAL:
                    arguments[name] = value
            self.__dict__["_init_arguments"] = arguments
        init(self, *args, **kwargs)

    return init_and_record


def serialize(value: Any) -> Any:
    """``value`` as a config holds it: plain data as it is, a named function by its name, an object with
    ``get_config`` as Keras' dict of its class and config.

    >>> import minitape as tf
    >>> from minitape.keras.serialization import serialize
    >>> serialize(tf.keras.initializers.Constant(2.0))["class_name"], serialize(tf.nn.relu)
    ('Constant', 'relu')
    """
    if isinstance(value, list | tuple):
        return [serialize(item) for item in value]
    if isinstance(value, dict):
        return {key: serialize(item) for key, item in value.items()}
    if hasattr(value, "get_config"):
        return {"module": _public_module(type(value)), "class_name": type(value).__name__,
                "config": value.get_config(), "registered_name": None}
    if callable(value) and hasattr(value, "__name__") and not isinstance(value, type):
        return value.__name__
    return value


def deserialize(value: Any, custom_objects: dict[str, Any] | None = None) -> Any:
    """What ``serialize`` wrote, made again: a class-and-config dict becomes the object.

    >>> import minitape as tf
    >>> from minitape.keras.serialization import deserialize, serialize
    >>> deserialize(serialize(tf.keras.layers.ReLU(name="act"))).name
    'act'
    """
    if isinstance(value, list):
        return [deserialize(item, custom_objects) for item in value]
    if not isinstance(value, dict):
        return value
    if "class_name" not in value or "config" not in value:
        return {key: deserialize(item, custom_objects) for key, item in value.items()}
    if value["class_name"] == "DTypePolicy":
        return value["config"]["name"]
    cls = find_class(value["class_name"], custom_objects)
    config = value["config"]
    if not hasattr(cls, "from_config"):
        return cls(**config)
    return cls.from_config(config, custom_objects) if _takes_custom_objects(cls) else cls.from_config(config)


def find_class(name: str, custom_objects: dict[str, Any] | None = None) -> type:
    """The class a config names: from ``custom_objects``, else from minitape's Keras.

    >>> from minitape.keras.serialization import find_class
    >>> find_class("Dense").__name__
    'Dense'
    """
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    for module in _MODULES:
        found = getattr(importlib.import_module(module), name, None)
        if isinstance(found, type):
            return found
    raise TypeError(f"Could not locate class '{name}'. Make sure custom classes are decorated with "
                    f"`@keras.saving.register_keras_serializable()` or pass them in `custom_objects`: "
                    f"from_config(config, custom_objects={{'{name}': {name}}}).")


def _takes_custom_objects(cls: type) -> bool:
    return "custom_objects" in inspect.signature(cls.from_config).parameters


def _public_module(cls: type) -> str:
    """Keras' module name for a class of minitape's Keras (``keras.layers``...), else the class's own module."""
    parts = cls.__module__.split(".")
    if parts[:2] == ["minitape", "keras"] and len(parts) > 2:
        return "keras" if parts[2] == "models" else f"keras.{parts[2]}"
    return cls.__module__
