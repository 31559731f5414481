"""``keras.backend``: Keras 3's global settings, and the ``tf.keras.backend`` functions older code still calls.

``clear_session()`` resets Keras' default names (the next ``Dense`` is ``dense`` again), as Keras 3's
does; ``floatx()``, ``epsilon()`` and ``image_data_format()`` answer Keras 3's defaults.  The
legacy functions (``get_value``, ``set_value``, ``std``, ``random_normal``...) are the ones
``tf.keras.backend`` keeps from TF 2's Keras, here over minitape's ops.

>>> import minitape as tf
>>> tf.keras.backend.clear_session()
>>> tf.keras.layers.Dense(2).name, tf.keras.layers.Dense(2).name
('dense', 'dense_1')
>>> tf.keras.backend.clear_session()
>>> tf.keras.layers.Dense(2).name
'dense'
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape import ops
from minitape.core import dtypes
from minitape.core import random as tape_random
from minitape.core.tensor import Tensor, Variable, constant as tape_constant, convert_to_tensor
from minitape.keras import naming
from minitape.keras.keras_tensor import KerasTensor
from minitape.keras.ops.promotion import result_type as _result_type

_settings = {"epsilon": 1e-7, "image_data_format": "channels_last"}


def clear_session(free_memory: bool = True) -> None:
    """Forget Keras' global state: default names count from the start again (``dense``, not ``dense_7``).

    >>> import minitape as tf
    >>> tf.keras.backend.clear_session()
    >>> tf.keras.layers.Dense(1).name
    'dense'
    """
    naming._counts.clear()


def get_uid(prefix: str = "") -> int:
    """The next number Keras would give a default name starting ``prefix`` (1 for the first).

    >>> import minitape as tf
    >>> tf.keras.backend.clear_session()
    >>> tf.keras.backend.get_uid("block"), tf.keras.backend.get_uid("block")
    (1, 2)
    """
    naming._counts[prefix] += 1
    return naming._counts[prefix]


def backend() -> str:
    """The name of the backend Keras computes with: ``"tensorflow"``, whose dialect minitape speaks.

    >>> import minitape as tf
    >>> tf.keras.backend.backend()
    'tensorflow'
    """
    return "tensorflow"


def floatx() -> str:
    """The dtype Keras makes weights and casts inputs to: ``"float32"``.

    >>> import minitape as tf
    >>> tf.keras.backend.floatx()
    'float32'
    """
    return "float32"


def set_floatx(value: str) -> None:
    """Set the default float dtype; minitape's layers compute in float32, so only ``"float32"`` is accepted.

    >>> import minitape as tf
    >>> tf.keras.backend.set_floatx("float32")
    >>> tf.keras.backend.set_floatx("float64")
    Traceback (most recent call last):
    NotImplementedError: set_floatx('float64'): minitape's Keras layers compute in float32...
    """
    accepted = {"bfloat16", "float16", "float32", "float64"}
    if value not in accepted:
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {accepted}")
    if value != "float32":
        raise NotImplementedError(f"set_floatx({value!r}): minitape's Keras layers compute in float32; give a "
                                  f"layer dtype= or cast with tf.cast instead.")


def epsilon() -> float:
    """The small number Keras adds to avoid dividing by zero: 1e-7 unless ``set_epsilon`` changed it.

    >>> import minitape as tf
    >>> tf.keras.backend.epsilon()
    1e-07
    """
    return _settings["epsilon"]


def set_epsilon(value: float) -> None:
    """Set what ``epsilon()`` answers.

    >>> import minitape as tf
    >>> tf.keras.backend.set_epsilon(1e-5); tf.keras.backend.epsilon()
    1e-05
    >>> tf.keras.backend.set_epsilon(1e-7)
    """
    _settings["epsilon"] = float(value)


def image_data_format() -> str:
    """Where images keep their channels: ``"channels_last"`` (NHWC), as minitape's layers compute.

    >>> import minitape as tf
    >>> tf.keras.backend.image_data_format()
    'channels_last'
    """
    return _settings["image_data_format"]


def set_image_data_format(data_format: str) -> None:
    """Set the image layout; only ``"channels_last"`` is accepted, the one minitape's image layers compute in.

    >>> import minitape as tf
    >>> tf.keras.backend.set_image_data_format("channels_last")
    """
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"The `data_format` argument must be one of {{'channels_first', 'channels_last'}}. "
                         f"Received: data_format={data_format}")
    if data_format == "channels_first":
        raise NotImplementedError("set_image_data_format('channels_first'): minitape's image layers compute in "
                                  "NHWC (channels_last); transpose the images instead.")


def is_keras_tensor(x: Any) -> bool:
    """Whether ``x`` is a symbolic ``KerasTensor`` (from ``keras.Input``), not a tensor with values.

    >>> import minitape as tf
    >>> tf.keras.backend.is_keras_tensor(tf.keras.Input((2,))), tf.keras.backend.is_keras_tensor(tf.ones(2))
    (True, False)
    """
    return isinstance(x, KerasTensor)


def standardize_dtype(dtype: Any) -> str:
    """A dtype's name as Keras spells it (``tf.float32`` and ``np.float32`` both as ``"float32"``).

    >>> import minitape as tf
    >>> tf.keras.backend.standardize_dtype(tf.int64), tf.keras.backend.standardize_dtype(np.float32)
    ('int64', 'float32')
    """
    return dtypes.as_dtype(dtype).name


def result_type(*dtypes_: Any) -> str:
    """The dtype Keras 3 gives a result computed from values of these dtypes.

    >>> import minitape as tf
    >>> tf.keras.backend.result_type("int32", "float32")
    'float32'
    """
    return _result_type(*[np.zeros((), standardize_dtype(d)) for d in dtypes_])


def is_float_dtype(dtype: Any) -> bool:
    """Whether ``dtype`` is a floating-point one.

    >>> import minitape as tf
    >>> tf.keras.backend.is_float_dtype("float16"), tf.keras.backend.is_float_dtype("int8")
    (True, False)
    """
    return standardize_dtype(dtype).startswith(("float", "bfloat"))


def is_int_dtype(dtype: Any) -> bool:
    """Whether ``dtype`` is an integer one.

    >>> import minitape as tf
    >>> tf.keras.backend.is_int_dtype("uint8")
    True
    """
    return standardize_dtype(dtype).startswith(("int", "uint"))


# --------------------------------------------------------------------------- tf.keras.backend's legacy functions
def get_value(x: Any) -> Any:
    """A tensor's or variable's value as NumPy.

    >>> import minitape as tf
    >>> tf.keras.backend.get_value(tf.Variable([1.0, 2.0]))
    array([1., 2.], dtype=float32)
    """
    return x.numpy() if isinstance(x, Tensor) else np.asarray(x)


def set_value(x: Variable, value: Any) -> None:
    """Assign ``value`` to the variable ``x`` (a learning rate, a weight), in ``x``'s dtype.

    >>> import minitape as tf
    >>> v = tf.Variable([1.0, 2.0])
    >>> tf.keras.backend.set_value(v, [3.0, 4.0]); v.numpy()
    array([3., 4.], dtype=float32)
    """
    x.assign(np.asarray(value, dtype=x.dtype.as_numpy_dtype))


def batch_get_value(tensors: list[Any]) -> list[Any]:
    """``get_value`` of each.

    >>> import minitape as tf
    >>> tf.keras.backend.batch_get_value([tf.constant(1.0)])
    [np.float32(1.0)]
    """
    return [get_value(x) for x in tensors]


def constant(value: Any, dtype: Any = None, shape: Any = None, name: str | None = None) -> Tensor:
    """A constant tensor, float32 (``floatx()``) unless ``dtype`` says otherwise, even for integers.

    >>> import minitape as tf
    >>> tf.keras.backend.constant([1, 2])
    <minitape.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
    """
    return tape_constant(value, dtype=dtype or floatx(), shape=shape)


def std(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The standard deviation over ``axis``; refused for integers, as TensorFlow's ``reduce_std``.

    >>> import minitape as tf
    >>> tf.keras.backend.std(tf.constant([[1.0, 3.0]]), axis=1)
    <minitape.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>
    """
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise TypeError(f"Input must be either real or complex. Received integer type <dtype: '{x.dtype.name}'>.")
    centred = x - ops.reduce_mean(x, axis=axis, keepdims=True)
    return ops.sqrt(ops.reduce_mean(ops.square(centred), axis=axis, keepdims=keepdims))


