"""Keras layers, one module per family, as Keras 3 groups them:

* ``layer``: ``Layer``, the base class (its sub-layers tracked through ``tracking``);
* ``input_layer``: ``Input``, ``InputLayer`` (the start of a functional model);
* ``core``: ``Dense``, ``Lambda``;
* ``activation``: ``Dropout``, ``ReLU``, ``Activation`` (no variables, no change of shape);
* ``convolutional``: ``Conv2D``;
* ``pooling``: ``MaxPooling2D``, ``AveragePooling2D``, ``GlobalAveragePooling2D``, ``GlobalMaxPooling2D``
  (and Keras' short names: ``MaxPool2D``, ``AvgPool2D``, ``GlobalAvgPool2D``, ``GlobalMaxPool2D``);
* ``normalization``: ``BatchNormalization``, ``LayerNormalization``;
* ``merging``: ``Add``;
* ``reshaping``: ``Flatten``;
* ``convolutional`` also has ``Conv1D`` and ``Conv2DTranspose``; ``pooling1d``: ``MaxPooling1D``,
  ``AveragePooling1D``, ``GlobalAveragePooling1D``, ``GlobalMaxPooling1D`` (and short names);
* ``attention``: ``MultiHeadAttention``, ``Attention``;
* ``advanced_activations``: ``Softmax``, ``LeakyReLU``, ``PReLU``;
* ``reshaping2d``: ``UpSampling2D``, ``ZeroPadding2D``;
* ``embedding``: ``Embedding`` (with ``mask_zero``, a mask for the layers after it: see ``minitape.keras.masking``);
  and ``Masking`` (steps equal to ``mask_value`` marked as padding);
* ``recurrent_cells``: ``SimpleRNNCell``, ``GRUCell``, ``LSTMCell`` (one time step);
* ``recurrent``: ``RNN`` (a cell looped over the time steps);
* ``rnn_layers``: ``SimpleRNN``, ``GRU``, ``LSTM``;
* ``wrappers``: ``Bidirectional``, ``TimeDistributed``;
* ``merging`` also has ``Concatenate``, ``Multiply``, ``Average``, ``Maximum``, ``Minimum``, ``Subtract``, ``Dot``
  and the function forms (``add``, ``concatenate``...); ``reshaping``: ``Reshape``, ``Permute``, ``RepeatVector``;
* ``preprocessing``: ``Rescaling``, ``Normalization``, ``CategoryEncoding``, ``Discretization``;
* ``image_preprocessing``: ``Resizing``, ``CenterCrop``, ``RandomFlip``, ``RandomRotation``, ``RandomZoom``,
  ``RandomTranslation``, ``RandomContrast``, ``RandomBrightness``, ``RandomCrop``;
* ``regularization``: ``GaussianNoise``, ``GaussianDropout``, ``AlphaDropout``, ``SpatialDropout1D``/``2D``,
  ``ActivityRegularization``, ``Identity``; ``reshaping1d``: ``Cropping1D``, ``ZeroPadding1D``, ``UpSampling1D``,
  ``Cropping2D``.

Both spellings of the import work, as with Keras:

>>> import minitape.keras.layers as layers
>>> from minitape.keras import layers as same
>>> layers is same, layers.Conv2D.__name__
(True, 'Conv2D')
"""
from minitape.keras.layers.layer import Layer
from minitape.keras.layers.input_layer import Input, InputLayer
from minitape.keras.layers.core import Dense, Lambda
from minitape.keras.layers.activation import Activation, Dropout, ReLU
from minitape.keras.layers.convolutional import Conv1D, Conv2D, Conv2DTranspose
from minitape.keras.layers.embedding import Embedding
from minitape.keras.layers.merging import Add
from minitape.keras.layers.normalization import BatchNormalization, LayerNormalization
from minitape.keras.layers.pooling import (AveragePooling2D, AvgPool2D, GlobalAveragePooling2D, GlobalAvgPool2D,
                                          GlobalMaxPool2D, GlobalMaxPooling2D, MaxPool2D, MaxPooling2D)
