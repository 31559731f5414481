"""What one element of a dataset is: a structure of arrays, its ``element_spec``, and counts.

Inside the pipeline an element is a *structure* (a tuple, a dict, nested) whose leaves are
NumPy arrays: batching stacks them, padding pads them, and no tape records any of it.
Elements become minitape tensors only at the edges, where a user function or a ``for``
loop sees them (``as_tensors``).  Lists are not structures but values, as in TF:
``[1, 2]`` is one vector.  minitape has no string tensors, so string leaves stay NumPy
``bytes`` arrays all the way (their spec still says ``tf.string``, as TF's does).

``element_spec`` mirrors the structure with a ``tf.TensorSpec`` per leaf (or a
``DatasetSpec`` for the datasets ``window`` makes); a size that varies is ``None``.

>>> import minitape as tf
>>> from minitape.dialect.data import structure
>>> structure.spec_of((np.zeros((2, 3), np.float32), np.int64(1)))
(TensorSpec(shape=(2, 3), dtype=tf.float32, name=None), TensorSpec(shape=(), dtype=tf.int64, name=None))
"""
from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import numpy as np

from minitape.core import dtypes
from minitape.core.conversion import default_dtype, to_array
from minitape.core.errors import InvalidArgumentError
from minitape.core.tensor import Tensor, wrap
from minitape.dialect.functions import TensorSpec

#: ``cardinality()`` of a dataset without end (``repeat()``), and of one whose length is not known
#: without running it (``filter``, ``from_generator``): TensorFlow's numbers.
INFINITE, UNKNOWN = -1, -2
#: ``tf.data.AUTOTUNE``: let the runtime choose (minitape runs one element at a time, so it chooses 1).
AUTOTUNE = -1


class _StringType:
    """``tf.string`` in a spec: the pipeline keeps text as NumPy bytes arrays and hands it out as string tensors."""
    name = "string"

    def __repr__(self) -> str:
        return "tf.string"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, _StringType) or other == "string"

    def __hash__(self) -> int:
        return hash("string")


STRING = _StringType()


class Node:
    """One stage of a pipeline: it makes its elements afresh when asked, and knows their count and spec.

    A ``tf.data.Dataset`` is a handle on the last node of its pipeline; each node holds the nodes it
    pulls from.  Subclasses name the TF dataset class they stand for (``tf_name``, shown by ``repr``).

    >>> import minitape as tf
    >>> from minitape.dialect.data import sources
    >>> node = sources.Range((3,), tf.int64)
    >>> [int(x) for x in node._elements()], node._cardinality(), node.tf_name
    ([0, 1, 2], 3, '_RangeDataset')
    """
    tf_name = "Dataset"

    def _elements(self) -> Iterator[Any]:
        """A fresh iterator over the elements, each a structure of NumPy arrays."""
        raise NotImplementedError

    def _cardinality(self) -> int:
        return UNKNOWN

    def _spec(self) -> Any:
        raise NotImplementedError

    @functools.cached_property
    def element_spec(self) -> Any:
        """The spec of each element, worked out once, when first asked."""
        return self._spec()


class DatasetSpec:
    """The spec of an element that is itself a dataset (what ``window`` yields).

    >>> import minitape as tf
    >>> tf.data.Dataset.range(4).window(2).element_spec
    DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([]))
    """

    def __init__(self, element_spec: Any) -> None:
        self.element_spec = element_spec

    def __repr__(self) -> str:
        return f"DatasetSpec({self.element_spec!r}, TensorShape([]))"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, DatasetSpec) and other.element_spec == self.element_spec


def is_structure(value: Any) -> bool:
    """Tuples and dicts are structures of components; lists are values (one tensor), as in TF."""
    return isinstance(value, tuple | dict)


def map_structure(function: Any, element: Any) -> Any:
    """``element`` with ``function`` applied to each leaf (tuples, named tuples and dicts rebuilt)."""
    if isinstance(element, dict):
        return {key: map_structure(function, value) for key, value in element.items()}
    if isinstance(element, tuple):
        items = [map_structure(function, value) for value in element]
        return type(element)(*items) if hasattr(element, "_fields") else tuple(items)
    return function(element)


def leaves(element: Any) -> list[Any]:
    """The leaves of an element, in TF's order (dict keys sorted); a list is one leaf."""
    if isinstance(element, dict):
        return [leaf for key in sorted(element) for leaf in leaves(element[key])]
    if isinstance(element, tuple):
        return [leaf for item in element for leaf in leaves(item)]
    return [element]


def pack_as(element: Any, flat: list[Any]) -> Any:
    """``element``'s structure with ``flat`` as its leaves."""
    remaining = iter(flat)
    return _rebuild(element, remaining)


def _rebuild(element: Any, remaining: Any) -> Any:
    if isinstance(element, dict):
        rebuilt = {key: _rebuild(element[key], remaining) for key in sorted(element)}
        return {key: rebuilt[key] for key in element}
    if isinstance(element, tuple):
        items = [_rebuild(item, remaining) for item in element]
        return type(element)(*items) if hasattr(element, "_fields") else tuple(items)
    return next(remaining)


