"""``keras.utils``' helpers for preparing data: one-hot labels, normalised rows, padded sequences, time-series windows.

They work on NumPy arrays and answer NumPy arrays, as Keras 3's do (a tensor given to
``to_categorical`` or ``normalize`` gets a tensor back).

>>> import minitape as tf
>>> tf.keras.utils.to_categorical([0, 2], num_classes=3)
array([[1., 0., 0.],
       [0., 0., 1.]])
>>> tf.keras.utils.pad_sequences([[1, 2], [3]], maxlen=3)
array([[0, 1, 2],
       [0, 0, 3]], dtype=int32)
"""
from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Sequence
from typing import Any

import numpy as np

from minitape import ops
from minitape.core.tensor import Tensor, convert_to_tensor
from minitape.keras.ops import nn as keras_nn


def to_categorical(x: Any, num_classes: int | None = None) -> Any:
    """Class indices as one-hot rows (float64, as Keras 3's NumPy path); a trailing axis of 1 is dropped.

    >>> import minitape as tf
    >>> tf.keras.utils.to_categorical([[1], [0]]).shape
    (2, 2)
    """
    if isinstance(x, Tensor):
        if len(x.shape) > 1 and x.shape[-1] == 1:
            x = ops.squeeze(x, -1)
        return ops.one_hot(x, num_classes or int(ops.reduce_max(x)) + 1)
    x = np.array(x, dtype="int64")
    shape = x.shape[:-1] if len(x.shape) > 1 and x.shape[-1] == 1 else x.shape
    x = x.reshape(-1)
    num_classes = num_classes or int(np.max(x)) + 1
    categorical = np.zeros((x.shape[0], num_classes))
    categorical[np.arange(x.shape[0]), x] = 1
    return categorical.reshape(shape + (num_classes,))


def normalize(x: Any, axis: int = -1, order: int = 2) -> Any:
    """``x`` divided by its ``order``-norm along ``axis`` (rows of norm 0 left as they are).

    >>> import minitape as tf
    >>> tf.keras.utils.normalize(np.array([[3.0, 4.0]]))
    array([[0.6, 0.8]])
    """
    if isinstance(x, Tensor):
        return keras_nn.normalize(x, axis=axis, order=order)
    x = np.asarray(x)
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis or -1)


def pad_sequences(sequences: Sequence[Sequence[Any]], maxlen: int | None = None, dtype: str = "int32",
                  padding: str = "pre", truncating: str = "pre", value: Any = 0.0) -> np.ndarray:
    """Sequences of different lengths as one array of ``maxlen`` columns, padded and cut at the front (``"pre"``)
    or the back (``"post"``).

    >>> import minitape as tf
    >>> tf.keras.utils.pad_sequences([[1, 2, 3, 4], [5]], maxlen=3, padding="post", truncating="post", value=9)
    array([[1, 2, 3],
           [5, 9, 9]], dtype=int32)
    """
    for word, given in (("Padding", padding), ("Truncating", truncating)):
        if given not in ("pre", "post"):
            raise ValueError(f'{word} type "{given}" not understood')
    rows = [np.asarray(row) for row in sequences]
    maxlen = maxlen if maxlen is not None else max((len(row) for row in rows), default=0)
    item_shape = next((row.shape[1:] for row in rows if len(row)), ())
    padded = np.full((len(rows), maxlen) + item_shape, value, dtype=dtype)
    for i, row in enumerate(rows):
        if not len(row):
            continue
        kept = row[-maxlen:] if truncating == "pre" else row[:maxlen]
        if padding == "post":
            padded[i, :len(kept)] = kept
        else:
            padded[i, maxlen - len(kept):] = kept
    return padded


def _check_windows(length: int, start_index: int | None, end_index: int | None, sampling_rate: int,
                   sequence_stride: int) -> None:
    """Keras 3's argument checks, with its messages."""
    if start_index and not 0 <= start_index < length:
        raise ValueError(f"`start_index` must be 0 or greater and lower than the length of the data. "
                         f"Received: start_index={start_index}, for data of length {length}")
    if end_index and not (start_index or 0) < end_index < length:
        raise ValueError(f"`end_index` must be higher than `start_index` and lower than the length of the data. "
                         f"Received: end_index={end_index}, for data of length {length}")
    for name, given in (("sampling_rate", sampling_rate), ("sequence_stride", sequence_stride)):
        if not 0 < given < length:
            raise ValueError(f"`{name}` must be higher than 0 and lower than the length of the data. "
                             f"Received: {name}={given}, for data of length {length}")


def timeseries_dataset_from_array(data: Any, targets: Any, sequence_length: int, sequence_stride: int = 1,
                                  sampling_rate: int = 1, batch_size: int | None = 128, shuffle: bool = False,
                                  seed: int | None = None, start_index: int | None = None,
                                  end_index: int | None = None) -> Any:
    """A ``tf.data.Dataset`` of sliding windows over ``data`` (with ``targets[start]`` for each, if given).

    Window ``i`` is ``data[s : s + sequence_length * sampling_rate : sampling_rate]`` with ``s`` the
    ``i``-th start (``start_index + i * sequence_stride``).  The windows are cut batch by batch as
    the dataset is read, never all at once.  ``shuffle`` orders the starts as Keras 3 does
    (``np.random.RandomState(seed)``) and then shuffles within a buffer of ``8 * batch_size``.

    >>> import minitape as tf
    >>> series = tf.keras.utils.timeseries_dataset_from_array(np.arange(10), np.arange(10) * 10, sequence_length=3,
    ...                                                        sampling_rate=2, batch_size=2, start_index=1)
    >>> x, y = next(iter(series))
    >>> x.numpy().tolist(), y.numpy().tolist()
    ([[1, 3, 5], [2, 4, 6]], [10, 20])
    """
    data = np.asarray(data)
    _check_windows(len(data), start_index, end_index, sampling_rate, sequence_stride)
    start_index, end_index = start_index or 0, end_index or len(data)
    count = end_index - start_index - (sequence_length - 1) * sampling_rate
    if targets is not None:
        count = min(count, len(targets))
    starts = np.arange(0, count, sequence_stride, dtype="int32")
    if shuffle:
        np.random.RandomState(np.random.randint(1e6) if seed is None else seed).shuffle(starts)
    steps = np.arange(sequence_length, dtype="int32") * sampling_rate
    series = convert_to_tensor(data[start_index:end_index])
    labels = None if targets is None else convert_to_tensor(np.asarray(targets)[start_index:end_index])

    def windows(first: Tensor) -> Any:
        cut = ops.gather(series, first[..., None] + steps)
        return cut if labels is None else (cut, ops.gather(labels, first))

    if importlib.util.find_spec("minitape.dialect.data") is None:
        raise NotImplementedError("timeseries_dataset_from_array builds a tf.data.Dataset, and this minitape has no "
                                  "tf.data yet.")
    data_module = importlib.import_module("minitape.dialect.data")   # tf.data, a layer below Keras
    dataset = data_module.Dataset.from_tensor_slices(starts)
    if batch_size is None:
        return (dataset.shuffle(1024, seed=seed) if shuffle else dataset).map(windows)
    if shuffle:
        dataset = dataset.shuffle(batch_size * 8, seed=seed)
    return dataset.batch(batch_size).map(windows)
