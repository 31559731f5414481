"""``keras.preprocessing``: the older home of ``keras.utils``' data helpers, which Keras 3 keeps as aliases.

Courses written before Keras 3 still call ``tf.keras.preprocessing.sequence.pad_sequences``; the functions are
the very ones in ``keras.utils``.

>>> import minitape as tf
>>> tf.keras.preprocessing.sequence.pad_sequences([[1, 2], [3]], padding="post")
array([[1, 2],
       [3, 0]], dtype=int32)
>>> tf.keras.preprocessing.sequence.pad_sequences is tf.keras.utils.pad_sequences
True
"""
from __future__ import annotations

import types

from minitape.keras.data_utils import pad_sequences, timeseries_dataset_from_array
from minitape.keras.image_utils import array_to_img, img_to_array, load_img, save_img

#: ``keras.preprocessing.sequence``: padding variable-length sequences.
sequence = types.SimpleNamespace(pad_sequences=pad_sequences)
#: ``keras.preprocessing.image``: images on disk and as arrays.
image = types.SimpleNamespace(array_to_img=array_to_img, img_to_array=img_to_array, load_img=load_img,
                              save_img=save_img)

__all__ = ["image", "sequence", "timeseries_dataset_from_array"]
