"""``model.save("m.keras")`` and ``keras.models.load_model``: Keras 3's ``.keras`` archive.

The archive is a zip of three files, as Keras 3 writes it: ``metadata.json`` (the Keras version),
``config.json`` (the model's config, see ``serialization``: its class, its layers, the input shape it
was built for and, if compiled, its ``compile_config``: optimiser, loss, metrics) and
``model.weights.h5`` (the variables, the optimiser's among them, in the layout of
``save_weights``, see ``weights_file``).  Loading makes the model from its config, builds it,
compiles it, and assigns the variables: training goes on where it stopped.  A file written by
TF 2.21 loads here, and TF loads minitape's.

>>> import minitape as tf, tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "model.keras")
>>> model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(2, activation="relu")])
>>> model.compile(optimizer="adam", loss="mse")
>>> model.save(path)
>>> loaded = tf.keras.models.load_model(path)
>>> type(loaded.optimizer).__name__, bool((loaded.get_weights()[0] == model.get_weights()[0]).all())
('Adam', True)
"""
from __future__ import annotations

import datetime
import inspect
import json
import os
import tempfile
import zipfile
from typing import Any

from minitape.keras import model_config, serialization, weights_file
from minitape.keras.keras_tensor import KerasTensor
from minitape.keras.layers import InputLayer, Layer
from minitape.keras.serialization import (CustomObjectScope, custom_object_scope, deserialize_keras_object,
                                          get_custom_objects, get_registered_name, get_registered_object,
                                          register_keras_serializable, serialize_keras_object)

KERAS_VERSION = "3.15.1"           # the Keras whose format this is (TF 2.21's)
_CONFIG, _METADATA, _WEIGHTS = "config.json", "metadata.json", "model.weights.h5"


# -- what a config holds -------------------------------------------------------------------------------------------

def config_of(obj: Any) -> dict[str, Any]:
    """``obj.get_config()``, or the fallbacks of ``model_config`` and ``serialization.constructor_config`` for
    classes that do not have one yet.

    >>> import minitape as tf
    >>> from minitape.keras.saving import config_of
    >>> config_of(tf.keras.optimizers.SGD(0.5))["learning_rate"]
    0.5
    """
    if callable(getattr(obj, "get_config", None)):
        return obj.get_config()
    kind = type(obj).__name__
    if isinstance(obj, InputLayer):
        return model_config.input_layer_config(obj)
    if _is_model(obj, "Sequential"):
        return model_config.sequential_config(obj)
    if kind == "Functional":
        return model_config.functional_config(obj)
    return serialization.constructor_config(obj)


def _is_model(obj_or_cls: Any, name: str) -> bool:
    cls = obj_or_cls if inspect.isclass(obj_or_cls) else type(obj_or_cls)
    return any(c.__name__ == name and c.__module__ == "minitape.keras.models" for c in cls.__mro__)


def build_and_compile_config(obj: Any) -> dict[str, Any]:
    """Keras' ``build_config`` (the input shape a layer was built for) and ``compile_config`` of ``obj``.

    >>> import minitape as tf
    >>> from minitape.keras.saving import build_and_compile_config
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
    if type(layer).__name__ == "Functional":
        return None
    if _is_model(layer, "Sequential"):
        return model_config.input_shape(layer)
    shape = getattr(layer, "_build_input_shape", None)
    if shape is None:
        return None
    if shape and all(isinstance(s, tuple | list) for s in shape):            # several inputs
        return [[None, *s[1:]] for s in shape]
    return [None, *shape[1:]] if shape else []


def compile_config(model: Any) -> dict[str, Any]:
    """What ``compile`` was given, as Keras 3 writes it: the optimiser's config, the loss and the metrics."""
    given = getattr(model, "_compile_config", {})
    loss = given.get("loss", model.loss)
    return {"optimizer": serialization.serialize_keras_object(model.optimizer),
            "loss": serialization.serialize_keras_object(loss), "loss_weights": None,
            "metrics": serialization.serialize_keras_object(given.get("metrics", model._metric_ids or None)),
            "weighted_metrics": None, "run_eagerly": False, "steps_per_execution": 1, "jit_compile": False}


# -- making an object from its config ------------------------------------------------------------------------------

def revive(cls: type, config: dict[str, Any], custom_objects: dict | None = None) -> Any:
    """An instance of ``cls`` from a full config (``config``, ``build_config``, ``compile_config``): made by
    ``cls.from_config`` or a fallback, then built, then compiled, as Keras 3's deserialization does."""
    inner = config["config"] if config["config"] is not None else {}
    if inspect.isfunction(cls):
        return cls
    if issubclass(cls, InputLayer):
        obj = model_config.input_layer_from_config(inner)
    elif _is_model(cls, "Sequential") and not _own_from_config(cls):
        obj = model_config.sequential_from_config(cls, inner, custom_objects)
    elif (_is_model(cls, "Model") and not _own_from_config(cls)
          and {"layers", "input_layers", "output_layers"} <= set(inner)):
        obj = model_config.functional_from_config(cls, inner, custom_objects)
    else:
        obj = _construct(cls, _understood(cls, inner, custom_objects), config)
    if isinstance(obj, Layer) and not obj.built and config.get("build_config"):
        build_from_config(obj, config["build_config"])
    if config.get("compile_config"):
        compile_from_config(obj, config["compile_config"])
    return obj


def _own_from_config(cls: type) -> bool:
    return callable(getattr(cls, "from_config", None))


