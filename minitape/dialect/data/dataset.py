"""``tf.data.Dataset``: a recipe for a stream of elements, run again each time it is iterated.

A dataset holds no elements.  It is a handle on the last stage (a ``structure.Node``) of a
pipeline; each node knows how to produce a fresh Python iterator over its elements, usually
by pulling from the node before it: ``Dataset.range(10**9).map(f).batch(32)`` is three small
objects, and iterating it computes one batch at a time.  The nodes live in ``sources``,
``transformations`` and ``batching``; this class is the boundary where the user's world
(tensors, datasets) meets theirs (NumPy arrays, nodes): a ``for`` loop gets each element as
minitape tensors, the pipeline itself moves NumPy arrays (see ``structure``).  TF runs the
pipeline in C++ threads; minitape runs it in the loop that asks for the next element, so
``prefetch`` and ``num_parallel_calls`` are accepted and change nothing but the class name.

>>> import minitape as tf
>>> dataset = tf.data.Dataset.from_tensor_slices([1, 2, 3, 4]).map(lambda x: x * 10).batch(3)
>>> [batch.numpy().tolist() for batch in dataset]
[[10, 20, 30], [40]]
>>> dataset
<_BatchDataset element_spec=TensorSpec(shape=(None,), dtype=tf.int32, name=None)>
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from minitape.core import dtypes
from minitape.core.tensor import Tensor, constant
from minitape.dialect.data import batching, sources, structure, transformations


class Dataset:
    """A stream of elements: made by a source (``from_tensor_slices``, ``range``...), shaped by transformations.

    >>> import minitape as tf
    >>> for x, y in tf.data.Dataset.from_tensor_slices(([1.0, 2.0], [0, 1])):
    ...     print(x.numpy(), y.numpy())
    1.0 0
    2.0 1
    """

    def __init__(self, node: structure.Node) -> None:
        self._node = node

    def _elements(self) -> Iterator[Any]:
        """A fresh iterator over the elements, each a structure of NumPy arrays (and nodes, for windows)."""
        return self._node._elements()

    def _cardinality(self) -> int:
        return self._node._cardinality()

    @property
    def element_spec(self) -> Any:
        """The structure, shapes and dtypes of each element (a size that varies is ``None``).

        >>> import minitape as tf
        >>> tf.data.Dataset.from_tensor_slices({"x": np.zeros((4, 2), np.float32)}).batch(2).element_spec
        {'x': TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)}
        """
        return self._node.element_spec

    def cardinality(self) -> Tensor:
        """The number of elements as an int64 scalar: ``INFINITE_CARDINALITY`` (-1) or ``UNKNOWN_CARDINALITY`` (-2).

        >>> import minitape as tf
        >>> ds = tf.data.Dataset.range(10)
        >>> int(ds.cardinality()), int(ds.repeat().cardinality()), int(ds.filter(lambda x: x > 3).cardinality())
        (10, -1, -2)
        """
        return constant(self._cardinality(), dtypes.int64)

    def __len__(self) -> int:
        count = self._cardinality()
        if count < 0:
            raise TypeError(structure.describe_lengths(count))
        return count

    def __iter__(self) -> Iterator[Any]:
        return (structure.map_structure(_visible, element) for element in self._elements())

    def __repr__(self) -> str:
        return f"<{self._node.tf_name} element_spec={self.element_spec!r}>"

    def __bool__(self) -> bool:
        return True

    def as_numpy_iterator(self) -> Iterator[Any]:
        """Iterate the elements as NumPy values (strings as ``bytes``), not tensors.

        >>> import minitape as tf
        >>> list(tf.data.Dataset.from_tensor_slices(["a", "bc"]).as_numpy_iterator())
        [b'a', b'bc']
        >>> list(tf.data.Dataset.range(2).batch(2).as_numpy_iterator())
        [array([0, 1])]
        """
        for leaf in structure.leaves(self.element_spec):
            if isinstance(leaf, structure.DatasetSpec):
                raise TypeError(f"`tf.data.Dataset.as_numpy_iterator()` is not supported for datasets that produce "
                                f"values of type {Dataset!r} (iterate the windows, or flat_map them into batches).")
        return (structure.map_structure(_numpy_value, element) for element in self._elements())

    def reduce(self, initial_state: Any, reduce_func: Callable[[Any, Any], Any]) -> Any:
        """Fold the elements into one value: ``state = reduce_func(state, element)`` for each, from ``initial_state``.

        >>> import minitape as tf
        >>> tf.data.Dataset.range(5).reduce(np.int64(0), lambda total, x: total + x).numpy()
        np.int64(10)
        """
        state = structure.as_tensors(structure.to_arrays(initial_state))
        for element in self:
            state = structure.as_tensors(structure.to_arrays(reduce_func(state, element)))
        return state

    # Sources: the datasets that start a pipeline (sources.py).

    @staticmethod
    def from_tensor_slices(tensors: Any, name: str | None = None) -> Dataset:
        """One element per row: slices along the first axis of each tensor of a structure (tuple, dict, nested).

        >>> import minitape as tf
        >>> list(tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": [[3, 4], [5, 6]]}).as_numpy_iterator())
        [{'a': np.int32(1), 'b': array([3, 4], dtype=int32)}, {'a': np.int32(2), 'b': array([5, 6], dtype=int32)}]
        """
        return Dataset(sources.TensorSlices(tensors))

    @staticmethod
    def from_tensors(tensors: Any, name: str | None = None) -> Dataset:
        """A dataset of one element: ``tensors`` whole.

        >>> import minitape as tf
        >>> list(tf.data.Dataset.from_tensors([1, 2]).as_numpy_iterator())
        [array([1, 2], dtype=int32)]
        """
        return Dataset(sources.Tensors(tensors))

    @staticmethod
    def from_generator(generator: Callable[..., Any], output_types: Any = None, output_shapes: Any = None,
                       args: Any = None, output_signature: Any = None, name: str | None = None) -> Dataset:
        """The elements a Python generator yields, called afresh for each iteration, checked against their spec.

        Give the spec as ``output_signature`` (``tf.TensorSpec``s), or, the older way, as ``output_types``
        with optional ``output_shapes``.

        >>> import minitape as tf
        >>> def squares():
        ...     for i in range(3):
        ...         yield i * i
        >>> ds = tf.data.Dataset.from_generator(squares, output_signature=tf.TensorSpec((), tf.int32))
        >>> list(ds.as_numpy_iterator())
        [np.int32(0), np.int32(1), np.int32(4)]
        """
        return Dataset(sources.Generator(generator, output_types, output_shapes, args, output_signature))

    @staticmethod
    def range(*args: int, output_type: Any = dtypes.int64, name: str | None = None) -> Dataset:
        """The numbers of ``range(start, stop, step)`` as scalars (int64 unless ``output_type``), made as they go.

        >>> import minitape as tf
        >>> list(tf.data.Dataset.range(1, 8, 3).as_numpy_iterator())
        [np.int64(1), np.int64(4), np.int64(7)]
        """
        return Dataset(sources.Range(args, output_type))

    @staticmethod
    def zip(*datasets: Any, name: str | None = None) -> Dataset:
        """Elements of several datasets side by side, as a tuple (or the structure given); stops at the shortest.

        >>> import minitape as tf
        >>> list(tf.data.Dataset.zip(tf.data.Dataset.range(3), tf.data.Dataset.range(10, 12)).as_numpy_iterator())
        [(np.int64(0), np.int64(10)), (np.int64(1), np.int64(11))]
        """
        datasets = datasets[0] if len(datasets) == 1 else datasets
        found = structure.leaves(datasets)
        if not all(isinstance(d, Dataset) for d in found):
            advice = (" Python `list` is not supported and you should use `tuple` instead." if
                      any(isinstance(d, list) for d in found) else f" Received: {datasets!r}")
            raise TypeError("Invalid input to `zip`. Inputs are expected to be (nested) structures of "
                            "`tf.data.Dataset` objects." + advice)
        return Dataset(sources.Zip(structure.map_structure(lambda d: d._node, datasets)))

    def concatenate(self, dataset: Dataset, name: str | None = None) -> Dataset:
        """This dataset's elements, then ``dataset``'s (their specs must agree).

        >>> import minitape as tf
        >>> list(tf.data.Dataset.range(2).concatenate(tf.data.Dataset.range(5, 6)).as_numpy_iterator())
        [np.int64(0), np.int64(1), np.int64(5)]
        """
        return Dataset(sources.Concatenate(self._node, _node_of(dataset, "concatenate")))

    # Transformations: each returns a new dataset that pulls from this one (transformations.py, batching.py).

    def map(self, map_func: Callable[..., Any], num_parallel_calls: int | None = None, deterministic: Any = None,
            name: str | None = None) -> Dataset:
        """``map_func`` of each element; a tuple element is passed as separate arguments, a dict as one.

        >>> import minitape as tf
        >>> ds = tf.data.Dataset.from_tensor_slices(([1.0, 2.0], [3, 4]))
        >>> list(ds.map(lambda x, y: x * 2, num_parallel_calls=tf.data.AUTOTUNE).as_numpy_iterator())
        [np.float32(2.0), np.float32(4.0)]
        """
        return Dataset(transformations.Map(self._node, _user(map_func), parallel=num_parallel_calls is not None))

    def filter(self, predicate: Callable[..., Any], name: str | None = None) -> Dataset:
        """The elements for which ``predicate`` (a scalar bool) is true.

        >>> import minitape as tf
        >>> list(tf.data.Dataset.range(6).filter(lambda x: x % 2 == 0).as_numpy_iterator())
        [np.int64(0), np.int64(2), np.int64(4)]
        """
        return Dataset(transformations.Filter(self._node, _user(predicate)))

    def flat_map(self, map_func: Callable[..., Dataset], name: str | None = None) -> Dataset:
        """The elements of the dataset ``map_func`` makes of each element, one dataset after the other.

        >>> import minitape as tf
        >>> list(tf.data.Dataset.range(3).flat_map(lambda n: tf.data.Dataset.range(n)).as_numpy_iterator())
        [np.int64(0), np.int64(0), np.int64(1)]
        """
        return Dataset(transformations.FlatMap(self._node, _user(map_func)))

    def interleave(self, map_func: Callable[..., Dataset], cycle_length: int | None = None, block_length: int = 1,
                   num_parallel_calls: int | None = None, deterministic: Any = None,
                   name: str | None = None) -> Dataset:
        """Like ``flat_map``, but ``cycle_length`` datasets at a time, ``block_length`` elements from each in turn.

        >>> import minitape as tf
        >>> ds = tf.data.Dataset.range(1, 3).interleave(lambda n: tf.data.Dataset.from_tensors(n).repeat(2),
        ...                                            cycle_length=2)
        >>> list(ds.as_numpy_iterator())
        [np.int64(1), np.int64(2), np.int64(1), np.int64(2)]
        """
        return Dataset(transformations.Interleave(self._node, _user(map_func), cycle_length, block_length))

    def shuffle(self, buffer_size: int, seed: int | None = None, reshuffle_each_iteration: bool = True,
                name: str | None = None) -> Dataset:
        """Elements in random order: each comes from a buffer of the next ``buffer_size`` elements.

        A buffer at least as large as the dataset gives a uniform shuffle; a small one only
        moves elements a little.  ``seed`` (or ``tf.random.set_seed`` before) makes the order repeatable.

        >>> import minitape as tf
        >>> sorted(tf.data.Dataset.range(5).shuffle(5, seed=1).as_numpy_iterator()) == list(range(5))
        True
        """
        return Dataset(transformations.Shuffle(self._node, buffer_size, seed, reshuffle_each_iteration))

    def repeat(self, count: int | None = None, name: str | None = None) -> Dataset:
        """The dataset ``count`` times over (``None`` or -1: without end, never held in memory).

        >>> import minitape as tf
        >>> list(tf.data.Dataset.range(2).repeat(2).as_numpy_iterator())
        [np.int64(0), np.int64(1), np.int64(0), np.int64(1)]
        """
        return Dataset(transformations.Repeat(self._node, count))

    def take(self, count: int, name: str | None = None) -> Dataset:
        """The first ``count`` elements (-1: all).

        >>> import minitape as tf
        >>> list(tf.data.Dataset.range(10).repeat().take(3).as_numpy_iterator())
        [np.int64(0), np.int64(1), np.int64(2)]
        """
        return Dataset(transformations.Take(self._node, count))

    def skip(self, count: int, name: str | None = None) -> Dataset:
        """All but the first ``count`` elements (-1: none).

        >>> import minitape as tf
        >>> list(tf.data.Dataset.range(4).skip(2).as_numpy_iterator())
        [np.int64(2), np.int64(3)]
        """
        return Dataset(transformations.Skip(self._node, count))

    def take_while(self, predicate: Callable[..., Any], name: str | None = None) -> Dataset:
        """The elements up to the first for which ``predicate`` is false.

        >>> import minitape as tf
        >>> list(tf.data.Dataset.range(10).take_while(lambda x: x < 3).as_numpy_iterator())
        [np.int64(0), np.int64(1), np.int64(2)]
        """
        return Dataset(transformations.TakeWhile(self._node, _user(predicate)))

    def enumerate(self, start: int = 0, name: str | None = None) -> Dataset:
        """``(index, element)`` pairs, the index an int64 from ``start``.

        >>> import minitape as tf
        >>> list(tf.data.Dataset.from_tensor_slices([7, 8]).enumerate(1).as_numpy_iterator())
        [(np.int64(1), np.int32(7)), (np.int64(2), np.int32(8))]
        """
        return Dataset(sources.Zip((sources.Range((start, np.iinfo(np.int64).max), dtypes.int64), self._node)))

    def cache(self, filename: str = "", name: str | None = None) -> Dataset:
        """Keep the elements in memory after the first complete pass; later passes replay them.

        >>> import minitape as tf
        >>> ds = tf.data.Dataset.range(3).map(lambda x: tf.random.uniform(())).cache()
        >>> list(ds.as_numpy_iterator()) == list(ds.as_numpy_iterator())
        True
        """
        return Dataset(transformations.Cache(self._node, filename))

    def prefetch(self, buffer_size: int, name: str | None = None) -> Dataset:
        """The same elements (TF prepares ``buffer_size`` ahead in a thread; minitape computes each when asked).

        >>> import minitape as tf
        >>> list(tf.data.Dataset.range(2).prefetch(tf.data.AUTOTUNE).as_numpy_iterator())
        [np.int64(0), np.int64(1)]
        """
        return Dataset(transformations.Prefetch(self._node))

    def batch(self, batch_size: int, drop_remainder: bool = False, num_parallel_calls: int | None = None,
              deterministic: Any = None, name: str | None = None) -> Dataset:
        """Stack ``batch_size`` consecutive elements into one (the last one smaller unless ``drop_remainder``).

        >>> import minitape as tf
        >>> list(tf.data.Dataset.range(5).batch(2, drop_remainder=True).as_numpy_iterator())
        [array([0, 1]), array([2, 3])]
        """
        return Dataset(batching.Batch(self._node, batch_size, drop_remainder))

    def padded_batch(self, batch_size: int, padded_shapes: Any = None, padding_values: Any = None,
                     drop_remainder: bool = False, name: str | None = None) -> Dataset:
        """Batch elements of different shapes, padding each to the largest in its batch (or ``padded_shapes``).

        >>> import minitape as tf
        >>> ds = tf.data.Dataset.range(1, 4).map(lambda n: tf.fill([n], n))
        >>> list(ds.padded_batch(2).as_numpy_iterator())
        [array([[1, 0],
               [2, 2]]), array([[3, 3, 3]])]
        """
        return Dataset(batching.PaddedBatch(self._node, batch_size, padded_shapes, padding_values, drop_remainder))

    def unbatch(self, name: str | None = None) -> Dataset:
        """Split each element along its first axis into elements: ``batch`` undone.

        >>> import minitape as tf
        >>> list(tf.data.Dataset.from_tensors([[1, 2], [3, 4]]).unbatch().as_numpy_iterator())
        [array([1, 2], dtype=int32), array([3, 4], dtype=int32)]
        """
        return Dataset(batching.Unbatch(self._node))

    def window(self, size: int, shift: int | None = None, stride: int = 1, drop_remainder: bool = False,
               name: str | None = None) -> Dataset:
        """Windows of ``size`` elements, each a dataset, starting every ``shift`` (``size``) elements.

        >>> import minitape as tf
        >>> windows = tf.data.Dataset.range(5).window(3, shift=2, drop_remainder=True)
        >>> [list(w.as_numpy_iterator()) for w in windows]
        [[np.int64(0), np.int64(1), np.int64(2)], [np.int64(2), np.int64(3), np.int64(4)]]
        """
        return Dataset(batching.Window(self._node, size, shift, stride, drop_remainder))


def _visible(leaf: Any) -> Any:
    """A leaf as the user sees it: a tensor, a NumPy string, or a window's node as a Dataset."""
    return Dataset(leaf) if isinstance(leaf, structure.Node) else structure.as_tensor_leaf(leaf)


def _user(function: Callable[..., Any]) -> Callable[..., Any]:
    """A user's function as the nodes call it: windows passed as Datasets, a Dataset returned as its node."""
    @functools.wraps(function)
    def called(*args: Any) -> Any:
        result = function(*structure.map_structure(_visible, args))
        return result._node if isinstance(result, Dataset) else result
    return called


def _node_of(dataset: Any, method: str) -> structure.Node:
    if not isinstance(dataset, Dataset):
        raise TypeError(f"Dataset.{method} takes a `tf.data.Dataset`, not {type(dataset).__name__}: make one with "
                        f"tf.data.Dataset.from_tensor_slices(...).")
    return dataset._node


def _numpy_value(leaf: Any) -> Any:
    """A leaf as ``as_numpy_iterator`` gives it, as TF does: NumPy scalars for rank 0, a string as ``bytes``."""
    value = leaf[()] if isinstance(leaf, np.ndarray) and leaf.ndim == 0 else leaf
    return bytes(value) if isinstance(value, np.bytes_) else value

