"""Lists and dicts that tell their layer what is put in them, as Keras 3's ``TrackedList`` and ``TrackedDict``.

A layer finds its sub-layers when they are assigned to it.  A list assigned to a layer
attribute is replaced by a ``TrackedList`` (a ``list`` in every other way), so that a layer
appended to it later is found too, as in

>>> import minitape as tf
>>> class Stack(tf.keras.Model):
...     def __init__(self):
...         super().__init__()
...         self.blocks = []
...         for units in (4, 2):
...             self.blocks.append(tf.keras.layers.Dense(units))
...     def call(self, x):
...         for block in self.blocks:
...             x = block(x)
...         return x
>>> model = Stack()
>>> _ = model(tf.ones((1, 3)))
>>> type(model.blocks).__name__, len(model.trainable_variables)
('TrackedList', 4)

A container calls its owner's ``_track(value)``, which records the layers in ``value``
and returns it (a plain list or dict made a tracked one), and ``_untrack(value)``, which
forgets them.  Exactly Keras 3's methods are tracked: ``append``, ``insert``, ``extend``
(and ``+=`` on an attribute, which assigns it again), a dict's ``[key] =`` and ``update``;
``remove``, ``pop``, ``del`` and ``clear`` untrack (a dict's ``pop``, ``popitem``, ``clear``).
As in Keras, replacing an item (``blocks[0] = layer``) neither tracks nor untracks.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class TrackedList(list):
    """A list whose additions and removals its owner hears about.

    >>> import minitape as tf
    >>> model = tf.keras.Model()
    >>> model.parts = []
    >>> model.parts.append(tf.keras.layers.Dense(1, name="head"))
    >>> [layer.name for layer in model.layers]
    ['head']
    >>> _ = model.parts.pop()
    >>> model.layers
    []
    """

    def __init__(self, values: Iterable = (), owner: Any = None) -> None:
        self.owner = owner
        super().__init__(self._track(v) for v in values)

    def append(self, value: Any) -> None:
        super().append(self._track(value))

    def insert(self, index: int, value: Any) -> None:
        super().insert(index, self._track(value))

    def extend(self, values: Iterable) -> None:
        super().extend(self._track(v) for v in values)

    def remove(self, value: Any) -> None:
        super().remove(value)
        self._untrack(value)

    def pop(self, index: int = -1) -> Any:
        value = super().pop(index)
        self._untrack(value)
        return value

    def clear(self) -> None:
        removed = list(self)
        super().clear()
        self._untrack(*removed)

    def __delitem__(self, index: Any) -> None:
        removed = self[index] if isinstance(index, slice) else [self[index]]
        super().__delitem__(index)
        self._untrack(*removed)

    def _track(self, value: Any) -> Any:
        return self.owner._track(value) if self.owner else value

    def _untrack(self, *values: Any) -> None:
        for value in values if self.owner else ():
            self.owner._untrack(value)


class TrackedDict(dict):
    """A dict whose new values its owner hears about (its layers are tracked in insertion order).

    >>> import minitape as tf
    >>> model = tf.keras.Model()
    >>> model.heads = {}
    >>> model.heads["b"] = tf.keras.layers.Dense(1, name="b")
    >>> model.heads.update(a=tf.keras.layers.Dense(1, name="a"))
    >>> [layer.name for layer in model.layers]
    ['b', 'a']
    """

    def __init__(self, values: Any = (), owner: Any = None) -> None:
        self.owner = owner
        super().__init__((key, owner._track(value) if owner else value) for key, value in dict(values).items())

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, self.owner._track(value) if self.owner else value)

    def update(self, *mapping: Any, **more: Any) -> None:
        for key, value in dict(*mapping, **more).items():
            self[key] = value

    def pop(self, key: Any, *default: Any) -> Any:
        present = key in self
        value = super().pop(key, *default)
        if present and self.owner:
            self.owner._untrack(value)
        return value

    def popitem(self) -> tuple[Any, Any]:
        key, value = super().popitem()
        if self.owner:
            self.owner._untrack(value)
        return key, value

    def clear(self) -> None:
        while self:
            self.popitem()
