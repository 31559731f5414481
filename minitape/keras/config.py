"""``keras.config``: Keras 3's global settings, the same functions as ``keras.backend``'s.

>>> import minitape as tf
>>> tf.keras.config.backend(), tf.keras.config.epsilon(), tf.keras.config.floatx()
('tensorflow', 1e-07, 'float32')
"""
from minitape.keras.backend import (  # noqa: F401
    backend, epsilon, floatx, image_data_format, set_epsilon, set_floatx, set_image_data_format,
)

__all__ = ["backend", "epsilon", "floatx", "image_data_format", "set_epsilon", "set_floatx", "set_image_data_format"]
