"""How ``fit``, ``evaluate`` and ``predict`` walk their data, epoch by epoch, as Keras 3's ``EpochIterator`` does.

Arrays are cut into batches of ``batch_size`` rows (shuffled each epoch if asked).  A
``tf.data.Dataset`` or a Python generator already yields batches: each is ``(x,)``,
``(x, y)`` or ``(x, y, sample_weight)`` (or ``x`` alone), and its number of batches is
the dataset's cardinality, or not known until an epoch ends.  With ``steps_per_epoch``
an epoch is that many batches, drawn from one iterator that goes on across epochs (so
a ``repeat()``ed dataset streams on); when the data runs out Keras warns, and so does this.

>>> import minitape as tf
>>> from minitape.keras.data_adapter import EpochIterator
>>> ds = tf.data.Dataset.from_tensor_slices((np.ones((5, 2)), np.zeros(5))).batch(2)
>>> batches = EpochIterator(ds)
>>> batches.steps, [tuple(x.shape) for _, (x, y) in batches.epoch()]
(3, [(2, 2), (2, 2), (1, 2)])
"""
from __future__ import annotations

import types
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

from minitape.core import nest, random
from minitape.core.tensor import constant
from minitape.dialect.data import Dataset, structure

RAN_OUT = ("Your input ran out of data; interrupting training. Make sure that your dataset or generator can generate "
           "at least `steps_per_epoch * epochs` batches. You may need to use the `.repeat()` function when building "
           "your dataset.")


def unpack_x_y_sample_weight(data: Any) -> tuple[Any, Any, Any]:
    """A batch as ``(x, y, sample_weight)``, the missing ones ``None``, as Keras unpacks what a dataset yields.

    >>> import minitape as tf
    >>> tf.keras.utils.unpack_x_y_sample_weight((1, 2))
    (1, 2, None)
    >>> tf.keras.utils.unpack_x_y_sample_weight({"image": 1})
    ({'image': 1}, None, None)
    """
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return data, None, None
    if not 1 <= len(data) <= 3:
        raise ValueError(f"Data is expected to be in format `x`, `(x,)`, `(x, y)`, or `(x, y, sample_weight)`, "
                         f"found: {data}")
    return (*data, *(None,) * (3 - len(data)))


def is_stream(x: Any) -> bool:
    """Whether ``x`` yields its own batches (a Dataset or a generator) rather than arrays to cut.

    >>> import minitape as tf
    >>> from minitape.keras.data_adapter import is_stream
    >>> is_stream(tf.data.Dataset.range(2)), is_stream(x for x in []), is_stream(np.zeros(2))
    (True, True, False)
    """
    return isinstance(x, Dataset | types.GeneratorType)


def _refuse_with_stream(x: Any, y: Any, sample_weight: Any, shuffle: bool) -> None:
    kind = "tf.data.Dataset" if isinstance(x, Dataset) else "generator"
    if y is not None:
        raise ValueError(f"When providing `x` as a {kind}, `y` should not be passed. Instead, the targets should be "
                         f"included as part of the {kind}.")
    if sample_weight is not None:
        raise ValueError(f"When providing `x` as a {kind}, `sample_weights` should not be passed. Instead, the "
                         f"sample weights should be included as part of the {kind}.")
    if shuffle:
        expected = ("(via `.shuffle(buffer_size)`)." if isinstance(x, Dataset) else "")
        warnings.warn(f"`shuffle=True` was passed, but will be ignored since the data `x` was provided as a {kind}. "
                      + (f"The Dataset is expected to already be shuffled {expected}" if isinstance(x, Dataset) else
                         "The generator is expected to yield already-shuffled data."), stacklevel=4)


def as_host_array(data: Any) -> np.ndarray:
    """Inputs or labels on the host; floating ones as float32, as Keras' data adapters give them.

    >>> from minitape.keras.data_adapter import as_host_array
    >>> as_host_array([1.0, 2.0]).dtype, as_host_array([1, 2]).dtype
    (dtype('float32'), dtype('int64'))
    """
    array = np.asarray(data.numpy() if hasattr(data, "numpy") else data)
    return array.astype(np.float32) if np.issubdtype(array.dtype, np.floating) else array


def split_arrays(parts: tuple, validation_split: float) -> tuple[tuple, tuple]:
    """``(x, y, sample_weight)`` (each None, an array or a structure of arrays) cut before the last
    ``validation_split`` of the examples, as Keras' ``validation_split`` holds them out (before any shuffling):
    the training parts, and the held-out ones as ``validation_data``.

    >>> from minitape.keras.data_adapter import split_arrays
    >>> (x, y, w), held_out = split_arrays((np.arange(5.0), np.arange(5), None), 0.4)
    >>> x.tolist(), w, [part.tolist() for part in held_out]
    ([0.0, 1.0, 2.0], None, [[3.0, 4.0], [3, 4]])
    """
    hosted = [None if part is None else nest.pack_sequence_as(part, [as_host_array(a) for a in nest.flatten(part)])
              for part in parts]
    split = int(len(nest.flatten(hosted[0])[0]) * (1 - validation_split))

    def cut(part: Any, rows: slice) -> Any:
        return None if part is None else nest.pack_sequence_as(part, [a[rows] for a in nest.flatten(part)])

    training = tuple(cut(part, slice(None, split)) for part in hosted)
    held_out = tuple(cut(part, slice(split, None)) for part in hosted if part is not None)
    return training, held_out