def _understood(cls: type, inner: dict[str, Any], custom_objects: dict | None) -> dict[str, Any]:
    """For minitape's own classes, Keras 3's config as their constructors take it: nested objects made, a dtype
    policy read as its dtype, keys minitape has no argument for (``quantization_config``...) left out."""
    if not cls.__module__.startswith("minitape."):
        return inner
    kwargs = {key: serialization.deserialize_keras_object(value, custom_objects)
              if isinstance(value, dict) and "class_name" in value and key != "dtype" else value
              for key, value in inner.items()}
    if isinstance(kwargs.get("dtype"), dict):                  # Keras' DTypePolicy: its name is the dtype
        kwargs["dtype"] = kwargs["dtype"]["config"]["name"]
    accepted = set()
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is not None:
            parameters = inspect.signature(init).parameters
            accepted |= set(parameters)
            if not any(p.kind == p.VAR_KEYWORD for p in parameters.values()):
                break
    return {key: value for key, value in kwargs.items() if key in accepted}


def _construct(cls: type, inner: dict[str, Any], config: dict[str, Any]) -> Any:
    """``cls.from_config(inner)``, or ``cls(**inner)`` for a class without one, with Keras' error if it fails."""
    try:
        return cls.from_config(inner) if _own_from_config(cls) else cls(**inner)
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
    if _is_model(layer, "Sequential"):
        layer.build(shape)
        return
    several = bool(shape) and all(isinstance(s, list | tuple) for s in shape)
    inputs = [KerasTensor(s).stand_in() for s in shape] if several else KerasTensor(shape).stand_in()
    layer(inputs)
    layer._clear_losses()


def compile_from_config(model: Any, config: dict[str, Any]) -> None:
    """``model.compile`` with what ``compile_config`` wrote, and the optimiser's variables made (so that its
    saved state can be assigned to them)."""
    optimizer = serialization.deserialize_keras_object(config.get("optimizer") or "rmsprop")
    model.compile(optimizer=optimizer, loss=serialization.deserialize_keras_object(config.get("loss")),
                  metrics=serialization.deserialize_keras_object(config.get("metrics")))
    if model.built:
        model.optimizer.build(model.trainable_variables)


# -- the archive ---------------------------------------------------------------------------------------------------

def save_model(model: Layer, filepath: str | os.PathLike, overwrite: bool = True, zipped: bool | None = None,
               **kwargs: Any) -> None:
    """Write ``model`` to a ``.keras`` file (see the module's example); ``model.save`` calls this.

    >>> import minitape as tf
    >>> tf.keras.saving.save_model(tf.keras.Sequential(), "model.tf")
    Traceback (most recent call last):
    ...
    ValueError: Invalid filepath extension for saving. Please add either a `.keras` extension for the native ...
    """
    filepath = os.fspath(filepath)
    kwargs.pop("include_optimizer", None)
    if kwargs:
        raise ValueError(f"The following argument(s) are not supported: {list(kwargs.keys())}")
    if not filepath.endswith(".keras") or zipped is False:
        raise ValueError(f"Invalid filepath extension for saving. Please add either a `.keras` extension for the "
                         f"native Keras format (recommended) or a `.h5` extension. Use `model.export(filepath)` if "
                         f"you want to export a SavedModel for use with TFLite/TFServing/etc. Received: "
                         f"filepath={filepath}. (minitape writes `.keras` files only.)")
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"save: {filepath} exists; pass overwrite=True to replace it.")
    config = serialization.serialize_keras_object(model)
    metadata = {"keras_version": KERAS_VERSION, "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")}
    with tempfile.TemporaryDirectory() as scratch:
        weights = os.path.join(scratch, _WEIGHTS)
        weights_file.save_weights(model, weights)
        with zipfile.ZipFile(filepath, "w") as archive:
            archive.writestr(_METADATA, json.dumps(metadata))
            archive.writestr(_CONFIG, json.dumps(config))
            archive.write(weights, _WEIGHTS)


def load_model(filepath: str | os.PathLike, custom_objects: dict | None = None, compile: bool = True,
               safe_mode: bool = True) -> Any:
    """The model a ``.keras`` file holds (written here or by Keras 3), compiled as it was unless
    ``compile=False``; your own classes are found if registered or named in ``custom_objects``.

    >>> import minitape as tf
    >>> tf.keras.models.load_model("missing.keras")
    Traceback (most recent call last):
    ...
    ValueError: File not found: filepath=missing.keras. Please ensure the file is an accessible `.keras` zip file.
    """
    filepath = os.fspath(filepath)
    if not zipfile.is_zipfile(filepath) if os.path.isfile(filepath) else True:
        if filepath.endswith(".keras"):
            raise ValueError(f"File not found: filepath={filepath}. Please ensure the file is an accessible `.keras` "
                             f"zip file.")
        raise ValueError(f"File format not supported: filepath={filepath}. Keras 3 only supports V3 `.keras` files, "
                         f"legacy H5 format files (`.h5` extension). Note that the legacy SavedModel format is not "
                         f"supported by `load_model()` in Keras 3.")
    with zipfile.ZipFile(filepath) as archive, tempfile.TemporaryDirectory() as scratch:
        config = json.loads(archive.read(_CONFIG))
        if not compile:
            config.pop("compile_config", None)
        model = serialization.deserialize_keras_object(config, custom_objects, safe_mode=safe_mode)
        if _WEIGHTS in archive.namelist():
            weights_file.load_weights(model, archive.extract(_WEIGHTS, scratch))
    return model


__all__ = ["build_and_compile_config", "build_from_config", "compile_config", "compile_from_config", "config_of",
           "load_model", "revive", "save_model", "CustomObjectScope", "custom_object_scope", "deserialize_keras_object",
           "get_custom_objects", "get_registered_name", "get_registered_object", "register_keras_serializable",
           "serialize_keras_object"]
