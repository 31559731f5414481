"""Transformations that group elements: batch, padded_batch, unbatch and window.

A batch stacks each component of ``batch_size`` consecutive elements along a new first
axis; the spec says ``None`` for that axis unless ``drop_remainder`` makes every batch
full.  A window is not stacked: it is a small dataset of its elements (TF's
``_VariantDataset``), to be batched or flat-mapped further.

>>> import minitape as tf
>>> ds = tf.data.Dataset.range(7).batch(3)
>>> [b.numpy().tolist() for b in ds], ds.element_spec
([[0, 1, 2], [3, 4, 5], [6]], TensorSpec(shape=(None,), dtype=tf.int64, name=None))
>>> windows = tf.data.Dataset.range(7).window(3, drop_remainder=True).flat_map(lambda w: w.batch(3))
>>> [w.numpy().tolist() for w in windows]
[[0, 1, 2], [3, 4, 5]]
"""
from __future__ import annotations

import collections
import itertools
from collections.abc import Iterator
from typing import Any

import numpy as np

from minitape.core.errors import InvalidArgumentError
from minitape.dialect.data import structure


def _chunks(source: structure.Node, size: int, drop_remainder: bool) -> Iterator[list[Any]]:
    """Lists of ``size`` consecutive elements (the last one shorter unless dropped)."""
    elements = source._elements()
    while chunk := list(itertools.islice(elements, size)):
        if len(chunk) < size and drop_remainder:
            return
        yield chunk


def _batch_count(n: int, size: int, drop_remainder: bool) -> int:
    if n < 0:
        return n
    return n // size if drop_remainder else -(-n // size)


def _positive(value: int, what: str) -> int:
    if int(value) <= 0:
        raise InvalidArgumentError(f"{what} must be greater than zero.")
    return int(value)


def _stack(chunk: list[Any]) -> Any:
    """One batch: each component stacked along a new first axis; shapes must agree, as TF requires."""
    columns = [structure.leaves(element) for element in chunk]
    stacked = []
    for component, column in enumerate(zip(*columns)):
        for array in column:
            if np.shape(array) != np.shape(column[0]):
                raise InvalidArgumentError(
                    f"Cannot add tensor to the batch: number of elements does not match. Shapes are: [tensor]: "
                    f"{list(np.shape(array))}, [batch]: {list(np.shape(column[0]))} (component {component} of the "
                    f"elements differs in shape: pad them with padded_batch, or map them to one shape first).")
        stacked.append(np.stack(column))
    return structure.pack_as(chunk[0], stacked)


class Batch(structure.Node):
    """``batch``: ``batch_size`` consecutive elements stacked into one."""
    tf_name = "_BatchDataset"

    def __init__(self, source: structure.Node, batch_size: int, drop_remainder: bool) -> None:
        self.source, self.batch_size = source, _positive(batch_size, "Batch size")
        self.drop_remainder = bool(drop_remainder)

    def _elements(self) -> Iterator[Any]:
        return (_stack(chunk) for chunk in _chunks(self.source, self.batch_size, self.drop_remainder))

    def _cardinality(self) -> int:
        return _batch_count(self.source._cardinality(), self.batch_size, self.drop_remainder)

    def _spec(self) -> Any:
        return structure.batched_spec(self.source.element_spec, self.batch_size if self.drop_remainder else None)


class PaddedBatch(Batch):
    """``padded_batch``: each component padded (with zeros, or ``padding_values``) to one shape, then stacked."""
    tf_name = "_PaddedBatchDataset"

    def __init__(self, source: structure.Node, batch_size: int, padded_shapes: Any, padding_values: Any,
                 drop_remainder: bool) -> None:
        super().__init__(source, batch_size, drop_remainder)
        specs = structure.leaves(source.element_spec)
        if padded_shapes is None:
            for component, spec in enumerate(specs):
                if spec.shape is None:
                    raise ValueError(f"You must provide `padded_shapes` argument because component {component} has "
                                     f"unknown rank.")
            shapes = [spec.shape for spec in specs]
        else:
            shapes = [_shape_of(shape) for shape in _along(padded_shapes, source.element_spec)]
        self.shapes = [tuple(None if size in (None, -1) else int(size) for size in shape) for shape in shapes]
        values = [None] * len(specs) if padding_values is None else _along(padding_values, source.element_spec)
        self.pads = [_pad_value(value, spec) for value, spec in zip(values, specs)]

    def _elements(self) -> Iterator[Any]:
        for chunk in _chunks(self.source, self.batch_size, self.drop_remainder):
            columns = list(zip(*(structure.leaves(element) for element in chunk)))
            padded = [self._pad(column, shape, pad) for column, shape, pad in zip(columns, self.shapes, self.pads)]
            yield structure.pack_as(chunk[0], padded)

    @staticmethod
    def _pad(column: tuple[np.ndarray, ...], shape: tuple[int | None, ...], pad: np.ndarray) -> np.ndarray:
        target = [size if size is not None else max(np.shape(a)[axis] for a in column) for axis, size in
                  enumerate(shape)]
        batch = np.full((len(column), *target), pad, dtype=column[0].dtype)
        for row, array in enumerate(column):
            if np.ndim(array) != len(target) or any(got > want for got, want in zip(np.shape(array), target)):
                raise InvalidArgumentError(f"Attempted to pad to a smaller size than the input element "
                                           f"(padded_batch: an element of shape {list(np.shape(array))} does not "
                                           f"fit the padded shape {target}).")
            batch[(row, *(slice(0, n) for n in np.shape(array)))] = array
        return batch

    def _spec(self) -> Any:
        specs = [structure.tensor_spec(shape, spec.dtype)
                 for shape, spec in zip(self.shapes, structure.leaves(self.source.element_spec))]
        size = self.batch_size if self.drop_remainder else None
        return structure.batched_spec(structure.pack_as(self.source.element_spec, specs), size)


