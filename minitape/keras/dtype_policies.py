"""Keras 3's dtype policies, as far as minitape has them: one dtype per layer for its weights and its computation.

``Dense(3, dtype="float64")`` keeps float64 weights and casts its inputs to float64.  Keras'
mixed policies (``"mixed_float16"``: float16 computation over float32 weights) are refused.

>>> import minitape as tf
>>> tf.keras.layers.Dense(1, dtype="float64")(np.ones((1, 2))).dtype
tf.float64
"""
from __future__ import annotations

from typing import Any

from minitape.core import dtypes
def policy_dtype(dtype: Any) -> dtypes.DType:
    """A layer's ``dtype`` argument as the one dtype of its weights and computation (float32 if None); what
    Keras 3 refuses is refused with its words.

    >>> policy_dtype("float64"), policy_dtype(None)
    (tf.float64, tf.float32)
    >>> policy_dtype("float65")
    Traceback (most recent call last):
    ...
    ValueError: Cannot convert 'float65' to a mixed precision DTypePolicy. Valid policies include 'mixed_float16', 'mixed_bfloat16', and the name of any float dtype such as 'float32'.
    """
    if dtype is None:
        return dtypes.float32
    if isinstance(dtype, str) and dtype.startswith("mixed_"):
        raise ValueError(f"minitape has no mixed precision: dtype={dtype!r} (float16 compute, float32 weights) "
                         f"is not supported; give one dtype, such as 'float32' or 'float16'.")
    if isinstance(dtype, int):
        raise ValueError(f"Cannot interpret `dtype` argument. Expected a string or an instance of DTypePolicy. "
                         f"Received: dtype={dtype}")
    try:
        return dtypes.as_dtype(dtype)
    except (TypeError, ValueError):
        raise ValueError(f"Cannot convert {dtype!r} to a mixed precision DTypePolicy. Valid policies include "
                         f"'mixed_float16', 'mixed_bfloat16', and the name of any float dtype such as "
                         f"'float32'.") from None
