"""``keras.ops``' neural-network functions: activations, ``softmax``, ``one_hot``, ``normalize``, cross-entropies.

>>> from minitape.keras import ops
>>> ops.normalize([[3.0, 4.0]]).numpy()
array([[0.6, 0.8]], dtype=float32)
"""
from __future__ import annotations

from typing import Any

from minitape import ops as tape_ops
from minitape.core.tensor import Tensor
from minitape.keras.ops.promotion import FLOATX, as_tensor, floating

_EPSILON = 1e-7       # keras.config.epsilon()


def _real(x: Any) -> Tensor:
    return as_tensor(x, floating(x))


def relu(x: Any) -> Tensor:
    """``max(x, 0)`` elementwise.

    >>> from minitape.keras import ops
    >>> ops.relu([-1.0, 2.0]).numpy()
    array([0., 2.], dtype=float32)
    """
    return tape_ops.relu(_real(x))


def relu6(x: Any) -> Tensor:
    """``min(max(x, 0), 6)`` elementwise.

    >>> from minitape.keras import ops
    >>> ops.relu6([-1.0, 7.0]).numpy()
    array([0., 6.], dtype=float32)
    """
    return tape_ops.relu6(_real(x))


def sigmoid(x: Any) -> Tensor:
    """``1 / (1 + exp(-x))`` elementwise.

    >>> from minitape.keras import ops
    >>> ops.sigmoid([0.0]).numpy()
    array([0.5], dtype=float32)
    """
    return tape_ops.sigmoid(_real(x))


def softplus(x: Any) -> Tensor:
    """``log(1 + exp(x))`` elementwise.

    >>> from minitape.keras import ops
    >>> ops.softplus([0.0]).numpy()
    array([0.6931472], dtype=float32)
    """
    return tape_ops.softplus(_real(x))


def silu(x: Any) -> Tensor:
    """``x * sigmoid(x)`` (also called swish).

    >>> from minitape.keras import ops
    >>> ops.silu([0.0]).numpy()
    array([0.], dtype=float32)
    """
    x = _real(x)
    return x * tape_ops.sigmoid(x)


swish = silu


def gelu(x: Any, approximate: bool = True) -> Tensor:
    """The Gaussian error linear unit; Keras 3 uses the tanh approximation by default.

    >>> from minitape.keras import ops
    >>> ops.gelu([0.0]).numpy()
    array([0.], dtype=float32)
    """
    return tape_ops.gelu(_real(x), approximate=approximate)


def elu(x: Any, alpha: float = 1.0) -> Tensor:
    """``x`` above 0, ``alpha * (exp(x) - 1)`` below.

    >>> from minitape.keras import ops
    >>> ops.elu([1.0]).numpy()
    array([1.], dtype=float32)
    """
    x = _real(x)
    y = tape_ops.elu(x)
    return y if alpha == 1.0 else tape_ops.where(x > 0, y, alpha * y)


def selu(x: Any) -> Tensor:
    """The scaled ELU of self-normalising networks.

    >>> from minitape.keras import ops
    >>> ops.selu([0.0]).numpy()
    array([0.], dtype=float32)
    """
    return tape_ops.selu(_real(x))


def leaky_relu(x: Any, negative_slope: float = 0.2) -> Tensor:
    """``x`` above 0, ``negative_slope * x`` below.

    >>> from minitape.keras import ops
    >>> ops.leaky_relu([-1.0, 1.0]).numpy()
    array([-0.2,  1. ], dtype=float32)
    """
    return tape_ops.leaky_relu(_real(x), alpha=negative_slope)


def softmax(x: Any, axis: int = -1) -> Tensor:
    """``exp(x)`` normalised to sum to 1 along ``axis``.

    >>> from minitape.keras import ops
    >>> ops.softmax([0.0, 0.0]).numpy()
    array([0.5, 0.5], dtype=float32)
    """
    return tape_ops.softmax(_real(x), axis=axis)


def log_softmax(x: Any, axis: int = -1) -> Tensor:
    """``log(softmax(x))``, computed stably.

    >>> from minitape.keras import ops
    >>> ops.log_softmax([0.0, 0.0]).numpy()
    array([-0.6931472, -0.6931472], dtype=float32)
    """
    return tape_ops.log_softmax(_real(x), axis=axis)


