"""Keras layers, one module per family, as Keras 3 groups them:

* :mod:`~minitape.keras.layers.core`: ``Layer`` (the base class), ``Dense``, ``Lambda``, ``Dropout``,
  ``ReLU``, ``Activation``;
* :mod:`~minitape.keras.layers.convolutional`: ``Conv2D``;
* :mod:`~minitape.keras.layers.pooling`: ``MaxPooling2D``, ``AveragePooling2D``, ``GlobalAveragePooling2D``;
* :mod:`~minitape.keras.layers.normalization`: ``BatchNormalization``, ``LayerNormalization``;
* :mod:`~minitape.keras.layers.merging`: ``Add``;
* :mod:`~minitape.keras.layers.reshaping`: ``Flatten``;
* :mod:`~minitape.keras.layers.embedding`: ``Embedding``.

Both spellings of the import work, as with Keras:

>>> import minitape.keras.layers as layers
>>> from minitape.keras import layers as same
>>> layers is same, layers.Conv2D.__name__
(True, 'Conv2D')
"""
from minitape.keras.layers.core import Activation, Dense, Dropout, Lambda, Layer, ReLU
from minitape.keras.layers.convolutional import Conv2D
from minitape.keras.layers.embedding import Embedding
from minitape.keras.layers.merging import Add
from minitape.keras.layers.normalization import BatchNormalization, LayerNormalization
from minitape.keras.layers.pooling import AveragePooling2D, GlobalAveragePooling2D, MaxPooling2D
from minitape.keras.layers.reshaping import Flatten

__all__ = ["Activation", "Add", "AveragePooling2D", "BatchNormalization", "Conv2D", "Dense", "Dropout", "Embedding",
           "Flatten", "GlobalAveragePooling2D", "Lambda", "Layer", "LayerNormalization", "MaxPooling2D", "ReLU"]
