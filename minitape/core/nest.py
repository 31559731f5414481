"""Nested structures (lists, tuples, dicts) of tensors, flattened and rebuilt.

``GradientTape.gradient`` returns its result in the shape its ``sources`` were
given: these two helpers are how.  Dicts are walked in sorted key order, as
TensorFlow's ``tf.nest`` does, and rebuilt in their own order.

>>> from minitape import nest
>>> nest.flatten({"b": [1, 2], "a": 3})
[3, 1, 2]
>>> nest.pack_sequence_as({"b": [1, 2], "a": 3}, ["x", "y", "z"])
{'b': ['y', 'z'], 'a': 'x'}
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any


_NESTS = (list, tuple, dict)      # a tuple of types, not a union: isinstance checks it faster


def is_nested(value: Any) -> bool:
    """Whether ``value`` is a structure (list, tuple or dict) rather than a leaf.

    >>> from minitape import nest
    >>> nest.is_nested([1, 2]), nest.is_nested({"a": 1}), nest.is_nested(3)
    (True, True, False)
    """
    return isinstance(value, _NESTS)


def flatten(structure: Any) -> list[Any]:
    """The leaves of ``structure``, left to right (a non-nested value is its own only leaf).

    >>> from minitape import nest
    >>> nest.flatten([1, (2, 3), {"b": 4, "a": 5}])
    [1, 2, 3, 5, 4]
    >>> nest.flatten(7)
    [7]
    """
    leaves, pending = [], [structure]       # a stack, last child on top: no recursion
    while pending:
        node = pending.pop()
        if not isinstance(node, _NESTS):
            leaves.append(node)
        elif isinstance(node, dict):
            pending.extend(node[key] for key in sorted(node, reverse=True))
        else:
            pending.extend(reversed(node))
    return leaves


def pack_sequence_as(structure: Any, flat: list[Any]) -> Any:
    """Rebuild ``structure`` with its leaves replaced, in order, by ``flat``.

    >>> from minitape import nest
    >>> nest.pack_sequence_as([0, (0, 0)], ["x", "y", "z"])
    ['x', ('y', 'z')]
    """
    # A module-level helper, not a closure calling itself: such a closure is a reference
    # cycle, and would keep the leaves (say, gradients) alive until the garbage collector runs.
    return _rebuild(structure, iter(flat))


def _rebuild(node: Any, leaves: Iterator[Any]) -> Any:
    if not isinstance(node, _NESTS):
        return next(leaves)
    if isinstance(node, dict):
        rebuilt = {key: _rebuild(node[key], leaves) for key in sorted(node)}
        return {key: rebuilt[key] for key in node}
    items = [_rebuild(item, leaves) if isinstance(item, _NESTS) else next(leaves) for item in node]
    if isinstance(node, tuple) and hasattr(node, "_fields"):
        return type(node)(*items)
    return type(node)(items)