class EpochIterator:
    """The batches of each epoch, from arrays or from a stream, with the step count the progress bar shows.

    >>> import minitape as tf
    >>> from minitape.keras.data_adapter import EpochIterator
    >>> batches = EpochIterator(np.arange(5.0), np.arange(5), batch_size=2)
    >>> batches.steps, [x.numpy().tolist() for _, (x, y) in batches.epoch()]
    (3, [[0.0, 1.0], [2.0, 3.0], [4.0]])
    """

    def __init__(self, x: Any, y: Any = None, sample_weight: Any = None, batch_size: int | None = None,
                 steps_per_epoch: int | None = None, shuffle: bool = False) -> None:
        self.steps_per_epoch, self.stream = steps_per_epoch, is_stream(x)
        self.iterator: Iterator[Any] | None = None
        if self.stream:
            _refuse_with_stream(x, y, sample_weight, shuffle)
            self.source, self.num_batches = x, None
            if isinstance(x, Dataset):
                count = int(x.cardinality())
                self.num_batches = count if count >= 0 else None
            return
        # x may be a structure of arrays (a model of several inputs): a list, tuple or dict of them
        self.arrays = [nest.pack_sequence_as(part, [as_host_array(a) for a in nest.flatten(part)])
                       for part in (x, y, sample_weight) if part is not None]
        self.rows = len(nest.flatten(self.arrays[0])[0])
        for name, part in zip(("x", "y", "sample_weight"), self.arrays):
            for array in nest.flatten(part):
                if len(array) != self.rows:
                    raise ValueError(f"Data cardinality is ambiguous: x has {self.rows} examples but {name} has "
                                     f"{len(array)}. Make sure all arrays contain the same number of samples.")
        self.batch_size, self.shuffle = batch_size or 32, shuffle
        self.num_batches = -(-self.rows // self.batch_size)
        self.shuffler = np.random.default_rng(random.draw_seed())
        self.seen = 0

    @property
    def spec_batch(self) -> int | None:
        """The batch size every batch has, or None where they differ (a last, smaller batch) or a stream gives them:
        the batch axis of Keras 3's ``tf.data`` element spec, which ``fit`` and ``evaluate`` build a model for.

        >>> from minitape.keras.data_adapter import EpochIterator
        >>> EpochIterator(np.ones(8), batch_size=4).spec_batch, EpochIterator(np.ones(10), batch_size=4).spec_batch
        (4, None)
        """
        full = not self.stream and self.rows % self.batch_size == 0
        return self.batch_size if full and not self.steps_per_epoch else None

    @property
    def steps(self) -> int | None:
        """Batches per epoch: ``steps_per_epoch``, the count known, or ``None`` (the bar counts up).

        >>> import minitape as tf
        >>> from minitape.keras.data_adapter import EpochIterator
        >>> print(EpochIterator(tf.data.Dataset.range(4).filter(lambda x: x > 0)).steps)
        None
        """
        return self.steps_per_epoch or self.num_batches

    def epoch(self) -> Iterator[tuple[int, tuple[Any, ...]]]:
        """``(step, batch)`` for each batch of one epoch; a batch is ``(x,)``, ``(x, y)`` or ``(x, y, weights)``.

        >>> import minitape as tf
        >>> from minitape.keras.data_adapter import EpochIterator
        >>> [(step, batch[0].numpy().tolist()) for step, batch in EpochIterator(np.arange(3), batch_size=2).epoch()]
        [(0, [0, 1]), (1, [2])]
        """
        batches = self._stream_batches() if self.stream else self._array_batches()
        return enumerate(batches)

    def _array_batches(self) -> Iterator[tuple[Any, ...]]:
        """One pass over the arrays; with ``steps_per_epoch``, Keras 3's: one pass goes on across epochs, an
        epoch that finds it spent ends early (with the warning), and the next epoch starts a new pass."""
        if self.steps_per_epoch is None:
            yield from self._array_pass()
            return
        if self.iterator is None:
            self.iterator, self.seen = self._array_pass(), 0
        for _ in range(self.steps_per_epoch):
            if self.seen >= self.num_batches:
                warnings.warn(RAN_OUT, stacklevel=4)
                break
            self.seen += 1
            yield next(self.iterator)
        if self.seen >= self.num_batches:
            self.iterator = None

    def _array_pass(self) -> Iterator[tuple[Any, ...]]:
        order = self.shuffler.permutation(self.rows) if self.shuffle else np.arange(self.rows)
        for start in range(0, self.rows, self.batch_size):
            chosen = order[start:start + self.batch_size]
            yield tuple(nest.pack_sequence_as(part, [constant(a[chosen]) for a in nest.flatten(part)])
                        for part in self.arrays)

    def _stream_batches(self) -> Iterator[tuple[Any, ...]]:
        if self.iterator is None or self.steps_per_epoch is None:
            self.iterator = iter(self.source)
        wanted = self.steps_per_epoch or self.num_batches
        seen = 0
        while wanted is None or seen < wanted:
            batch = next(self.iterator, None)
            if batch is None:
                self.iterator = None                    # the next epoch starts the data again
                if self.steps_per_epoch or self.num_batches is None or seen == 0:
                    warnings.warn(RAN_OUT, stacklevel=4)
                if self.num_batches is None:
                    self.num_batches = seen             # known from now on, as Keras learns it
                return
            seen += 1
            yield _as_batch(batch)


def _as_batch(data: Any) -> tuple[Any, ...]:
    """What a stream yielded, as ``(x,)``, ``(x, y)`` or ``(x, y, sample_weight)`` of tensors, floats as float32
    (Keras 3's layers cast their inputs to float32; here the batch is, once)."""
    parts = list(unpack_x_y_sample_weight(data))
    while parts[-1] is None:
        parts.pop()
    return tuple(None if part is None else structure.as_tensors(structure.map_structure(as_host_array, part))
                 for part in parts)
