"""Transformations element by element: map, filter, flat_map, interleave, shuffle, repeat, take, skip, cache...

Each wraps the dataset it came from and pulls from it one element at a time, so a
pipeline's memory is what its buffers hold (``shuffle``'s buffer, ``cache``'s copy), never
the whole stream: ``repeat()`` with no count goes on for ever without storing anything.

A user function sees an element as TF passes it: a tuple's components as separate
arguments, anything else (a dict, a single tensor) as one.  Its ``element_spec`` is found
as TF finds it, by tracing: minitape calls the function on zeros of the input's spec,
twice, sizes the spec leaves open set to 1 then to 2, and keeps ``None`` where the two
outputs' sizes differ.  (So a function with a ``print`` prints when the spec is asked.)

>>> import minitape as tf
>>> tf.random.set_seed(0)
>>> ds = tf.data.Dataset.range(100).filter(lambda x: x % 10 == 0).shuffle(4).take(3)
>>> bool(max(ds.as_numpy_iterator()) < 60), int(ds.cardinality())   # 3 drawn from a buffer of 4: all before 60
(True, -2)
"""
from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from minitape.core import random
from minitape.core.errors import InvalidArgumentError
from minitape.dialect.data import structure


def call(function: Callable[..., Any], element: Any) -> Any:
    """``function`` of one element, as TF calls it: a tuple unpacked into arguments, anything else whole."""
    tensors = structure.as_tensors(element)
    return function(*tensors) if type(tensors) is tuple else function(tensors)


def returned(value: Any) -> Any:
    """What a user function returned, as an element (a list returned is a tuple of components, as in TF)."""
    return structure.to_arrays(tuple(value) if isinstance(value, list) else value)


def traced_spec(function: Callable[..., Any], spec: Any, output: Callable[[Any], Any] = returned) -> Any:
    """The spec of ``function``'s outputs, found by calling it on zeros of ``spec`` (None if it cannot be traced)."""
    try:
        specs = [structure.spec_of(output(call(function, structure.dummy(spec, size)))) for size in (1, 2)]
    except Exception:       # the function refuses zeros (a division, a lookup): the caller looks at real elements
        return None
    return structure.relax(*specs)


class Map(structure.Node):
    """``map``: the function's output for each element."""

    def __init__(self, source: structure.Node, function: Callable[..., Any], parallel: bool = False) -> None:
        self.source, self.function = source, function
        self.tf_name = "_ParallelMapDataset" if parallel else "_MapDataset"

    def _elements(self) -> Iterator[Any]:
        return (returned(call(self.function, element)) for element in self.source._elements())

    def _cardinality(self) -> int:
        return self.source._cardinality()

    def _spec(self) -> Any:
        spec = traced_spec(self.function, self.source.element_spec)
        return spec if spec is not None else structure.spec_of(next(self._elements()))


def _refuse_predicate(spec: Any) -> None:
    raise ValueError(f"Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor, but its return type "
                     f"is {spec}.")


def _predicate_value(result: Any) -> bool:
    """A predicate's answer, which must be a scalar bool."""
    array = None if structure.is_structure(result) else structure.to_array_leaf(result)
    if array is None or array.dtype != np.bool_ or array.shape != ():
        _refuse_predicate(structure.spec_of(returned(result)))
    return bool(array)


def _check_predicate(predicate: Callable[..., Any], spec: Any) -> None:
    """Trace the predicate once, as TF does when the dataset is made, to refuse a non-boolean one early."""
    output = traced_spec(predicate, spec)
    if output is not None and not (isinstance(output, structure.TensorSpec) and output.dtype == np.bool_
                                   and output.shape == ()):
        _refuse_predicate(output)


class Filter(structure.Node):
    """``filter``: the elements the predicate keeps."""
    tf_name = "_FilterDataset"

    def __init__(self, source: structure.Node, predicate: Callable[..., Any]) -> None:
        _check_predicate(predicate, source.element_spec)
        self.source, self.predicate = source, predicate

    def _elements(self) -> Iterator[Any]:
        return (element for element in self.source._elements() if _predicate_value(call(self.predicate, element)))

    def _spec(self) -> Any:
        return self.source.element_spec


class TakeWhile(Filter):
    """``take_while``: the elements until the predicate first says no."""
    tf_name = "_TakeWhileDataset"

    def _elements(self) -> Iterator[Any]:
        return itertools.takewhile(lambda element: _predicate_value(call(self.predicate, element)),
                                   self.source._elements())


def _dataset_of(function: Callable[..., Any], element: Any) -> structure.Node:
    made = call(function, element)
    if not isinstance(made, structure.Node):
        raise TypeError(f"The `map_func` argument must return a `Dataset` object. Got {type(made)!r}.")
    return made


class FlatMap(structure.Node):
    """``flat_map``: the elements of each element's dataset, in turn."""
    tf_name = "_FlatMapDataset"

    def __init__(self, source: structure.Node, function: Callable[..., structure.Node]) -> None:
        self.source, self.function = source, function

    def _elements(self) -> Iterator[Any]:
        for element in self.source._elements():
            yield from _dataset_of(self.function, element)._elements()

    def _spec(self) -> Any:
        spec = traced_spec(self.function, self.source.element_spec, output=lambda made: made.element_spec)
        return spec if spec is not None else _dataset_of(self.function, next(self.source._elements())).element_spec


