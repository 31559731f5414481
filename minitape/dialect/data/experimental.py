"""``tf.data.experimental``: the names TF 2.21 still keeps there (``cardinality``, ``AUTOTUNE``...).

>>> import minitape as tf
>>> int(tf.data.experimental.cardinality(tf.data.Dataset.range(3)))
3
"""
from __future__ import annotations

from minitape.core.tensor import Tensor
from minitape.dialect.data.dataset import Dataset
from minitape.dialect.data.structure import AUTOTUNE, INFINITE as INFINITE_CARDINALITY, UNKNOWN as UNKNOWN_CARDINALITY

__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "cardinality"]


def cardinality(dataset: Dataset) -> Tensor:
    """``dataset.cardinality()``: its number of elements, or -1 (infinite) or -2 (unknown), as an int64 scalar.

    >>> import minitape as tf
    >>> int(tf.data.experimental.cardinality(tf.data.Dataset.range(3).repeat()))
    -1
    """
    return dataset.cardinality()
