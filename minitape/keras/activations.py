"""Activation functions by name, as ``keras.activations.get`` finds them.

>>> from minitape.keras import activations
>>> activations.get("relu").__name__
'relu'
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minitape import ops
from minitape.keras import ops as keras_ops


def linear(x: Any) -> Any:
    """The identity: a layer without an activation.

    >>> import minitape as tf
    >>> tf.keras.activations.linear(tf.constant([-1.0, 2.0])).numpy()
    array([-1.,  2.], dtype=float32)
    """
    return x


relu, sigmoid, tanh, softmax = ops.relu, ops.sigmoid, ops.tanh, ops.softmax     # keras.activations.relu(x)...
exponential, softplus, relu6, selu, log_softmax = ops.exp, ops.softplus, ops.relu6, ops.selu, ops.log_softmax
elu, leaky_relu, silu = keras_ops.elu, keras_ops.leaky_relu, keras_ops.silu     # alpha=1, negative_slope=0.2
swish = silu


def gelu(x: Any, approximate: bool = False) -> Any:
    """The Gaussian error linear unit ``x * Φ(x)``: exact here, where ``keras.ops.gelu`` approximates.

    >>> import minitape as tf
    >>> tf.keras.activations.gelu(tf.constant([-1.0, 1.0])).numpy()
    array([-0.15865526,  0.8413447 ], dtype=float32)
    """
    return keras_ops.gelu(x, approximate=approximate)


def softsign(x: Any) -> Any:
    """``x / (1 + |x|)``: a tanh whose tails approach ±1 slowly.

    >>> import minitape as tf
    >>> tf.keras.activations.softsign(tf.constant([-2.0, 1.0])).numpy()
    array([-0.6666667,  0.5      ], dtype=float32)
    """
    return x / (1.0 + ops.abs(x))


def hard_sigmoid(x: Any) -> Any:
    """The piecewise-linear sigmoid ``relu6(x + 3) / 6``.

    >>> import minitape as tf
    >>> tf.keras.activations.hard_sigmoid(tf.constant([-4.0, 0.0, 1.5])).numpy()
    array([0.  , 0.5 , 0.75], dtype=float32)
    """
    return ops.relu6(x + 3.0) / 6.0


def hard_silu(x: Any) -> Any:
    """``x * hard_sigmoid(x)`` (also called hard swish).

    >>> import minitape as tf
    >>> tf.keras.activations.hard_silu(tf.constant([-4.0, 3.0])).numpy()
    array([-0.,  3.], dtype=float32)
    """
    return x * hard_sigmoid(x)


def mish(x: Any) -> Any:
    """``x * tanh(softplus(x))``.

    >>> import minitape as tf
    >>> tf.keras.activations.mish(tf.constant([0.0, 2.0])).numpy()
    array([0.       , 1.9439589], dtype=float32)
    """
    return x * ops.tanh(ops.softplus(x))


def log_sigmoid(x: Any) -> Any:
    """``log(sigmoid(x))``, computed stably as ``-softplus(-x)``.

    >>> import minitape as tf
    >>> tf.keras.activations.log_sigmoid(tf.constant([0.0])).numpy()
    array([-0.6931472], dtype=float32)
    """
    return -ops.softplus(-x)


hard_swish = hard_silu
_BY_NAME: dict[str, Callable] = {fn.__name__ if name is None else name: fn for name, fn in [
    (None, relu), (None, sigmoid), (None, tanh), (None, softmax), (None, linear), ("exponential", exponential),
    (None, softplus), (None, relu6), (None, selu), (None, log_softmax), (None, elu), (None, leaky_relu),
    ("silu", silu), ("swish", swish), (None, gelu), (None, softsign), (None, hard_sigmoid), ("hard_silu", hard_silu),
    ("hard_swish", hard_swish), (None, mish), (None, log_sigmoid)]}


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