def one_hot(x: Any, num_classes: int, axis: int = -1, dtype: Any = None) -> Tensor:
    """Each integer of ``x`` as a row with 1 at that index, float32 unless ``dtype`` says otherwise.

    >>> from minitape.keras import ops
    >>> ops.one_hot([0, 2], 3).numpy()
    array([[1., 0., 0.],
           [0., 0., 1.]], dtype=float32)
    """
    return tape_ops.one_hot(as_tensor(x), num_classes, axis=axis, dtype=dtype or FLOATX)


def normalize(x: Any, axis: int = -1, order: int = 2, epsilon: float | None = None) -> Tensor:
    """``x`` divided by its ``order``-norm along ``axis`` (at least ``epsilon``, so zero rows stay zero).

    >>> from minitape.keras import ops
    >>> ops.normalize([[0.0, 0.0], [1.0, 1.0]], order=1).numpy()
    array([[0. , 0. ],
           [0.5, 0.5]], dtype=float32)
    """
    x = _real(x)
    eps = _EPSILON if epsilon is None else epsilon
    if order == 2:
        squares = tape_ops.reduce_sum(tape_ops.square(x), axis=axis, keepdims=True)
        return x * tape_ops.pow(tape_ops.maximum(squares, eps * eps), -0.5)   # as Keras: rsqrt of the clipped squares
    norms = tape_ops.norm(x, ord=order, axis=axis, keepdims=True)
    return x / tape_ops.maximum(norms, eps)


def _probabilities(output: Tensor, from_logits: bool, axis: int) -> Tensor:
    """Log-probabilities: of logits, or of probabilities renormalised and clipped as Keras does."""
    if from_logits:
        return tape_ops.log_softmax(output, axis=axis)
    output = output / tape_ops.reduce_sum(output, axis=axis, keepdims=True)
    return tape_ops.log(tape_ops.clip_by_value(output, _EPSILON, 1.0 - _EPSILON))


def categorical_crossentropy(target: Any, output: Any, from_logits: bool = False, axis: int = -1) -> Tensor:
    """Cross-entropy of one-hot (or soft) ``target`` and predicted ``output``, per example.

    >>> from minitape.keras import ops
    >>> ops.categorical_crossentropy([[0.0, 1.0]], [[0.5, 0.5]]).numpy()
    array([0.6931472], dtype=float32)
    """
    output = _real(output)
    target = as_tensor(target, output.dtype.name)
    return -tape_ops.reduce_sum(target * _probabilities(output, from_logits, axis), axis=axis)


def sparse_categorical_crossentropy(target: Any, output: Any, from_logits: bool = False, axis: int = -1) -> Tensor:
    """Cross-entropy of integer class ``target`` and predicted ``output``, per example.

    >>> from minitape.keras import ops
    >>> ops.sparse_categorical_crossentropy([1], [[0.5, 0.5]]).numpy()
    array([0.6931472], dtype=float32)
    """
    output = _real(output)
    target = as_tensor(target)
    if len(target.shape) == len(output.shape) and target.shape[-1] == 1:
        target = tape_ops.squeeze(target, -1)
    hot = tape_ops.one_hot(tape_ops.cast(target, "int32"), output.shape[axis], axis=axis, dtype=output.dtype)
    return -tape_ops.reduce_sum(hot * _probabilities(output, from_logits, axis), axis=axis)


def binary_crossentropy(target: Any, output: Any, from_logits: bool = False) -> Tensor:
    """Elementwise cross-entropy of 0/1 ``target`` and predicted probability (or logit) ``output``.

    >>> from minitape.keras import ops
    >>> ops.binary_crossentropy([1.0], [0.5]).numpy()
    array([0.6931472], dtype=float32)
    """
    output = _real(output)
    target = as_tensor(target, output.dtype.name)
    if from_logits:
        return tape_ops.relu(output) - output * target + tape_ops.log1p(tape_ops.exp(-tape_ops.abs(output)))
    output = tape_ops.clip_by_value(output, _EPSILON, 1.0 - _EPSILON)
    return -(target * tape_ops.log(output) + (1 - target) * tape_ops.log(1 - output))
