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
from collections.abc import Callable
from typing import Any

import numpy as np

from minitape.keras import activations
from minitape.keras.keras_tensor import KerasTensor
from minitape.keras import layer_config
from minitape.keras.layers import InputLayer, Layer
from minitape.keras.registration import (_GLOBAL_CUSTOM_NAMES, CustomObjectScope, get_registered_name,
                                         get_registered_object)

_PLAIN = (str, int, float, bool)
# minitape's Keras packages under their Keras 3 public names, for the ``module`` of a config.
_PUBLIC = {"layers": "keras.layers", "optimizers": "keras.optimizers", "initializers": "keras.initializers",
           "losses": "keras.losses", "metrics": "keras.metrics", "metric": "keras.metrics",
           "confusion_metrics": "keras.metrics", "regularizers": "keras.regularizers",
           "constraints": "keras.constraints", "activations": "keras.activations", "models": "keras"}
_NAMESPACES = ("layers", "optimizers", "optimizers.schedules", "initializers", "losses", "metrics", "regularizers",
               "constraints", "activations", "models")



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
    cls = type(obj)
    parts = cls.__module__.split(".")
    builtin = parts[:2] == ["minitape", "keras"] and cls not in _GLOBAL_CUSTOM_NAMES
    module = (_PUBLIC.get(parts[2], "keras") if len(parts) > 2 else "keras") if builtin else cls.__module__
    registered = None if builtin else get_registered_name(cls)
    if cls.__name__ == "Functional":
        module, registered = "keras.src.models.functional", "Functional"
    config = {"module": None if module == "__main__" else module, "class_name": cls.__name__,
              "config": serialize_keras_object(config_of(obj)), "registered_name": registered}
    return config | build_and_compile_config(obj)


# -- what a config holds besides the object's own ----------------------------------------------------------------

def config_of(obj: Any) -> dict[str, Any]:
    """``obj.get_config()`` (a layer's or model's from ``layer_config``), or Keras 3's error for an object without one.

    >>> import minitape as tf
    >>> from minitape.keras.serialization import config_of
    >>> config_of(tf.keras.optimizers.SGD(0.5))["learning_rate"]
    0.5
    """
    if not callable(getattr(obj, "get_config", None)):
        raise NotImplementedError(f"Object {type(obj).__name__} has no `get_config()` method, so it cannot be "
                                  f"serialized. Please implement `get_config()` (and `from_config()`).")
    return obj.get_config()


def build_and_compile_config(obj: Any) -> dict[str, Any]:
    """Keras' ``build_config`` (the input shape a layer was built for) and ``compile_config`` of ``obj``.

    >>> import minitape as tf
    >>> from minitape.keras.serialization import build_and_compile_config
    >>> layer = tf.keras.layers.Dense(1); _ = layer(tf.ones((4, 3)))
    >>> build_and_compile_config(layer)
    {'build_config': {'input_shape': [None, 3]}}
    """
    found: dict[str, Any] = {}
    if isinstance(obj, Layer) and not isinstance(obj, InputLayer) and obj.built:
        found["build_config"] = {"input_shape": _build_shape(obj)}
    if getattr(obj, "compiled", False) and getattr(obj, "optimizer", None) is not None:
        found["compile_config"] = compile_config(obj)
    return found


def _build_shape(layer: Layer) -> Any:
    shape = getattr(layer, "_build_input_shape", None)
    if shape is None or type(layer).__name__ == "Functional":
        return None
    if shape and all(isinstance(s, tuple | list) for s in shape):            # several inputs
        return [[None, *s[1:]] for s in shape]
    return [None, *shape[1:]] if shape else []


def compile_config(model: Any) -> dict[str, Any]:
    """What ``compile`` was given, as Keras 3 writes it: the optimiser's config, the loss and the metrics."""
    given = getattr(model, "_compile_config", {})
    loss = given.get("loss", model.loss)
    return {"optimizer": serialize_keras_object(model.optimizer),
            "loss": serialize_keras_object(loss), "loss_weights": given.get("loss_weights"),
            "metrics": serialize_keras_object(given.get("metrics")),
            "weighted_metrics": None, "run_eagerly": False, "steps_per_execution": 1, "jit_compile": False}


# -- making an object from its config ------------------------------------------------------------------------------

