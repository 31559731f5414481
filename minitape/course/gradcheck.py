"""Check gradients against central finite differences, in float64.

For a function ``f`` of tensors, the tape's gradient of ``sum(f(*args) * w)``
(``w`` a fixed random weighting, so every output counts) is compared, entry by
entry, with ``(L(x + eps) - L(x - eps)) / (2 * eps)``.  Use it to test your own
ops and VJPs.

>>> import minitape as tf
>>> from minitape.course.gradcheck import check_gradients
>>> check_gradients(lambda x, y: tf.sin(x) * y, np.array([0.5, 1.0]), np.array(2.0))
>>> check_gradients(lambda x: tf.stop_gradient(x) * x, np.array([1.0]))
Traceback (most recent call last):
...
AssertionError: gradient of input 0 differs from finite differences (max abs error ...): tape ... vs numeric ...
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minitape.core import backends
from minitape import ops
from minitape.autodiff.tape import GradientTape
from minitape.core.tensor import Tensor, constant


def numerical_gradients(f: Callable[..., Tensor], args: list[np.ndarray], weights: np.ndarray,
                        eps: float = 1e-6) -> list[np.ndarray]:
    """Central differences of ``sum(f(*args) * weights)`` with respect to each argument.

    >>> from minitape.course.gradcheck import numerical_gradients
    >>> numerical_gradients(lambda x: x * x, [np.array([1.0, 3.0])], np.ones(2))
    [array([2., 6.])]
    """
    def loss(arrays: list[np.ndarray]) -> float:
        out = f(*[constant(a) for a in arrays])
        return float(np.sum(np.asarray(out.numpy(), dtype=np.float64) * weights))

    grads = []
    for k, arg in enumerate(args):
        grad = np.zeros_like(arg)
        for index in np.ndindex(arg.shape):
            up, down = [a.copy() for a in args], [a.copy() for a in args]
            up[k][index] += eps
            down[k][index] -= eps
            grad[index] = (loss(up) - loss(down)) / (2 * eps)
        grads.append(grad)
    return grads


def tape_gradients(f: Callable[..., Tensor], args: list[np.ndarray], weights: np.ndarray) -> list[np.ndarray]:
    """The tape's gradients of ``sum(f(*args) * weights)``; unconnected inputs give zeros.

    Each gradient must live where its input does: an op that quietly fell back to
    NumPy on another backend fails here.

    >>> from minitape.course.gradcheck import tape_gradients
    >>> tape_gradients(lambda x, y: x * x, [np.array([1.0, 3.0]), np.array(5.0)], np.ones(2))
    [array([2., 6.]), array(0.)]
    """
    tensors = [constant(a) for a in args]
    with GradientTape() as tape:
        tape.watch(tensors)
        loss = ops.reduce_sum(f(*tensors) * constant(weights))
    grads = tape.gradient(loss, tensors, unconnected_gradients="zero")
    for k, (g, t) in enumerate(zip(grads, tensors)):
        if g.device != t.device or backends.namespace(g._value) is not backends.namespace(t._value):
            raise AssertionError(f"gradient of input {k} is a {type(g._value).__name__} on {g.device}, "
                                 f"but the input is a {type(t._value).__name__} on {t.device}")
    return [np.asarray(g.numpy(), dtype=np.float64) for g in grads]


def check_gradients(f: Callable[..., Tensor], *args: Any, eps: float = 1e-6, rtol: float = 1e-5,
                    atol: float = 1e-6, seed: int = 0) -> None:
    """Raise ``AssertionError`` unless the tape's gradients of ``f`` match finite differences.

    ``args`` are arrays (converted to float64); ``f`` takes and returns tensors.

    >>> import minitape as tf
    >>> from minitape.course.gradcheck import check_gradients
    >>> check_gradients(tf.tanh, np.array([[0.5, -1.0]]))          # silent: the gradients agree
    >>> @tf.custom_gradient
    ... def bad_square(x):
    ...     return x * x, lambda g: g * x                           # forgot the 2
    >>> check_gradients(bad_square, np.array([1.0]))
    Traceback (most recent call last):
    ...
    AssertionError: gradient of input 0 differs from finite differences (max abs error ...): tape ... vs numeric ...
    """
    arrays = [np.array(a, dtype=np.float64) for a in args]
    out = f(*[constant(a) for a in arrays])
    weights = np.random.default_rng(seed).uniform(0.5, 1.5, size=tuple(out.shape))
    expected = numerical_gradients(f, arrays, weights, eps)
    actual = tape_gradients(f, arrays, weights)
    for k, (a, e) in enumerate(zip(actual, expected)):
        if a.shape != e.shape or not np.allclose(a, e, rtol=rtol, atol=atol):
            error = np.max(np.abs(a - e)) if a.shape == e.shape else "shape"
            raise AssertionError(f"gradient of input {k} differs from finite differences (max abs error "
                                 f"{error}): tape {a.tolist()} vs numeric {e.tolist()}")
