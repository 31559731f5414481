"""``keras.saving``'s registry: the names your own classes and functions are saved and found under.

``register_keras_serializable`` records a class under ``"package>Name"``; a ``.keras`` file names it so,
and loading finds it again here, or in a ``custom_objects`` dict (given to ``load_model``, or opened
for a block with ``custom_object_scope``).

>>> import minitape as tf
>>> @tf.keras.saving.register_keras_serializable(package="demo")
... class Twice(tf.keras.layers.Layer):
...     def call(self, x):
...         return 2 * x
...     def get_config(self):
...         return {"name": self.name}
>>> tf.keras.saving.get_registered_name(Twice), tf.keras.saving.get_registered_object("demo>Twice") is Twice
('demo>Twice', True)
"""
from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from typing import Any

_GLOBAL_CUSTOM_OBJECTS: dict[str, Any] = {}
_GLOBAL_CUSTOM_NAMES: dict[Any, str] = {}
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


__all__ = ["CustomObjectScope", "custom_object_scope", "get_custom_objects", "get_registered_name",
           "get_registered_object", "register_keras_serializable"]
