"""The datasets a pipeline starts from: tensors sliced or whole, a generator, a range; and zip, concatenate.

Each holds only what it was given (the arrays, the generator function, the range's
bounds) and produces elements as they are asked for: ``Dataset.range(10**12)`` costs
nothing until it is iterated.

>>> import minitape as tf
>>> features, labels = np.arange(6.0).reshape(3, 2), np.array([0, 1, 0])
>>> dataset = tf.data.Dataset.from_tensor_slices((features, labels))
>>> dataset
<_TensorSliceDataset element_spec=(TensorSpec(shape=(2,), dtype=tf.float64, name=None), \
TensorSpec(shape=(), dtype=tf.int64, name=None))>
>>> len(dataset)
3
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from minitape.core import dtypes
from minitape.core.errors import InvalidArgumentError
from minitape.dialect.data import structure


class TensorSlices(structure.Node):
    """``from_tensor_slices``: row ``i`` of every array of the structure is element ``i``."""
    tf_name = "_TensorSliceDataset"

    def __init__(self, tensors: Any) -> None:
        self.arrays = structure.to_arrays(tensors)
        lengths = [np.shape(leaf)[0] if np.ndim(leaf) else None for leaf in structure.leaves(self.arrays)]
        if None in lengths:
            raise ValueError("Unbatching a tensor is only supported for rank >= 1 (from_tensor_slices slices each "
                             "tensor along its first axis: give tensors of rank 1 or more).")
        if len(set(lengths)) > 1:
            raise ValueError(f"Dimensions {lengths[0]} and {next(n for n in lengths if n != lengths[0])} are not "
                             f"compatible (from_tensor_slices: every tensor of the structure needs the same number "
                             f"of rows, one per element).")
        self.length = lengths[0]

    def _elements(self) -> Iterator[Any]:
        for row in range(self.length):
            yield structure.map_structure(lambda array: array[row], self.arrays)

    def _cardinality(self) -> int:
        return self.length

    def _spec(self) -> Any:
        return structure.unbatched_spec(structure.spec_of(self.arrays))


class Tensors(structure.Node):
    """``from_tensors``: one element, the structure given."""
    tf_name = "_TensorDataset"

    def __init__(self, tensors: Any) -> None:
        self.element = structure.to_arrays(tensors)

    def _elements(self) -> Iterator[Any]:
        yield self.element

    def _cardinality(self) -> int:
        return 1

    def _spec(self) -> Any:
        return structure.spec_of(self.element)


class Range(structure.Node):
    """``Dataset.range``: Python's ``range`` of scalars, made one at a time."""
    tf_name = "_RangeDataset"

    def __init__(self, args: tuple[int, ...], dtype: Any) -> None:
        if not 1 <= len(args) <= 3:
            raise ValueError(f"Invalid `args`. The length of `args` should be between 1 and 3 but was {len(args)}.")
        self.numbers = range(*(int(arg) for arg in args))
        self.dtype = dtypes.as_dtype(dtype)

    def _elements(self) -> Iterator[Any]:
        kind = self.dtype.as_numpy_dtype_
        return (np.asarray(number, kind) for number in self.numbers)

    def _cardinality(self) -> int:
        return len(self.numbers)

    def _spec(self) -> Any:
        return structure.tensor_spec((), self.dtype)


class Generator(structure.Node):
    """``from_generator``: what a fresh call of the generator yields, each value checked against the spec."""
    tf_name = "_FlatMapDataset"         # TF builds it as a flat_map over a dataset of generator ids

    def __init__(self, generator: Callable[..., Any], output_types: Any, output_shapes: Any, args: Any,
                 output_signature: Any) -> None:
        if not callable(generator):
            raise TypeError("`generator` must be a Python callable.")
        if output_signature is not None and (output_types is not None or output_shapes is not None):
            raise TypeError("The `output_types` argument can not be used together with the `output_signature` "
                            "argument.")
        if output_signature is None and output_types is None:
            raise TypeError("The `output_signature` argument must be set.")
        self.generator, self.args = generator, tuple(args or ())
        self.signature = output_signature if output_signature is not None else _signature(output_types, output_shapes)

    def _elements(self) -> Iterator[Any]:
        args = [structure.map_structure(_host_value, structure.to_arrays(arg)) for arg in self.args]
        for value in self.generator(*args):
            yield _checked(value, self.signature)

    def _spec(self) -> Any:
        return structure.map_structure(lambda spec: structure.tensor_spec(spec.shape, spec.dtype), self.signature)


def _host_value(leaf: Any) -> Any:
    return leaf[()] if isinstance(leaf, np.ndarray) and leaf.ndim == 0 else leaf


