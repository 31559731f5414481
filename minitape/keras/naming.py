"""Keras' names: default names (the class name in snake case, numbered after the first of each: ``dense``,
``dense_1``), and objects looked up by name (``from_identifier``).

Layers, models and metrics made without a ``name`` draw from one counter, as in Keras 3.

>>> from minitape.keras.naming import unique_name
>>> class NamingExample: pass
>>> unique_name(NamingExample), unique_name(NamingExample)
('naming_example', 'naming_example_1')
"""
from __future__ import annotations

import collections
import inspect
import re
from typing import Any

_counts: collections.Counter = collections.Counter()


def snake_case(name: str) -> str:
    """``Conv2D`` as ``conv2d``, ``HuberMetric`` as ``huber_metric``, ``AUC`` as ``auc``, as Keras spells class names
    (TensorFlow's ``tf.Module`` rule differs after digits, ``conv2_d``: ``minitape.dialect.module.camel_to_snake``).

    >>> from minitape.keras.naming import snake_case
    >>> snake_case("Conv2D"), snake_case("HuberMetric"), snake_case("GlobalAveragePooling2D")
    ('conv2d', 'huber_metric', 'global_average_pooling2d')
    """
    name = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", name).lower()


def unique_name(cls: type | str) -> str:
    """The next default name for an object of class ``cls``, or for the base name given (see the module's example).

    >>> from minitape.keras.naming import unique_name
    >>> unique_name("naming_example_base"), unique_name("naming_example_base")
    ('naming_example_base', 'naming_example_base_1')
    """
    base = cls if isinstance(cls, str) else snake_case(cls.__name__)
    count = _counts[base]
    _counts[base] += 1
    return base if count == 0 else f"{base}_{count}"


def from_identifier(identifier: Any, by_name: dict[str, type], error: str) -> Any:
    """The object an ``identifier`` names, as Keras' ``get`` functions resolve it: None stays None; a name in
    ``by_name`` or a ``{"class_name": ..., "config": ...}`` dict gives its class (made from the config); a class
    is made with its defaults; a callable is kept.  Anything else is a ValueError with ``error``, a template
    in which ``{identifier}`` is replaced.

    >>> from minitape.keras.naming import from_identifier
    >>> class Clip:
    ...     def __call__(self, w): return w
    ...     @classmethod
    ...     def from_config(cls, config): return cls()
    >>> type(from_identifier("clip", {"clip": Clip}, "no {identifier}")).__name__
    'Clip'
    >>> from_identifier("cut", {"clip": Clip}, "Could not interpret {identifier}")
    Traceback (most recent call last):
    ...
    ValueError: Could not interpret cut
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict) and {"class_name", "config"} <= set(identifier):
        found = by_name.get(identifier["class_name"])
        obj = None if found is None else found.from_config(identifier["config"])
    else:
        obj = by_name.get(identifier) if isinstance(identifier, str) else identifier
    if not callable(obj):
        raise ValueError(error.format(identifier=identifier))
    return obj() if inspect.isclass(obj) else obj
