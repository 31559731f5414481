"""``keras.ops``' core: converting values, shapes and dtypes, gradients stopped, and control flow.

Keras 3's answers differ from TensorFlow's in small ways that this module keeps: ``shape``
is a tuple of ints, ``convert_to_numpy`` a NumPy array, ``scan`` threads a carry *and* stacks
outputs, as ``jax.lax.scan`` does.  The loops run eagerly, so the tape records every step.

>>> from minitape.keras import ops
>>> ops.shape(ops.zeros((2, 3))), type(ops.convert_to_numpy([1, 2])).__name__
((2, 3), 'ndarray')
"""
from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

import numpy as np

from minitape import ops as tape_ops
from minitape.core import nest
from minitape.core.tensor import Tensor
from minitape.dialect import control_flow
from minitape.keras.keras_tensor import KerasTensor
from minitape.keras.ops.promotion import as_tensor


def convert_to_tensor(x: Any, dtype: Any = None, sparse: bool | None = None) -> Tensor:
    """``x`` as a tensor (of ``dtype``, cast if need be).

    >>> from minitape.keras import ops
    >>> ops.convert_to_tensor([1, 2], dtype="float32").numpy()
    array([1., 2.], dtype=float32)
    """
    return as_tensor(x, None if dtype is None else str(getattr(dtype, "name", dtype)))


def convert_to_numpy(x: Any) -> np.ndarray:
    """``x``'s values as a NumPy array (a 0-d one for a scalar).

    >>> from minitape.keras import ops
    >>> ops.convert_to_numpy(ops.ones((2,)))
    array([1., 1.], dtype=float32)
    """
    return np.asarray(x.numpy() if isinstance(x, Tensor) else x)


def cast(x: Any, dtype: Any) -> Tensor:
    """``x`` in ``dtype``.

    >>> from minitape.keras import ops
    >>> ops.cast([1.7, -1.7], "int32").numpy()
    array([ 1, -1], dtype=int32)
    """
    return tape_ops.cast(as_tensor(x), dtype)


def shape(x: Any) -> tuple[int | None, ...]:
    """``x``'s shape as a tuple of ints (``None`` where a symbolic ``keras.Input``'s size is unknown).

    >>> from minitape import keras
    >>> keras.ops.shape([[1, 2, 3]]), keras.ops.shape(keras.Input((4,)))
    ((1, 3), (None, 4))
    """
    if isinstance(x, KerasTensor):
        return x.shape
    return tuple(as_tensor(x).shape)


def ndim(x: Any) -> int:
    """How many axes ``x`` has.

    >>> from minitape.keras import ops
    >>> ops.ndim([[1, 2]])
    2
    """
    return len(shape(x))


def size(x: Any) -> int:
    """How many entries ``x`` has.

    >>> from minitape.keras import ops
    >>> ops.size([[1, 2]])
    2
    """
    return int(np.prod(shape(x), dtype=int))


def dtype(x: Any) -> str:
    """``x``'s dtype, by name.

    >>> from minitape.keras import ops
    >>> ops.dtype(ops.ones(1))
    'float32'
    """
    return x.dtype if isinstance(x, KerasTensor) else as_tensor(x).dtype.name


def is_tensor(x: Any) -> bool:
    """Whether ``x`` is a tensor of the backend (a minitape tensor).

    >>> from minitape.keras import ops
    >>> ops.is_tensor(ops.ones(1)), ops.is_tensor([1.0])
    (True, False)
    """
    return isinstance(x, Tensor)


def stop_gradient(variable: Any) -> Tensor:
    """``variable``'s value, with no gradient flowing back through it.

    >>> from minitape.keras import ops
    >>> ops.stop_gradient([1.0]).numpy()
    array([1.], dtype=float32)
    """
    return tape_ops.stop_gradient(as_tensor(variable))


def cond(pred: Any, true_fn: Callable, false_fn: Callable) -> Any:
    """``true_fn()`` if ``pred`` holds, else ``false_fn()``.

    >>> from minitape.keras import ops
    >>> ops.cond(ops.array(2) > 1, lambda: "big", lambda: "small")
    'big'
    """
    return control_flow.cond(pred, true_fn, false_fn)