def _signature(output_types: Any, output_shapes: Any) -> Any:
    """TF 1's way of giving a generator's spec: dtypes, and shapes (unknown where not given)."""
    types = structure.leaves(output_types)
    shapes = [None] * len(types) if output_shapes is None else [
        None if shape is None else tuple(shape) for shape in _shape_leaves(output_shapes, output_types)]
    specs = [structure.tensor_spec(shape, kind) for kind, shape in zip(types, shapes)]
    return structure.pack_as(output_types, specs)


def _shape_leaves(shapes: Any, types: Any) -> list[Any]:
    """The shapes given for each dtype: a shape is a list or TensorShape, so it is read along the dtypes' structure."""
    if isinstance(types, tuple | dict):
        keys = sorted(types) if isinstance(types, dict) else range(len(types))
        return [shape for key in keys for shape in _shape_leaves(shapes[key], types[key])]
    return [shapes]


def _checked(value: Any, signature: Any) -> Any:
    """A generated value in the signature's structure, each leaf of the spec's dtype and a compatible shape."""
    if isinstance(signature, tuple) and isinstance(value, list):
        value = tuple(value)
    specs, values = structure.leaves(signature), structure.leaves(value)
    if len(specs) != len(values):
        raise InvalidArgumentError(f"TypeError: `generator` yielded an element that did not match the expected "
                                   f"structure. The expected structure was {signature}, but the yielded element "
                                   f"was {value}.")
    return structure.pack_as(signature, [_checked_leaf(v, spec) for v, spec in zip(values, specs)])


def _checked_leaf(value: Any, spec: Any) -> np.ndarray:
    # As TF's generator op: NumPy converts each value to the spec's dtype (so 1.5 becomes int 1, silently).
    try:
        if spec.dtype is structure.STRING:
            array = structure.to_array_leaf(value)
            if array.dtype.kind != "S":
                raise TypeError
        else:
            value = value.numpy() if hasattr(value, "numpy") else value
            array = np.asarray(value, dtype=spec.dtype.as_numpy_dtype_)
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"TypeError: `generator` yielded an element that could not be converted to the "
                                   f"expected type. The expected type was {spec.dtype.name}, but the yielded element "
                                   f"was {value}.") from None
    if spec.shape is not None and (array.ndim != len(spec.shape) or any(
            want is not None and want != got for want, got in zip(spec.shape, array.shape))):
        raise InvalidArgumentError(f"TypeError: `generator` yielded an element of shape {array.shape} where an "
                                   f"element of shape {spec.shape} was expected.")
    return array


class Zip(structure.Node):
    """``Dataset.zip`` (and ``enumerate``): one element from each dataset of a structure, until one runs out."""
    tf_name = "_ZipDataset"

    def __init__(self, datasets: Any) -> None:
        self.datasets = datasets

    def _elements(self) -> Iterator[Any]:
        iterators = [d._elements() for d in structure.leaves(self.datasets)]
        while True:
            row = []
            for iterator in iterators:
                element = next(iterator, _END)
                if element is _END:
                    return
                row.append(element)
            yield structure.pack_as(self.datasets, row)

    def _cardinality(self) -> int:
        counts = [d._cardinality() for d in structure.leaves(self.datasets)]
        if structure.UNKNOWN in counts:
            return structure.UNKNOWN
        finite = [n for n in counts if n != structure.INFINITE]
        return min(finite) if finite else structure.INFINITE

    def _spec(self) -> Any:
        return structure.map_structure(lambda d: d.element_spec, self.datasets)


_END = object()


class Concatenate(structure.Node):
    """``concatenate``: one dataset's elements, then the other's."""
    tf_name = "_ConcatenateDataset"

    def __init__(self, first: structure.Node, second: structure.Node) -> None:
        if not _compatible(first.element_spec, second.element_spec):
            raise TypeError(f"Incompatible dataset elements:\n  {first.element_spec} vs.   {second.element_spec}")
        self.first, self.second = first, second

    def _elements(self) -> Iterator[Any]:
        yield from self.first._elements()
        yield from self.second._elements()

    def _cardinality(self) -> int:
        counts = (self.first._cardinality(), self.second._cardinality())
        if structure.INFINITE in counts:
            return structure.INFINITE
        return structure.UNKNOWN if structure.UNKNOWN in counts else sum(counts)

    def _spec(self) -> Any:
        return structure.relax(self.first.element_spec, self.second.element_spec)


def _compatible(first: Any, second: Any) -> bool:
    """The same structure, the same dtypes, and ranks that agree where both are known."""
    if type(first) is not type(second) and (structure.is_structure(first) or structure.is_structure(second)):
        return False
    a, b = structure.leaves(first), structure.leaves(second)
    if len(a) != len(b) or (isinstance(first, dict) and sorted(first) != sorted(second)):
        return False
    return all(x.dtype == y.dtype and (x.shape is None or y.shape is None or len(x.shape) == len(y.shape))
               for x, y in zip(a, b))
