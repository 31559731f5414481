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
import json
import os
import tempfile
import zipfile
from typing import Any

from minitape.keras import serialization, weights_file
from minitape.keras.layers import Layer
from minitape.keras.registration import (CustomObjectScope, custom_object_scope, get_custom_objects,
                                         get_registered_name, get_registered_object, register_keras_serializable)
from minitape.keras.serialization import deserialize_keras_object, serialize_keras_object
from minitape.keras.weights_file import load_weights, save_weights

KERAS_VERSION = "3.15.1"           # the Keras whose format this is (TF 2.21's)
_CONFIG, _METADATA, _WEIGHTS = "config.json", "metadata.json", "model.weights.h5"


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


__all__ = ["CustomObjectScope", "custom_object_scope", "deserialize_keras_object", "get_custom_objects",
           "get_registered_name", "get_registered_object", "load_model", "load_weights", "register_keras_serializable",
           "save_model", "save_weights", "serialize_keras_object"]


class Saveable:
    """What a model can write and read: its weights (``.weights.h5``) and itself (``.keras``), as Keras 3's
    ``Model`` methods.  ``keras.Model`` inherits them.

    >>> import minitape as tf
    >>> issubclass(tf.keras.Model, tf.keras.saving.Saveable)
    True
    """

    def save_weights(self, filepath: str, overwrite: bool = True) -> None:
        """Write the weights (and the compiled optimiser's state) to a Keras 3 ``.weights.h5`` file (see
        ``keras.weights_file``).

        >>> import minitape as tf, tempfile, os
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> _ = model(tf.ones((1, 2))); model.save_weights(os.path.join(tempfile.mkdtemp(), "m.weights.h5"))
        """
        save_weights(self, filepath, overwrite=overwrite)

    def load_weights(self, filepath: str) -> None:
        """Read the weights back from a ``.weights.h5`` file (one Keras 3 wrote too); the model must be built.

        >>> import minitape as tf, tempfile, os
        >>> path = os.path.join(tempfile.mkdtemp(), "m.weights.h5")
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])
        >>> _ = model(tf.ones((1, 2))); model.save_weights(path)
        >>> other = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> _ = other(tf.ones((1, 2))); other.load_weights(path)
        >>> other.get_weights()[0].ravel()
        array([1., 1.], dtype=float32)
        """
        load_weights(self, filepath)

    def save(self, filepath: str, overwrite: bool = True, zipped: bool | None = None, **kwargs: Any) -> None:
        """Write the model (config, weights, compiled optimiser's state) to a Keras 3 ``.keras`` file; see
        ``keras.saving``.

        >>> import minitape as tf, tempfile, os
        >>> path = os.path.join(tempfile.mkdtemp(), "m.keras")
        >>> model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(1)])
        >>> model.save(path)
        >>> tf.keras.models.load_model(path).get_weights()[0].shape
        (2, 1)
        """
        save_model(self, filepath, overwrite=overwrite, zipped=zipped, **kwargs)