def to_array_leaf(value: Any) -> Any:
    """One leaf as the pipeline keeps it: a NumPy array by TF's dtype rules (str as bytes); datasets stay."""
    if isinstance(value, Node):
        return value
    if isinstance(value, Tensor):                     # a string tensor's bytes are kept as NumPy's bytes array
        return value._value.astype("S") if value.dtype is dtypes.string else value.numpy()
    array = np.asarray(value) if isinstance(value, np.ndarray | np.generic) else None
    if array is None:
        probe = np.asarray(value)
        array = probe if probe.dtype.kind in "USO" else to_array(value, default_dtype(value))
    if array.dtype.kind == "U":
        return np.char.encode(array, "utf-8")
    if array.dtype.kind == "O":
        raise InvalidArgumentError(f"tf.data: cannot make a tensor of {value!r} (of type {type(value).__name__}); "
                                   f"elements hold numbers, strings, arrays or tensors.")
    return array


def to_arrays(element: Any) -> Any:
    """An element (tensors, NumPy or Python values, in tuples and dicts) as the pipeline keeps it."""
    return map_structure(to_array_leaf, element)


def as_tensor_leaf(leaf: Any) -> Any:
    """One leaf as the user sees it: a minitape tensor (bytes a ``tf.string`` one; datasets as they are)."""
    if isinstance(leaf, np.ndarray | np.generic) and leaf.dtype.kind == "S":
        return wrap(np.asarray(leaf).astype(object))
    if isinstance(leaf, np.ndarray):
        return wrap(leaf)
    if isinstance(leaf, np.generic):
        return wrap(np.asarray(leaf))
    return leaf


def as_tensors(element: Any) -> Any:
    """An element as a ``for`` loop or a user function sees it."""
    return map_structure(as_tensor_leaf, element)


def leaf_spec(leaf: Any) -> Any:
    """The spec of one leaf: its shape and dtype."""
    if isinstance(leaf, Node):
        return DatasetSpec(leaf.element_spec)
    if isinstance(leaf, Tensor) and leaf.dtype is dtypes.string:
        return tensor_spec(tuple(leaf.shape), STRING)
    dtype = np.asarray(leaf).dtype
    if dtype.kind == "O":              # no tensor (a spec, an object): a traced spec gives up, as it did before strings
        raise TypeError(f"tf.data: {leaf!r} is not a tensor, so it has no spec")
    return tensor_spec(np.shape(leaf), STRING if dtype.kind in "SU" else dtype)


def tensor_spec(shape: Any, dtype: Any) -> TensorSpec:
    """A ``TensorSpec``, ``dtype`` possibly ``tf.string``."""
    if dtype is STRING or dtype == "string":
        spec = TensorSpec(shape, dtypes.uint8)
        spec.dtype = STRING
        return spec
    return TensorSpec(shape, dtype)


def spec_of(element: Any) -> Any:
    """The ``element_spec`` of one element, its sizes all known.

    >>> from minitape.dialect.data import structure
    >>> structure.spec_of({"x": np.zeros(3)})
    {'x': TensorSpec(shape=(3,), dtype=tf.float64, name=None)}
    """
    return map_structure(leaf_spec, element)


def relax(first: Any, second: Any) -> Any:
    """The most specific spec both agree with: sizes that differ become ``None``."""
    def one(a: Any, b: Any) -> Any:
        if isinstance(a, DatasetSpec) or a.shape is None or b.shape is None or len(a.shape) != len(b.shape):
            return a if isinstance(a, DatasetSpec) else tensor_spec(None, a.dtype)
        return tensor_spec(tuple(x if x == y else None for x, y in zip(a.shape, b.shape)), a.dtype)
    return pack_as(first, [one(a, b) for a, b in zip(leaves(first), leaves(second))])


def batched_spec(spec: Any, size: int | None) -> Any:
    """Each leaf's spec with a leading axis of ``size`` (``None``: it varies)."""
    def one(leaf: Any) -> Any:
        shape = None if leaf.shape is None else (size, *leaf.shape)
        return tensor_spec(shape, leaf.dtype)
    return map_structure(one, spec)


def unbatched_spec(spec: Any) -> Any:
    """Each leaf's spec without its leading axis."""
    return map_structure(lambda leaf: tensor_spec(None if leaf.shape is None else leaf.shape[1:], leaf.dtype), spec)


def dummy(spec: Any, unknown: int) -> Any:
    """An element matching ``spec`` filled with ``unknown``, also each size it leaves open (to trace a function).

    Two such elements (1 and 2) tell which output sizes vary with the input: ``tf.fill([n], n)`` too.
    """
    def one(leaf: Any) -> Any:
        if isinstance(leaf, DatasetSpec):
            raise TypeError("a dataset element")
        shape = (unknown,) if leaf.shape is None else tuple(unknown if size is None else size for size in leaf.shape)
        if leaf.dtype is STRING:
            return np.full(shape, b"a" * unknown)
        return np.full(shape, unknown, leaf.dtype.as_numpy_dtype_)
    return map_structure(one, spec)


def describe_lengths(cardinality: int) -> str:
    """Why ``len`` cannot answer, in TF's words."""
    return "The dataset is infinite." if cardinality == INFINITE else "The dataset length is unknown."