from minitape.keras.layers.reshaping import Flatten
from minitape.keras.layers.recurrent_cells import GRUCell, LSTMCell, SimpleRNNCell
from minitape.keras.layers.recurrent import RNN
from minitape.keras.layers.rnn_layers import GRU, LSTM, SimpleRNN
from minitape.keras.layers.wrappers import Bidirectional, TimeDistributed

__all__ = ["Activation", "Add", "AveragePooling2D", "AvgPool2D", "BatchNormalization", "Conv2D", "Dense", "Dropout",
           "Embedding", "Flatten", "GlobalAveragePooling2D", "GlobalAvgPool2D", "GlobalMaxPool2D", "GlobalMaxPooling2D",
           "Input", "InputLayer", "Lambda", "Layer", "LayerNormalization", "MaxPool2D", "MaxPooling2D", "ReLU"]
from minitape.keras.layers.advanced_activations import LeakyReLU, PReLU, Softmax
from minitape.keras.layers.attention import Attention, MultiHeadAttention
from minitape.keras.layers.pooling1d import (AveragePooling1D, AvgPool1D, GlobalAveragePooling1D, GlobalAvgPool1D,
                                            GlobalMaxPool1D, GlobalMaxPooling1D, MaxPool1D, MaxPooling1D)
from minitape.keras.layers.reshaping2d import UpSampling2D, ZeroPadding2D

__all__ += ["Attention", "AveragePooling1D", "AvgPool1D", "Conv1D", "Conv2DTranspose", "GlobalAveragePooling1D",
            "GlobalAvgPool1D", "GlobalMaxPool1D", "GlobalMaxPooling1D", "LeakyReLU", "MaxPool1D", "MaxPooling1D",
            "MultiHeadAttention", "PReLU", "Softmax", "UpSampling2D", "ZeroPadding2D"]
__all__ += ["Bidirectional", "GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "SimpleRNN", "SimpleRNNCell",
            "TimeDistributed"]
from minitape.keras.layers.merging import (Average, Concatenate, Dot, Maximum, Minimum, Multiply, Subtract, add, average,
                                           concatenate, dot, maximum, minimum, multiply, subtract)
from minitape.keras.layers.reshaping import Permute, RepeatVector, Reshape

__all__ += ["Average", "Concatenate", "Dot", "Maximum", "Minimum", "Multiply", "Permute", "RepeatVector", "Reshape",
            "Subtract", "add", "average", "concatenate", "dot", "maximum", "minimum", "multiply", "subtract"]
from minitape.keras.layers.preprocessing import CategoryEncoding, Discretization, Normalization, Rescaling
from minitape.keras.layers.image_preprocessing import (CenterCrop, RandomBrightness, RandomContrast, RandomCrop,
                                                       RandomFlip, RandomRotation, RandomTranslation, RandomZoom,
                                                       Resizing)

__all__ += ["CategoryEncoding", "CenterCrop", "Discretization", "Normalization", "RandomBrightness", "RandomContrast",
            "RandomCrop", "RandomFlip", "RandomRotation", "RandomTranslation", "RandomZoom", "Rescaling", "Resizing"]
from minitape.keras.layers.regularization import (ActivityRegularization, AlphaDropout, GaussianDropout,
                                                  GaussianNoise, Identity, SpatialDropout1D, SpatialDropout2D)
from minitape.keras.layers.reshaping1d import Cropping1D, Cropping2D, UpSampling1D, ZeroPadding1D

__all__ += ["ActivityRegularization", "AlphaDropout", "Cropping1D", "Cropping2D", "GaussianDropout", "GaussianNoise",
            "Identity", "SpatialDropout1D", "SpatialDropout2D", "UpSampling1D", "ZeroPadding1D"]
from minitape.keras.layers.separable import DepthwiseConv2D, SeparableConv2D

__all__ += ["DepthwiseConv2D", "SeparableConv2D"]
from minitape.keras.layers.convolutional3d import (Conv3D, GlobalAveragePooling3D, GlobalAvgPool3D, GlobalMaxPool3D,
                                                   GlobalMaxPooling3D)

__all__ += ["Conv3D", "GlobalAveragePooling3D", "GlobalAvgPool3D", "GlobalMaxPool3D", "GlobalMaxPooling3D"]
from minitape.keras.layers.embedding import Masking

__all__ += ["Masking"]
