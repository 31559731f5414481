"""``keras.saving``'s object configs: any Keras object as a JSON-ready dict, and back.

Keras 3 describes an object as ``{"module", "class_name", "config", "registered_name"}`` (plus
``build_config`` and ``compile_config`` for layers and models): ``config`` is what the object's
``get_config()`` returns, and ``from_config(config)`` makes it again.  Built-in classes are found by
their public module (``keras.layers``, ``keras.optimizers``...); your own classes by the name you
register them under with ``register_keras_serializable`` (``"package>Name"``), or by a
``custom_objects`` dict given when loading.

>>> import minitape as tf
>>> @tf.keras.saving.register_keras_serializable(package="demo")
... class Halve(tf.keras.layers.Layer):
...     def call(self, x):
...         return x / 2
...     def get_config(self):
...         return {"name": self.name}
>>> config = tf.keras.saving.serialize_keras_object(Halve(name="h"))
>>> config["registered_name"], config["config"]
('demo>Halve', {'name': 'h'})
>>> tf.keras.saving.deserialize_keras_object(config).name
'h'
"""
from __future__ import annotations

import importlib
import inspect
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from minitape.keras import activations
from minitape.keras.keras_tensor import KerasTensor

_GLOBAL_CUSTOM_OBJECTS: dict[str, Any] = {}
_GLOBAL_CUSTOM_NAMES: dict[Any, str] = {}
_PLAIN = (str, int, float, bool)
# minitape's Keras packages under their Keras 3 public names, for the ``module`` of a config.
_PUBLIC = {"layers": "keras.layers", "optimizers": "keras.optimizers", "initializers": "keras.initializers",
           "losses": "keras.losses", "metrics": "keras.metrics", "metric": "keras.metrics",
           "confusion_metrics": "keras.metrics", "regularizers": "keras.regularizers",
           "constraints": "keras.constraints", "activations": "keras.activations", "models": "keras"}
_NAMESPACES = ("layers", "optimizers", "optimizers.schedules", "initializers", "losses", "metrics", "regularizers",
               "constraints", "activations", "models")


class _Scope(threading.local):
    stack: list[dict[str, Any]] = []


_scope = _Scope()


class CustomObjectScope:
    """``with keras.saving.custom_object_scope({"Name": cls}):``: names loading may resolve inside the block.

    >>> import minitape as tf
    >>> with tf.keras.saving.custom_object_scope({"my_fn": len}):
    ...     tf.keras.saving.get_registered_object("my_fn") is len
    True
    """

    def __init__(self, custom_objects: dict[str, Any] | None = None) -> None:
        self.custom_objects = dict(custom_objects or {})

    def __enter__(self) -> CustomObjectScope:
        _scope.stack = [*_scope.stack, self.custom_objects]
        return self

    def __exit__(self, *exc: Any) -> None:
        _scope.stack = _scope.stack[:-1]


custom_object_scope = CustomObjectScope