def square(x: Any) -> Tensor:
    """Elementwise ``x * x``.

    >>> import minitape as tf
    >>> tf.keras.backend.square(tf.constant([2.0])).numpy()
    array([4.], dtype=float32)
    """
    return ops.square(x)


def transpose(x: Any) -> Tensor:
    """``x`` with its axes reversed.

    >>> import minitape as tf
    >>> tf.keras.backend.transpose(tf.constant([[1.0, 2.0]])).shape
    TensorShape([2, 1])
    """
    return ops.transpose(x)


def random_normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None,
                  seed: int | None = None) -> Tensor:
    """Samples from a normal distribution, float32 unless ``dtype`` says otherwise.

    >>> import minitape as tf
    >>> tf.keras.backend.random_normal((2, 3)).shape
    TensorShape([2, 3])
    """
    return tape_random.normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(), seed=seed)


def random_uniform(shape: Any, minval: float = 0.0, maxval: float = 1.0, dtype: Any = None,
                   seed: int | None = None) -> Tensor:
    """Samples from a uniform distribution on ``[minval, maxval)``.

    >>> import minitape as tf
    >>> tf.keras.backend.random_uniform((2,)).dtype
    tf.float32
    """
    return tape_random.uniform(shape, minval=minval, maxval=maxval, dtype=dtype or floatx(), seed=seed)
