"""``keras.utils``: the one helper the course needs.

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


__all__ = ["set_random_seed", "unpack_x_y_sample_weight"]
