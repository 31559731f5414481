"""``model.save_weights`` / ``load_weights``: Keras 3's ``.weights.h5`` file, written and read through h5py.

Keras 3 lays the file out as the tree of objects that hold state.  Each object is a group
holding a ``vars`` group (with the object's name as an attribute) whose datasets ``0``,
``1``... are its own variables, trainable ones first.  Its children are found by attribute
name, in sorted order (names starting with ``_`` last): a Sequential or functional model's
under ``layers``, a list's items under their class names in snake case (``dense``,
``dense_1``...), and the compiled ``optimizer`` (its ``variables``).  An object met twice is
saved once, where it was first met.  So a file written by TF 2.21 loads here, and back.

>>> import minitape as tf, tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "model.weights.h5")
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, kernel_initializer="ones")])
>>> _ = model(tf.ones((1, 3)))
>>> model.save_weights(path)
>>> model.set_weights([np.zeros((3, 2)), np.zeros(2)])
>>> model.load_weights(path)
>>> model.get_weights()[0]
array([[1., 1.],
       [1., 1.],
       [1., 1.]], dtype=float32)
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import numpy as np

from minitape.keras.layers.layer import Layer
from minitape.keras.naming import snake_case
from minitape.keras.optimizers import Optimizer


def _h5py() -> Any:
    try:
        import h5py
    except ImportError as exc:        # a dependency; only the weights file needs it, so it is imported here
        raise ImportError("save_weights/load_weights write Keras' .weights.h5 format through h5py: "
                          "`pip install h5py`.") from exc
    return h5py


def _own_variables(obj: Layer | Optimizer) -> list[Any]:
    if isinstance(obj, Optimizer):
        return obj.variables
    trainable = [v for v in obj._weights if any(v is t for t in obj._made_trainable)]
    return trainable + [v for v in obj._weights if all(v is not t for t in trainable)]


def _children(obj: Layer | Optimizer) -> Iterator[tuple[str, Any]]:
    """An object's attributes that may hold state, in Keras' order."""
    if isinstance(obj, Optimizer):
        return
    if type(obj).__name__ in ("Sequential", "Functional"):
        yield "layers", obj.layers
    names = {name for name in vars(obj) if name != "_layers"}
    if hasattr(obj, "optimizer"):
        names |= {"layers", "optimizer"}
    for name in sorted(names, key=lambda n: f"~{n}" if n.startswith("_") else n):
        yield name, getattr(obj, name, None)


def _walk(obj: Any, path: str, seen: set[int]) -> Iterator[tuple[str, Layer | Optimizer]]:
    """Each stateful object under ``obj`` with its path in the file, each once, as Keras 3's saving walks them."""
    if isinstance(obj, Layer | Optimizer):
        if id(obj) in seen:
            return
        seen.add(id(obj))
        yield path, obj
        for name, child in _children(obj):
            yield from _walk(child, f"{path}/{name}" if path else name, seen)
    elif isinstance(obj, list | tuple | dict):
        used: dict[str, int] = {}
        for item in obj.values() if isinstance(obj, dict) else obj:
            if isinstance(item, Layer | Optimizer | list | tuple | dict):
                base = snake_case(type(item).__name__) if isinstance(item, Layer | Optimizer) else "container"
                key = base if base not in used else f"{base}_{used[base]}"
                used[base] = used.get(base, 0) + 1
                yield from _walk(item, f"{path}/{key}", seen)


def save_weights(model: Layer, filepath: str | os.PathLike, overwrite: bool = True) -> None:
    """Write ``model``'s variables (and its optimiser's) to a ``.weights.h5`` file (see the module's example).

    >>> import minitape as tf
    >>> tf.keras.Sequential([tf.keras.layers.Dense(1)]).save_weights("model.h5")
    Traceback (most recent call last):
    ...
    ValueError: The filename must end in `.weights.h5`. Received: filepath=model.h5
    """
    filepath = os.fspath(filepath)
    if not filepath.endswith(".weights.h5"):
        raise ValueError(f"The filename must end in `.weights.h5`. Received: filepath={filepath}")
    if not model.built:
        raise ValueError("You are saving a model that has not yet been built. Try building the model first by "
                         "calling it on some data or by using `build()`.")
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"save_weights: {filepath} exists; pass overwrite=True to replace it.")
    with _h5py().File(filepath, "w") as f:
        for path, obj in _walk(model, "", set()):
            group = f.require_group(f"{path}/vars" if path else "vars")
            group.attrs["name"] = obj.name
            for i, variable in enumerate(_own_variables(obj)):
                group.create_dataset(str(i), data=np.asarray(variable.numpy()))


def load_weights(model: Layer, filepath: str | os.PathLike) -> None:
    """Assign each variable its value from a ``.weights.h5`` file written by ``save_weights`` (here or in Keras 3).

    An optimiser not yet built (no step taken) is skipped, as Keras skips it with a warning.

    >>> import minitape as tf
    >>> tf.keras.Sequential([tf.keras.layers.Dense(1)]).load_weights("model.ckpt")
    Traceback (most recent call last):
    ...
    ValueError: File format not supported: filepath=model.ckpt. Keras 3 only supports V3 `.keras` and ...
    """
    filepath = os.fspath(filepath)
    if not filepath.endswith(".weights.h5"):
        raise ValueError(f"File format not supported: filepath={filepath}. Keras 3 only supports V3 `.keras` and "
                         f"`.weights.h5` files, or legacy V1/V2 `.h5` files.")
    with _h5py().File(filepath, "r") as f:
        for path, obj in _walk(model, "", set()):
            variables = _own_variables(obj)
            group = f.get(f"{path}/vars" if path else "vars")
            stored = [] if group is None else [group[str(i)][()] for i in range(len(group))]
            if isinstance(obj, Optimizer) and len(stored) != len(variables):
                continue
            if len(stored) != len(variables):
                raise ValueError(f"Layer '{obj.name}' expected {len(variables)} variables, but received "
                                 f"{len(stored)} variables during loading. Expected: {[v.name for v in variables]}")
            for variable, value in zip(variables, stored):
                if tuple(variable.shape) != value.shape:
                    raise ValueError(f"The shape of the target variable and the shape of the target value in "
                                     f"`variable.assign(value)` must match. variable.shape={tuple(variable.shape)}, "
                                     f"Received: value.shape={value.shape}. Target variable: {variable}")
                variable.assign(value.astype(variable.dtype.as_numpy_dtype))
