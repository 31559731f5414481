"""Keras' default names: the class name in snake case, numbered after the first of each (``dense``, ``dense_1``).

Layers, models and metrics made without a ``name`` draw from one counter, as in Keras 3.

>>> from minitape.keras.naming import unique_name
>>> class NamingExample: pass
>>> unique_name(NamingExample), unique_name(NamingExample)
('naming_example', 'naming_example_1')
"""
from __future__ import annotations

import collections
import re

_counts: collections.Counter = collections.Counter()


def snake_case(name: str) -> str:
    """``Conv2D`` as ``conv2d``, ``HuberMetric`` as ``huber_metric``, ``AUC`` as ``auc``, as Keras spells class names
    (TensorFlow's ``tf.Module`` rule differs after digits, ``conv2_d``: ``minitape.module.camel_to_snake``).

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
