"""``tf.data``: input pipelines, lazy and streaming, over NumPy arrays.

* ``dataset``: ``Dataset``, its iteration, ``element_spec``, ``cardinality`` and every method;
* ``sources``: where a pipeline starts (``from_tensor_slices``, ``from_generator``, ``range``, ``zip``...);
* ``transformations``: element by element (``map``, ``filter``, ``shuffle``, ``repeat``, ``take``...);
* ``batching``: elements grouped (``batch``, ``padded_batch``, ``unbatch``, ``window``);
* ``structure``: what an element is (a structure of arrays) and its spec;
* ``experimental``: ``tf.data.experimental``.

>>> import minitape as tf
>>> x, y = np.arange(8.0).reshape(4, 2), np.array([0, 1, 0, 1])
>>> ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(4, seed=0).batch(2).prefetch(tf.data.AUTOTUNE)
>>> [tuple(part.shape) for part in next(iter(ds))]
[(2, 2), (2,)]
"""
from minitape.dialect.data import experimental
from minitape.dialect.data.dataset import Dataset
from minitape.dialect.data.structure import AUTOTUNE, DatasetSpec
from minitape.dialect.data.structure import INFINITE as INFINITE_CARDINALITY, UNKNOWN as UNKNOWN_CARDINALITY

__all__ = ["AUTOTUNE", "Dataset", "DatasetSpec", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "experimental"]
