"""Activation functions by name, as ``keras.activations.get`` finds them.

>>> from minitape.keras import activations
>>> activations.get("relu").__name__
'relu'
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minitape import ops


def linear(x: Any) -> Any:
    """The identity: a layer without an activation.

    >>> import minitape as tf
    >>> tf.keras.activations.linear(tf.constant([-1.0, 2.0])).numpy()
    array([-1.,  2.], dtype=float32)
    """
    return x


relu, sigmoid, tanh, softmax = ops.relu, ops.sigmoid, ops.tanh, ops.softmax     # keras.activations.relu(x)...

_BY_NAME: dict[str, Callable] = {
    "relu": ops.relu, "sigmoid": ops.sigmoid, "tanh": ops.tanh, "softmax": ops.softmax, "linear": linear,
}


def get(identifier: str | Callable | None) -> Callable:
    """The activation named ``identifier`` (or ``identifier`` itself if callable; ``None`` is linear).

    >>> import minitape as tf
    >>> tf.keras.activations.get("tanh") is tf.tanh, tf.keras.activations.get(None) is tf.keras.activations.linear
    (True, True)
    """
    if identifier is None:
        return linear
    if callable(identifier):
        return identifier
    if identifier not in _BY_NAME:
        raise ValueError(f"Unknown activation function: {identifier!r}. Known: {', '.join(sorted(_BY_NAME))}, "
                         f"or pass a callable.")
    return _BY_NAME[identifier]
