"""``keras.utils``: seeding, preparing data (``to_categorical``, ``pad_sequences``, time-series windows), images
on disk (``load_img``, ``img_to_array``...), ``plot_model`` and ``Progbar``.

>>> import minitape as tf
>>> tf.keras.utils.set_random_seed(1)
>>> first = tf.keras.initializers.HeNormal()((2,)).numpy()
>>> tf.keras.utils.set_random_seed(1)
>>> bool((tf.keras.initializers.HeNormal()((2,)).numpy() == first).all())
True
"""
from __future__ import annotations

import random as python_random

import numpy as np

from minitape.core import random
from minitape.keras.data_adapter import unpack_x_y_sample_weight


def set_random_seed(seed: int) -> None:
    """Seed Python's, NumPy's and minitape's random numbers at once (weights, dropout, ``fit``'s shuffling).

    >>> import minitape as tf
    >>> tf.keras.utils.set_random_seed(0)
    >>> a = tf.random.uniform((2,)).numpy()
    >>> tf.keras.utils.set_random_seed(0)
    >>> bool((tf.random.uniform((2,)).numpy() == a).all())
    True
    """
    if not isinstance(seed, int):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed} (of type {type(seed)})")
    python_random.seed(seed)
    np.random.seed(seed)
    random.set_seed(seed)


from minitape.keras.backend import clear_session  # noqa: E402
from minitape.keras.data_utils import (  # noqa: E402
    normalize, pad_sequences, timeseries_dataset_from_array, to_categorical,
)
from minitape.keras.image_utils import array_to_img, img_to_array, load_img, save_img  # noqa: E402
from minitape.keras.plotting import model_to_dot, plot_model  # noqa: E402
from minitape.keras.progbar import Progbar  # noqa: E402

__all__ = ["Progbar", "array_to_img", "clear_session", "img_to_array", "load_img", "model_to_dot", "normalize",
           "pad_sequences", "plot_model", "save_img", "set_random_seed", "timeseries_dataset_from_array",
           "to_categorical", "unpack_x_y_sample_weight"]
from minitape.keras.registration import (  # noqa: E402
    CustomObjectScope, custom_object_scope, get_custom_objects, get_registered_name, get_registered_object,
    register_keras_serializable,
)
from minitape.keras.serialization import deserialize_keras_object, serialize_keras_object  # noqa: E402
__all__ += ["CustomObjectScope", "custom_object_scope", "deserialize_keras_object", "get_custom_objects",
            "get_registered_name", "get_registered_object", "register_keras_serializable", "serialize_keras_object"]
