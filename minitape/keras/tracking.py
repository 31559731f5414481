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

The owner offers ``track(value)``, which records the layers in ``value`` and returns it
(a plain list or dict made a tracked one), and ``untrack(value)``, which forgets them.
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

    def __init__(self, values: Iterable = (), tracker: Any = None) -> None:
        self.tracker = tracker
        super().__init__(self._track(v) for v in values)

    def append(self, value: Any) -> None:
        super().append(self._track(value))

    def insert(self, index: int, value: Any) -> None:
        super().insert(index, self._track(value))

    def extend(self, values: Iterable) -> None:
        super().extend(self._track(v) for v in values)

    def __iadd__(self, values: Iterable) -> TrackedList:
        self.extend(values)
        return self

    def __setitem__(self, index: Any, value: Any) -> None:
        removed = self[index] if isinstance(index, slice) else [self[index]]
        added = [self._track(v) for v in value] if isinstance(index, slice) else self._track(value)
        super().__setitem__(index, added)
        self._untrack(*removed)

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
        return self.tracker.track(value) if self.tracker else value

    def _untrack(self, *values: Any) -> None:
        for value in values if self.tracker else ():
            self.tracker.untrack(value)


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

    def __init__(self, values: Any = (), tracker: Any = None) -> None:
        self.tracker = tracker
        super().__init__((key, tracker.track(value) if tracker else value) for key, value in dict(values).items())

    def __setitem__(self, key: Any, value: Any) -> None:
        old = self.get(key)
        super().__setitem__(key, self.tracker.track(value) if self.tracker else value)
        if self.tracker and old is not None and old is not value:
            self.tracker.untrack(old)

    def update(self, *mapping: Any, **more: Any) -> None:
        for key, value in dict(*mapping, **more).items():
            self[key] = value

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return self[key]

    def pop(self, key: Any, *default: Any) -> Any:
        present = key in self
        value = super().pop(key, *default)
        if present and self.tracker:
            self.tracker.untrack(value)
        return value

    def popitem(self) -> tuple[Any, Any]:
        key, value = super().popitem()
        if self.tracker:
            self.tracker.untrack(value)
        return key, value

    def __delitem__(self, key: Any) -> None:
        self.pop(key)

    def clear(self) -> None:
        while self:
            self.popitem()