class Interleave(FlatMap):
    """``interleave``: ``cycle_length`` element datasets open at once, ``block_length`` elements from each in turn.

    The order is TF's deterministic one; ``cycle_length=None`` (TF: the CPU count) is ``os.cpu_count()``.
    """
    tf_name = "_InterleaveDataset"

    def __init__(self, source: structure.Node, function: Callable[..., structure.Node], cycle_length: int | None,
                 block_length: int) -> None:
        super().__init__(source, function)
        self.cycle_length = os.cpu_count() or 1 if cycle_length in (None, structure.AUTOTUNE) else int(cycle_length)
        self.block_length = int(block_length)

    def _elements(self) -> Iterator[Any]:
        # TF's InterleaveDatasetOp, step by step: fill an empty slot from the input, else take from the slot's
        # dataset until its block is done (or it ends), then move to the next slot.
        inputs, slots = self.source._elements(), [None] * self.cycle_length
        index, taken, input_done = 0, 0, False
        while not input_done or any(slot is not None for slot in slots):
            if slots[index] is not None:
                element = next(slots[index], _END)
                if element is not _END:
                    yield element
                    taken += 1
                    if taken < self.block_length:
                        continue
                else:
                    slots[index] = None
            elif not input_done:
                element = next(inputs, _END)
                input_done = element is _END
                if not input_done:
                    slots[index] = _dataset_of(self.function, element)._elements()
                continue
            index, taken = (index + 1) % self.cycle_length, 0


_END = object()


class Shuffle(structure.Node):
    """``shuffle``: each element drawn at random from a buffer of the next ``buffer_size`` ones."""
    tf_name = "_ShuffleDataset"

    def __init__(self, source: structure.Node, buffer_size: int, seed: int | None,
                 reshuffle_each_iteration: bool) -> None:
        if int(buffer_size) <= 0:
            raise InvalidArgumentError("buffer_size must be greater than zero or UNKNOWN_CARDINALITY (shuffle).")
        self.source, self.buffer_size = source, int(buffer_size)
        # No seed: one drawn from minitape's global source now, so tf.random.set_seed before makes it repeatable.
        self.seed = random.draw_seed() if seed is None else int(seed)
        self.reshuffle, self.passes = reshuffle_each_iteration, 0

    def _elements(self) -> Iterator[Any]:
        generator = np.random.default_rng([self.seed, self.passes] if self.reshuffle else self.seed)
        self.passes += 1
        inputs = self.source._elements()
        buffer = list(itertools.islice(inputs, self.buffer_size))
        while buffer:
            pick = int(generator.integers(len(buffer)))
            yield buffer[pick]
            following = next(inputs, _END)
            if following is not _END:
                buffer[pick] = following
            else:
                buffer[pick] = buffer[-1]
                buffer.pop()

    def _cardinality(self) -> int:
        return self.source._cardinality()

    def _spec(self) -> Any:
        return self.source.element_spec


class Repeat(structure.Node):
    """``repeat``: the source iterated again, ``count`` times or without end."""
    tf_name = "_RepeatDataset"

    def __init__(self, source: structure.Node, count: int | None) -> None:
        self.source, self.count = source, -1 if count is None else int(count)

    def _elements(self) -> Iterator[Any]:
        passes = itertools.count() if self.count < 0 else range(self.count)
        for _ in passes:
            empty = True
            for element in self.source._elements():
                empty = False
                yield element
            if empty:           # an empty dataset repeated for ever is empty, not a hang
                return

    def _cardinality(self) -> int:
        n = self.source._cardinality()
        if self.count == 0 or n == 0:
            return 0
        if self.count < 0 or n == structure.INFINITE:
            return structure.INFINITE if n != structure.UNKNOWN else structure.UNKNOWN
        return structure.UNKNOWN if n == structure.UNKNOWN else n * self.count

    def _spec(self) -> Any:
        return self.source.element_spec


class Take(structure.Node):
    """``take``: the first ``count`` elements."""
    tf_name = "_TakeDataset"

    def __init__(self, source: structure.Node, count: int) -> None:
        self.source, self.count = source, int(count)

    def _elements(self) -> Iterator[Any]:
        return self.source._elements() if self.count < 0 else itertools.islice(self.source._elements(), self.count)

    def _cardinality(self) -> int:
        n = self.source._cardinality()
        if self.count < 0 or (n == structure.UNKNOWN and self.count > 0):
            return n
        return self.count if n == structure.INFINITE else min(n, self.count)

    def _spec(self) -> Any:
        return self.source.element_spec


class Skip(Take):
    """``skip``: all but the first ``count`` elements."""
    tf_name = "_SkipDataset"

    def _elements(self) -> Iterator[Any]:
        if self.count < 0:
            return iter(())
        return itertools.islice(self.source._elements(), self.count, None)

    def _cardinality(self) -> int:
        n = self.source._cardinality()
        if n < 0:
            return n
        return 0 if self.count < 0 else max(n - self.count, 0)


class Cache(Take):
    """``cache``: the first complete pass is kept in memory (also when TF would write ``filename``) and replayed."""
    tf_name = "CacheDataset"

    def __init__(self, source: structure.Node, filename: str = "") -> None:
        super().__init__(source, -1)
        self.filename, self.cached = filename, None

    def _elements(self) -> Iterator[Any]:
        if self.cached is not None:
            yield from self.cached
            return
        seen = []
        for element in self.source._elements():
            seen.append(element)
            yield element
        self.cached = seen          # only a pass that reached the end is kept, as TF does


class Prefetch(Take):
    """``prefetch``: the same elements (minitape computes each when the loop asks for it)."""
    tf_name = "_PrefetchDataset"

    def __init__(self, source: structure.Node) -> None:
        super().__init__(source, -1)