def while_loop(cond: Callable, body: Callable, loop_vars: Any, maximum_iterations: int | None = None) -> Any:
    """Run ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)``; a single loop variable stays single.

    >>> from minitape.keras import ops
    >>> ops.while_loop(lambda i: i < 10, lambda i: i * 2, 1)
    <minitape.Tensor: shape=(), dtype=int32, numpy=16>
    """
    several = isinstance(loop_vars, (tuple, list))

    def step(*state: Any) -> tuple:
        result = body(*state)
        return tuple(result) if several else (result,)
    result = control_flow.while_loop(cond, step, tuple(loop_vars) if several else (loop_vars,),
                                     maximum_iterations=maximum_iterations)
    return result if several else result[0]


def fori_loop(lower: int, upper: int, body_fun: Callable, init_val: Any) -> Any:
    """``val = body_fun(i, val)`` for ``i`` from ``lower`` up to ``upper``; the last ``val``.

    >>> from minitape.keras import ops
    >>> ops.fori_loop(0, 4, lambda i, total: total + i, 0)
    6
    """
    value = init_val
    for i in range(int(lower), int(upper)):
        value = body_fun(i, value)
    return value


def scan(f: Callable, init: Any, xs: Any = None, length: int | None = None, reverse: bool = False,
         unroll: int = 1) -> tuple[Any, Any]:
    """``carry, y = f(carry, x)`` for each slice ``x`` of ``xs``; the last carry and the ``y``s stacked.

    >>> from minitape.keras import ops
    >>> total, running = ops.scan(lambda c, x: (c + x, c + x), 0.0, ops.array([1.0, 2.0, 3.0]))
    >>> float(total), running.numpy()
    (6.0, array([1., 3., 6.], dtype=float32))
    """
    flat = [as_tensor(x) for x in nest.flatten(xs)] if xs is not None else []
    steps = length if length is not None else flat[0].shape[0]
    order = range(steps - 1, -1, -1) if reverse else range(steps)
    carry, ys = init, []
    for i in order:
        x = nest.pack_sequence_as(xs, [t[i] for t in flat]) if xs is not None else None
        carry, y = f(carry, x)
        ys.append(y)
    if reverse:
        ys.reverse()
    if not ys or ys[0] is None:
        return carry, None
    stacked = [tape_ops.stack(list(column)) for column in zip(*[nest.flatten(y) for y in ys])]
    return carry, nest.pack_sequence_as(ys[0], stacked)


def map(f: Callable, xs: Any) -> Any:  # noqa: A001
    """``f`` applied to each slice of ``xs`` along its first axis, the results stacked.

    >>> from minitape.keras import ops
    >>> ops.map(lambda x: x * 2, ops.array([1, 2])).numpy()
    array([2, 4], dtype=int32)
    """
    return scan(lambda carry, x: (carry, f(x)), None, xs)[1]


def vectorized_map(function: Callable, elements: Any) -> Any:
    """``function`` applied to each slice of ``elements`` along the first axis, the results stacked.

    >>> from minitape.keras import ops
    >>> ops.vectorized_map(lambda row: ops.sum(row), ops.array([[1, 2], [3, 4]])).numpy()
    array([3, 7], dtype=int32)
    """
    return control_flow.vectorized_map(function, elements)


def slice(inputs: Any, start_indices: Any, shape: Any) -> Tensor:  # noqa: A001
    """The block of ``inputs`` starting at ``start_indices`` with ``shape``.

    >>> from minitape.keras import ops
    >>> ops.slice(ops.arange(6), [2], [3]).numpy()
    array([2, 3, 4], dtype=int32)
    """
    inputs = as_tensor(inputs)
    starts = [int(i) for i in np.asarray(start_indices)]     # builtins.slice: this module's ``slice`` hides it
    return inputs[tuple(builtins.slice(s, s + int(n)) for s, n in zip(starts, np.asarray(shape)))]