def register_keras_serializable(package: str = "Custom", name: str | None = None) -> Callable[[Any], Any]:
    """A decorator registering a class (or function) under ``"package>name"`` (``name``: the class's own by
    default), so that ``load_model`` finds it again.  A class must have ``get_config``, as Keras requires.

    >>> import minitape as tf
    >>> @tf.keras.saving.register_keras_serializable("demo", name="scale_fn")
    ... def scale(x):
    ...     return 2 * x
    >>> tf.keras.saving.get_registered_name(scale), tf.keras.saving.get_registered_object("demo>scale_fn") is scale
    ('demo>scale_fn', True)
    """

    def decorator(arg: Any) -> Any:
        registered = f"{package}>{name if name is not None else arg.__name__}"
        if inspect.isclass(arg) and not hasattr(arg, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() method.")
        _GLOBAL_CUSTOM_OBJECTS[registered] = arg
        _GLOBAL_CUSTOM_NAMES[arg] = registered
        return arg

    return decorator


def get_registered_name(obj: Any) -> str:
    """The name ``obj`` (a class or function) is registered under, or its own ``__name__``.

    >>> import minitape as tf
    >>> tf.keras.saving.get_registered_name(tf.keras.layers.Dense)
    'Dense'
    """
    return _GLOBAL_CUSTOM_NAMES.get(obj, getattr(obj, "__name__", None))


def get_registered_object(name: str, custom_objects: dict | None = None, module_objects: dict | None = None) -> Any:
    """What ``name`` means: in an open ``custom_object_scope``, then registered, then in ``custom_objects``, then in
    ``module_objects``; None if nowhere.

    >>> import minitape as tf
    >>> tf.keras.saving.get_registered_object("Nope") is None
    True
    """
    for scope in reversed(_scope.stack):
        if name in scope:
            return scope[name]
    for table in (_GLOBAL_CUSTOM_OBJECTS, custom_objects or {}, module_objects or {}):
        if name in table:
            return table[name]
    return None


def get_custom_objects() -> dict[str, Any]:
    """The global registry itself (``"package>Name"`` to class), which you may also fill by hand.

    >>> import minitape as tf
    >>> isinstance(tf.keras.saving.get_custom_objects(), dict)
    True
    """
    return _GLOBAL_CUSTOM_OBJECTS


# -- objects to configs --------------------------------------------------------------------------------------------

def serialize_keras_object(obj: Any) -> Any:
    """``obj`` as Keras 3's config dict: plain values as themselves, lists and dicts item by item, functions by
    name, objects as ``{"module", "class_name", "config", "registered_name"}`` (with ``build_config`` and
    ``compile_config`` for models).

    >>> import minitape as tf
    >>> tf.keras.saving.serialize_keras_object(tf.keras.optimizers.SGD(0.5))["config"]["learning_rate"]
    0.5
    >>> tf.keras.saving.serialize_keras_object("relu"), tf.keras.saving.serialize_keras_object(tf.nn.relu)
    ('relu', 'relu')
    """
    if obj is None or isinstance(obj, _PLAIN):
        return obj
    if isinstance(obj, list | tuple):
        return [serialize_keras_object(x) for x in obj]
    if isinstance(obj, dict):
        return {key: serialize_keras_object(value) for key, value in obj.items()}
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return {"class_name": "__numpy__", "config": {"value": obj.tolist(), "dtype": obj.dtype.name}}
    if isinstance(obj, KerasTensor):
        return {"class_name": "__keras_tensor__", "config": {"shape": list(obj.shape), "dtype": obj.dtype,
                                                             "keras_history": None}}
    if hasattr(obj, "as_numpy_dtype"):           # a DType
        return obj.name
    if inspect.isfunction(obj) or inspect.isbuiltin(obj) or isinstance(obj, np.ufunc):
        return _function_name(obj)
    return _object_config(obj)


def _function_name(fn: Callable) -> Any:
    """A function as Keras writes it in a layer's config: an activation's name, or a registered function."""
    known = {id(f): name for name, f in activations._BY_NAME.items()}
    if id(fn) in known:
        return known[id(fn)]
    registered = _GLOBAL_CUSTOM_NAMES.get(fn)
    return {"module": fn.__module__, "class_name": "function", "config": registered or fn.__name__,
            "registered_name": registered or fn.__name__}


def _object_config(obj: Any) -> dict[str, Any]:
    from minitape.keras import saving          # the models' own configs live there; it imports this module
    cls = type(obj)
    parts = cls.__module__.split(".")
    builtin = parts[:2] == ["minitape", "keras"] and cls not in _GLOBAL_CUSTOM_NAMES
    module = (_PUBLIC.get(parts[2], "keras") if len(parts) > 2 else "keras") if builtin else cls.__module__
    registered = None if builtin else get_registered_name(cls)
    if cls.__name__ == "Functional":
        module, registered = "keras.src.models.functional", "Functional"
    config = {"module": None if module == "__main__" else module, "class_name": cls.__name__,
              "config": serialize_keras_object(saving.config_of(obj)), "registered_name": registered}
    return config | saving.build_and_compile_config(obj)


def constructor_config(obj: Any) -> dict[str, Any]:
    """FALLBACK until every class has ``get_config``: the arguments of ``obj``'s ``__init__`` read back from its
    attributes of the same names (``name``, ``trainable`` and ``dtype`` too, for a layer).  An argument without
    a default that is not kept as an attribute cannot be recovered: then, as Keras 3 says, ``get_config``
    must be written.

    >>> import minitape as tf
    >>> from minitape.keras.serialization import constructor_config
    >>> config = constructor_config(tf.keras.layers.Dense(3, activation="relu", name="d"))
    >>> config["units"], config["activation"], config["name"]
    (3, 'relu', 'd')
    """
    config: dict[str, Any] = {}
    if hasattr(obj, "trainable") and hasattr(obj, "built"):
        config = {"name": obj.name, "trainable": obj.trainable, "dtype": "float32"}
    for name, parameter in inspect.signature(type(obj).__init__).parameters.items():
        if name == "self" or parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if name in vars(obj) or hasattr(type(obj), name) and not callable(getattr(type(obj), name)):
            config[name] = serialize_keras_object(getattr(obj, name))
        elif parameter.default is parameter.empty:
            raise NotImplementedError(
                f"Object {type(obj).__name__} was created by passing non-serializable argument values in "
                f"`__init__()`, and therefore the object must override `get_config()` in order to be "
                f"serializable. Please implement `get_config()`.")
    return config


# -- configs to objects --------------------------------------------------------------------------------------------

def deserialize_keras_object(config: Any, custom_objects: dict | None = None, safe_mode: bool = True,
                             **kwargs: Any) -> Any:
    """The object a config describes (see ``serialize_keras_object``); a class that cannot be found is
    Keras' TypeError, naming the decorator to use.

    >>> import minitape as tf
    >>> opt = tf.keras.saving.deserialize_keras_object(
    ...     {"module": "keras.optimizers", "class_name": "Adam", "config": {"learning_rate": 0.5},
    ...      "registered_name": None})
    >>> type(opt).__name__, float(opt.learning_rate.numpy())
    ('Adam', 0.5)
    >>> tf.keras.saving.deserialize_keras_object({"module": None, "class_name": "Mine", "config": {},
    ...                                          "registered_name": "Mine"})
    Traceback (most recent call last):
    ...
    TypeError: Could not locate class 'Mine'. Make sure custom classes and functions are decorated with ...
    """
    if config is None or isinstance(config, _PLAIN):
        found = get_registered_object(config, custom_objects) if isinstance(config, str) else None
        return config if found is None else found
    if isinstance(config, list | tuple):
        return [deserialize_keras_object(x, custom_objects) for x in config]
    if not isinstance(config, dict):
        raise TypeError(f"Could not parse config: {config}")
    if "class_name" not in config or "config" not in config:
        return {key: deserialize_keras_object(value, custom_objects) for key, value in config.items()}
    inner = config["config"] if config["config"] is not None else {}
    if config["class_name"] == "__numpy__":
        return np.array(inner["value"], dtype=inner["dtype"])
    if config["class_name"] == "__keras_tensor__":
        return KerasTensor(inner["shape"], inner["dtype"])
    if config["class_name"] == "function":
        return find_class(inner, config.get("registered_name") or inner, config.get("module"), config,
                          custom_objects, kind="function")
    cls = find_class(config["class_name"], config.get("registered_name") or config["class_name"],
                     config.get("module"), config, custom_objects)
    from minitape.keras import saving
    with CustomObjectScope(custom_objects):
        return saving.revive(cls, config, custom_objects)


def find_class(name: str, registered_name: str, module: str | None, full_config: dict,
               custom_objects: dict | None = None, kind: str = "class") -> Any:
    """The class (or function) a config names: a registered or custom object first, then minitape's own
    Keras namespaces for a ``keras.*`` module.

    >>> from minitape.keras.serialization import find_class
    >>> find_class("Dense", "Dense", "keras.layers", {}).__name__
    'Dense'
    """
    found = get_registered_object(name if kind == "function" else registered_name, custom_objects)
    if found is None and kind == "class":
        found = get_registered_object(name, custom_objects)
    if found is not None:
        return found
    if module is not None and (module == "keras" or module.startswith("keras.")):
        for namespace in _NAMESPACES:
            candidate = getattr(importlib.import_module(f"minitape.keras.{namespace}"), name, None)
            if candidate is not None and (kind == "function" or inspect.isclass(candidate)):
                return candidate
        candidate = getattr(importlib.import_module("minitape.keras.models"), name, None)
        if candidate is not None:
            return candidate
    raise TypeError(f"Could not locate {kind} '{name}'. Make sure custom classes and functions are decorated with "
                    f"`@keras.saving.register_keras_serializable()`. If they are already decorated, make sure they "
                    f"are all imported so that the decorator is run before trying to load them. Full object "
                    f"config: {full_config}")


__all__ = ["CustomObjectScope", "constructor_config", "custom_object_scope", "deserialize_keras_object",
           "find_class", "get_custom_objects", "get_registered_name", "get_registered_object",
           "register_keras_serializable", "serialize_keras_object"]