def _along(given: Any, spec: Any) -> list[Any]:
    """``given`` (one value for all, or a structure like ``spec``) as one entry per component."""
    if structure.is_structure(spec) and structure.is_structure(given):
        return structure.leaves(given) if isinstance(given, dict) or not isinstance(spec, dict) else [
            given[key] for key in sorted(spec)]
    return [given] * len(structure.leaves(spec))


def _shape_of(shape: Any) -> tuple[Any, ...]:
    shape = shape.as_list() if hasattr(shape, "as_list") else shape
    return tuple(np.asarray(shape.numpy() if hasattr(shape, "numpy") else shape).tolist())


def _pad_value(value: Any, spec: Any) -> Any:
    if value is None:
        return b"" if spec.dtype is structure.STRING else np.zeros((), spec.dtype.as_numpy_dtype_)
    return structure.to_array_leaf(value)


class Unbatch(structure.Node):
    """``unbatch``: each element split along its first axis."""
    tf_name = "_UnbatchDataset"

    def __init__(self, source: structure.Node) -> None:
        self.source = source

    def _elements(self) -> Iterator[Any]:
        for element in self.source._elements():
            parts = structure.leaves(element)
            if any(np.ndim(part) == 0 for part in parts):
                raise InvalidArgumentError("Input element must have a non-scalar value in each component.")
            rows = np.shape(parts[0])[0]
            if any(np.shape(part)[0] != rows for part in parts):
                raise InvalidArgumentError("Input element must have the same batch size in each component.")
            for row in range(rows):
                yield structure.pack_as(element, [part[row] for part in parts])

    def _cardinality(self) -> int:
        n = self.source._cardinality()
        sizes = {spec.shape[0] if spec.shape else None for spec in structure.leaves(self.source.element_spec)}
        if None in sizes or len(sizes) != 1:
            return structure.UNKNOWN
        return n if n < 0 else n * sizes.pop()

    def _spec(self) -> Any:
        return structure.unbatched_spec(self.source.element_spec)


class WindowPart(structure.Node):
    """One component of one window: a small dataset of the values it holds (TF's ``_VariantDataset``)."""
    tf_name = "_VariantDataset"

    def __init__(self, values: list[Any], spec: Any) -> None:
        self.values, self.spec = values, spec

    def _elements(self) -> Iterator[Any]:
        return iter(self.values)

    def _cardinality(self) -> int:
        return len(self.values)

    def _spec(self) -> Any:
        return self.spec


class Window(structure.Node):
    """``window``: every ``shift`` elements, the next ``size`` (``stride`` apart), as a structure of datasets."""
    tf_name = "_WindowDataset"

    def __init__(self, source: structure.Node, size: int, shift: int | None, stride: int, drop_remainder: bool) -> None:
        self.source, self.size = source, _positive(size, "Window size")
        self.shift = _positive(size if shift is None else shift, "Window shift")
        self.stride, self.drop_remainder = _positive(stride, "Window stride"), bool(drop_remainder)

    def _elements(self) -> Iterator[Any]:
        span = (self.size - 1) * self.stride + 1         # elements a full window reaches over
        elements, buffer, to_skip = self.source._elements(), collections.deque(), 0
        while True:
            for _ in range(to_skip):                     # a shift larger than the buffer skips input
                if next(elements, _END) is _END:
                    return
            buffer.extend(itertools.islice(elements, span - len(buffer)))
            window = list(itertools.islice(buffer, 0, span, self.stride))
            if not window or (len(window) < self.size and self.drop_remainder):
                return
            yield self._window(window)
            to_skip = max(self.shift - len(buffer), 0)
            for _ in range(min(self.shift, len(buffer))):
                buffer.popleft()

    def _window(self, window: list[Any]) -> Any:
        specs = structure.leaves(self.source.element_spec)
        columns = zip(*(structure.leaves(element) for element in window))
        return structure.pack_as(window[0], [WindowPart(list(column), spec) for column, spec in zip(columns, specs)])

    def _cardinality(self) -> int:
        n = self.source._cardinality()
        if n < 0:
            return n
        if not self.drop_remainder:
            return -(-n // self.shift)
        span = (self.size - 1) * self.stride + 1
        return 0 if n < span else (n - span) // self.shift + 1

    def _spec(self) -> Any:
        return structure.map_structure(structure.DatasetSpec, self.source.element_spec)


_END = object()