def revive(cls: type, config: dict[str, Any], custom_objects: dict | None = None) -> Any:
    """An instance of ``cls`` from a full config (``config``, ``build_config``, ``compile_config``): made by
    ``cls.from_config``, then built, then compiled, as Keras 3's deserialization does."""
    inner = config["config"] if config["config"] is not None else {}
    if inspect.isfunction(cls):
        return cls
    obj = _construct(cls, _understood(cls, inner, custom_objects), config, custom_objects)
    if isinstance(obj, Layer) and not obj.built and config.get("build_config"):
        build_from_config(obj, config["build_config"])
    if config.get("compile_config"):
        compile_from_config(obj, config["compile_config"])
    return obj


def _own_from_config(cls: type) -> bool:
    return callable(getattr(cls, "from_config", None))


def _reads_arguments(cls: type) -> bool:
    """Whether ``cls`` is made from its config by calling it with the config's keys (no ``from_config`` of its
    own beyond ``layer_config``'s, which does just that)."""
    default = layer_config.Configurable.from_config.__func__
    return not _own_from_config(cls) or getattr(cls.from_config, "__func__", None) is default


def _understood(cls: type, inner: dict[str, Any], custom_objects: dict | None) -> dict[str, Any]:
    """For minitape's own classes, Keras 3's config as their constructors take it: nested objects made, a dtype
    policy read as its dtype and, for a class called with its config's keys, keys minitape has no argument for
    (``quantization_config``...) left out."""
    if not cls.__module__.startswith("minitape."):
        return inner
    kwargs = {key: deserialize_keras_object(value, custom_objects)
              if isinstance(value, dict) and "class_name" in value and key != "dtype" else value
              for key, value in inner.items()}
    if isinstance(kwargs.get("dtype"), dict):                  # Keras' DTypePolicy: its name is the dtype
        kwargs["dtype"] = kwargs["dtype"]["config"]["name"]
    if not _reads_arguments(cls):
        return kwargs
    accepted = set()
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is not None:
            parameters = inspect.signature(init).parameters
            accepted |= set(parameters)
            if not any(p.kind == p.VAR_KEYWORD for p in parameters.values()):
                break
    return {key: value for key, value in kwargs.items() if key in accepted}


def _construct(cls: type, inner: dict[str, Any], config: dict[str, Any], custom_objects: dict | None) -> Any:
    """``cls.from_config(inner)``, or ``cls(**inner)`` for a class without one, with Keras' error if it fails."""
    try:
        if not _own_from_config(cls):
            return cls(**inner)
        if "custom_objects" in inspect.signature(cls.from_config).parameters:
            return cls.from_config(inner, custom_objects)
        return cls.from_config(inner)
    except TypeError as exc:
        raise TypeError(f"{cls} could not be deserialized properly. Please ensure that components that are Python "
                        f"object instances (layers, models, etc.) returned by `get_config()` are explicitly "
                        f"deserialized in the model's `from_config()` method.\n\nconfig={config}.\n\n"
                        f"Exception encountered: {exc}") from exc


def build_from_config(layer: Layer, build_config: dict[str, Any]) -> None:
    """Build ``layer`` for ``build_config["input_shape"]``: a Sequential model by ``build``, any other layer by a
    call on stand-in inputs of that shape (see ``keras_tensor``), whose losses are then forgotten."""
    shape = build_config.get("input_shape")
    if shape is None:
        return
    if any(k.__name__ == "Sequential" for k in type(layer).__mro__):
        layer.build(shape)
        return
    several = bool(shape) and all(isinstance(s, list | tuple) for s in shape)
    inputs = [KerasTensor(s).stand_in() for s in shape] if several else KerasTensor(shape).stand_in()
    layer(inputs)
    layer._clear_losses()


def compile_from_config(model: Any, config: dict[str, Any]) -> None:
    """``model.compile`` with what ``compile_config`` wrote, and the optimiser's variables made (so that its
    saved state can be assigned to them)."""
    optimizer = deserialize_keras_object(config.get("optimizer") or "rmsprop")
    model.compile(optimizer=optimizer, loss=deserialize_keras_object(config.get("loss")),
                  loss_weights=config.get("loss_weights"), metrics=deserialize_keras_object(config.get("metrics")))
    if model.built:
        model.optimizer.build(model.trainable_variables)


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
    with CustomObjectScope(custom_objects):
        return revive(cls, config, custom_objects)


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


layer_config.use_codec(serialize_keras_object, deserialize_keras_object)

__all__ = ["build_and_compile_config", "build_from_config", "compile_config", "compile_from_config",
           "config_of", "deserialize_keras_object", "find_class", "revive",
           "serialize_keras_object"]
