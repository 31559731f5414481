"""``tf.while_loop``: in TensorFlow it builds a loop into a graph; minitape runs it as a Python loop.

In eager mode TensorFlow itself runs ``while cond(*vars): vars = body(*vars)``, and so does
minitape, with TF's checks: ``body`` must give back the structure it was given (a list or
tuple of as many values, dicts with the same keys), and ``maximum_iterations`` stops the loop
early.  The values go round as the body returns them (Python numbers stay numbers); at the end
they come back as tensors, in the structure the body last returned.  The tape records every op
of every pass, so the result is differentiable like any other.

>>> import minitape as tf
>>> i, total = tf.while_loop(lambda i, total: i < 4, lambda i, total: (i + 1, total + i), [0, 0.0])
>>> i, total
(<minitape.Tensor: shape=(), dtype=int32, numpy=4>, <minitape.Tensor: shape=(), dtype=float32, numpy=6.0>)
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minitape.core import nest
from minitape.core.messages import with_hint
from minitape.core.tensor import Tensor, Variable, convert_to_tensor
from minitape.ops import logical_and


def while_loop(cond: Callable, body: Callable, loop_vars: Any, shape_invariants: Any = None,
               parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
               maximum_iterations: Any = None, name: str | None = None) -> Any:
    """Repeat ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)`` holds; returns the final values.

    ``loop_vars`` is a list or tuple (one entry per argument of ``cond`` and ``body``).  At most
    ``maximum_iterations`` passes run, if given.  ``shape_invariants``, ``parallel_iterations``,
    ``back_prop`` and ``swap_memory`` tune TF's graph loop; running eagerly, TF ignores them too.

    >>> tf.while_loop(lambda x: x < 100, lambda x: [x * 2], [tf.constant(3)], maximum_iterations=3)
    [<minitape.Tensor: shape=(), dtype=int32, numpy=24>]
    """
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    loop_vars = _read_variables(loop_vars)
    if not loop_vars:
        raise with_hint(ValueError("'loop_vars' must be provided."),
                        "while_loop: give the loop's values as a list, e.g. [tf.constant(0)], even for one value.")
    if maximum_iterations is not None:
        limit = convert_to_tensor(maximum_iterations)
        if limit.ndim != 0:
            raise ValueError(f"'maximum_iterations' must be a scalar. Received shape: {limit.shape}")
        cond, body, loop_vars = _counted(cond, body, loop_vars, int(limit))
    structure = list(loop_vars)
    while cond(*loop_vars):
        loop_vars = body(*loop_vars)
        if isinstance(loop_vars, Tensor) and loop_vars.ndim == 0:
            raise with_hint(TypeError("Cannot iterate over a scalar tensor."), _RETURN_A_LIST)
        _check_same_structure(structure, list(loop_vars))
    result = nest.pack_sequence_as(loop_vars, [convert_to_tensor(v) for v in nest.flatten(loop_vars)])
    return result if maximum_iterations is None else result[1]


_RETURN_A_LIST = "while_loop: body must return its values as loop_vars holds them: a list or tuple, even of one."


def _counted(cond: Callable, body: Callable, loop_vars: Any, limit: int) -> tuple[Callable, Callable, tuple]:
    """The loop with a pass counter in front of its values, stopping after ``limit`` passes (TF's rewrite)."""
    return ((lambda i, values: logical_and(i < limit, cond(*values))),
            (lambda i, values: (i + 1, body(*values))),
            (0, loop_vars))


def _read_variables(structure: Any) -> Any:
    """``structure`` with each variable in it read into a tensor (TF's loop carries values, not variables)."""
    if isinstance(structure, Variable):
        return structure.read_value()
    if not nest.is_nested(structure):
        return structure
    leaves = nest.flatten(structure)
    return nest.pack_sequence_as(structure, [v.read_value() if isinstance(v, Variable) else v for v in leaves])


def _check_same_structure(given: Any, returned: Any) -> None:
    """Raise TF's ValueError unless ``returned`` nests lists, tuples and dicts as ``given`` does."""
    if _shape_of(given) != _shape_of(returned):
        raise with_hint(ValueError(f"The two structures don't have the same nested structure.\n\n"
                                   f"First structure: {given}\n\nSecond structure: {returned}"), _RETURN_A_LIST)


def _shape_of(structure: Any) -> Any:
    """The nesting of ``structure`` with its leaves left out: what two structures must share."""
    if isinstance(structure, dict):
        return {key: _shape_of(value) for key, value in structure.items()}
    if isinstance(structure, list | tuple):
        return [_shape_of(item) for item in structure]
    return "."
