"""``get_config`` and ``from_config``: a layer as the arguments that rebuild it, as Keras 3 keeps them.

Keras 3 records the arguments each layer was made with (its "auto config"); ``get_config``
returns them with the layer's ``name``, ``trainable`` and ``dtype`` policy, and
``from_config(config)`` calls the class with them again.  An object argument (an
initializer, a regularizer, a layer inside a model) is written as Keras writes it,
``{"module", "class_name", "config", "registered_name"}``, and ``deserialize`` makes it
again; both are ``keras.saving``'s (``serialization``), which finds a class in minitape's Keras, the
registry or ``custom_objects``.

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
import inspect
from collections.abc import Callable
from typing import Any

from minitape.core import dtypes

_BASE = ("name", "trainable", "dtype")
_DROPPED_WHEN_NONE = ("input_shape", "activity_regularizer")         # Layer's own, absent from Keras' configs


def dtype_policy(dtype: Any) -> dict[str, Any]:
    """Keras 3's dtype policy dict for a layer's ``dtype`` argument (float32 when none was given).

    >>> from minitape.keras.layer_config import dtype_policy
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

    def __repr__(self) -> str:
        """The class, name and whether it is built, as Keras 3 shows a layer (or a model) in a list.

        >>> import minitape as tf
        >>> tf.keras.layers.Dense(2, name="hidden"), tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.ReLU()],
        ...                                                             name="stack")
        (<Dense name=hidden, built=False>, <Sequential name=stack, built=True>)
        """
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"

    def get_config(self) -> dict[str, Any]:
        """The arguments that rebuild this layer: ``name``, ``trainable``, ``dtype``, then those it was made with.

        >>> import minitape as tf
        >>> config = tf.keras.layers.Dense(2, name="d").get_config()
        >>> config["name"], config["trainable"], config["units"]
        ('d', True, 2)
        """
        made_with = getattr(self, "_init_arguments", {})
        if not type(self).__module__.startswith("minitape.") and not _plain(made_with):
            # Keras 3 writes its own layers' objects, but auto-configs only plain arguments of your classes.
            raise NotImplementedError(
                f"Object {type(self).__name__} was created by passing non-serializable argument values in "
                f"`__init__()`, and therefore the object must override `get_config()` in order to be "
                f"serializable. Please implement `get_config()`.")
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


def _plain(value: Any) -> bool:
    """Whether ``value`` is made of the types Keras 3 auto-configs: str, int, float, bool, None, nested."""
    if isinstance(value, list | tuple):
        return all(_plain(item) for item in value)
    if isinstance(value, dict):
        return all(_plain(item) for item in value.values())
    return value is None or isinstance(value, str | int | float | bool)


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


# keras.saving's serialize_keras_object and deserialize_keras_object: `serialization` sits above the layers
# (it makes and builds them), so it hands them down here when it is imported (by `minitape.keras`).
_CODEC: dict[str, Callable[..., Any]] = {}


def use_codec(serialize_keras_object: Callable[[Any], Any], deserialize_keras_object: Callable[..., Any]) -> None:
    """Make configs' objects with keras.saving's functions (``serialization`` calls this as it is imported).

    >>> from minitape.keras import layer_config, serialization
    >>> layer_config._CODEC["serialize"] is serialization.serialize_keras_object
    True
    """
    _CODEC.update(serialize=serialize_keras_object, deserialize=deserialize_keras_object)


def serialize(value: Any) -> Any:
    """``value`` as a config holds it (``keras.saving.serialize_keras_object``, see ``serialization``): plain data
    as it is, a named function by its name, an object as Keras' dict of its class and config.

    >>> import minitape as tf
    >>> from minitape.keras.layer_config import serialize
    >>> serialize(tf.keras.initializers.Constant(2.0))["class_name"], serialize(tf.nn.relu)
    ('Constant', 'relu')
    """
    return _CODEC["serialize"](value)


def deserialize(value: Any, custom_objects: dict[str, Any] | None = None) -> Any:
    """What ``serialize`` wrote, made again (``keras.saving.deserialize_keras_object``); a dtype policy becomes
    its dtype's name, and an object already made stays as it is.

    >>> import minitape as tf
    >>> from minitape.keras.layer_config import deserialize, serialize
    >>> deserialize(serialize(tf.keras.layers.ReLU(name="act"))).name
    'act'
    """
    if isinstance(value, dict) and value.get("class_name") == "DTypePolicy":
        return value["config"]["name"]
    if value is None or isinstance(value, str | int | float | bool | list | tuple | dict):
        return _CODEC["deserialize"](value, custom_objects)
    return value
