"""Control flow: ``while_loop``, ``cond``, ``map_fn``, ``scan``, ``vectorized_map``, run as Python loops and ifs.

``tf.while_loop`` in TensorFlow builds a loop into a graph; minitape runs it as a Python loop.

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

import builtins

from minitape.core import dtypes, nest
from minitape.core.errors import InvalidArgumentError, OutOfRangeError
from minitape.core.messages import with_hint
from minitape.core.tensor import Tensor, Variable, convert_to_tensor
from minitape.ops import logical_and, stack, zeros


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


# --------------------------------------------------------------------------- cond

def cond(pred: Any, true_fn: Callable | None = None, false_fn: Callable | None = None, name: str | None = None) -> Any:
    """``true_fn()`` if ``pred`` holds, else ``false_fn()``: eagerly, TF runs only the branch taken, as here.

    The branch's result comes back as it returned it (a Python number stays one).  Only the
    branch taken runs, so only its ops are on the tape.

    >>> tf.cond(tf.constant(2.0) > 1.0, lambda: "big", lambda: "small")
    'big'
    """
    for argument, fn in (("true_fn", true_fn), ("false_fn", false_fn)):
        if fn is None:
            raise with_hint(TypeError(f"cond(): '{argument}' argument required"),
                            "cond: give both branches, e.g. tf.cond(x > 0, lambda: x, lambda: -x).")
    for argument, fn in (("true_fn", true_fn), ("false_fn", false_fn)):
        if not callable(fn):
            raise with_hint(TypeError(f"'{argument}' must be callable."),
                            f"cond: {argument} is a function of no arguments, e.g. lambda: x.")
    if pred is None:
        convert_to_tensor(pred)                      # TF's error for a value that is no tensor
    return true_fn() if pred else false_fn()


# --------------------------------------------------------------------------- map_fn, scan, vectorized_map
# Each runs ``fn`` on the elements of ``elems`` (its tensors cut along their first axis) one by
# one, in a Python loop, and stacks what it returns.  Cutting (``x[i]``) and stacking are ops,
# so the tape records every step and the result differentiates like any other.

def _cut(elems: Any, name: str, scalar_error: type[Exception]) -> tuple[int, Callable[[int], Any]]:
    """How many elements ``elems`` holds, and a function giving element ``i`` (``elems`` nested as given)."""
    leaves = [convert_to_tensor(v.read_value() if isinstance(v, Variable) else v) for v in nest.flatten(elems)]
    if not leaves or any(leaf.ndim == 0 for leaf in leaves):
        raise with_hint(scalar_error("Elements in elems must be 1+ dimensional Tensors, not scalars"),
                        f"{name}: elems are cut along their first axis: give tensors of rank 1 or more.")
    count = leaves[0].shape[0]
    for leaf in leaves[1:]:
        if leaf.shape[0] != count:
            raise with_hint(ValueError(f"Dimensions {count} and {leaf.shape[0]} are not compatible"),
                            f"{name}: every tensor in elems must have the same first dimension.")
    return count, lambda i: nest.pack_sequence_as(elems, [leaf[i] for leaf in leaves])


def _written(value: Any, kind: dtypes.DType | None) -> Tensor:
    """One result of ``fn`` as a tensor of ``kind`` (what TF's TensorArray holds); another dtype is refused."""
    if isinstance(value, Tensor | Variable) and kind is not None and value.dtype != kind:
        raise with_hint(InvalidArgumentError(f"TensorArray dtype is {kind.name} but Op is trying to write dtype "
                                             f"{value.dtype.name} "),
                        "fn must return the dtypes it was given; for others pass fn_output_signature=tf.int32 (e.g.).")
    return convert_to_tensor(value, dtype=kind)


def _stacked(results: list[Any], structure: Any, kinds: list, shapes: list) -> Any:
    """The results of each step, structured as ``structure``, as that structure of tensors stacked along axis 0."""
    columns = []
    for k, kind in enumerate(kinds):
        column = [_written(nest.flatten(r)[k], kind) for r in results]
        for t in column[1:]:
            if t.shape != column[0].shape:
                raise with_hint(ValueError(f"Incompatible shape for value ({tuple(t.shape)}), expected "
                                           f"({tuple(column[0].shape)})"), "fn must return one shape at every step.")
        if column:
            columns.append(stack(column))
        else:
            columns.append(zeros((0, *(shapes[k] or ())), kind or dtypes.float32))
    return nest.pack_sequence_as(structure, columns)


def _specs(signature: Any) -> tuple[list, list]:
    """The dtypes and shapes a ``fn_output_signature`` names, leaf by leaf (a dtype, or a ``TensorSpec``)."""
    leaves = nest.flatten(signature)
    return ([dtypes.as_dtype(getattr(s, "dtype", s)) for s in leaves],
            [getattr(s, "shape", None) for s in leaves])


def _callable(fn: Any, name: str) -> None:
    if not callable(fn):
        raise with_hint(AttributeError(f"'{type(fn).__name__}' object has no attribute '__name__'"),
                        f"{name}: fn must be a function, e.g. lambda x: x * 2.")


def map_fn(fn: Callable, elems: Any, dtype: Any = None, parallel_iterations: int | None = None,
           back_prop: bool = True, swap_memory: bool = False, infer_shape: bool = True, name: str | None = None,
           fn_output_signature: Any = None) -> Any:
    """``fn`` applied to each element of ``elems`` (cut along axis 0), the results stacked.

    ``elems`` may be a structure (tuple, list, dict) of tensors: ``fn`` gets one element of each.
    ``fn`` must return the structure and dtypes of ``elems``, unless ``fn_output_signature`` (or the
    older ``dtype``) names others.

    >>> tf.map_fn(lambda row: tf.reduce_sum(row), tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    <minitape.Tensor: shape=(2,), dtype=float32, numpy=array([3., 7.], dtype=float32)>
    """
    _callable(fn, "map_fn")
    count, element = _cut(elems, "map_fn", ValueError)
    signature = fn_output_signature if fn_output_signature is not None else dtype
    if signature is None:
        signature = nest.pack_sequence_as(elems, [convert_to_tensor(v).dtype for v in nest.flatten(elems)])
    kinds, shapes = _specs(signature)
    results = []
    for i in builtins.range(count):
        result = fn(element(i))
        _check_same_structure(signature, result)
        results.append(result)
    return _stacked(results, signature, kinds, shapes)


def scan(fn: Callable, elems: Any, initializer: Any = None, parallel_iterations: int = 10, back_prop: bool = True,
         swap_memory: bool = False, infer_shape: bool = True, reverse: bool = False, name: str | None = None) -> Any:
    """Running ``fn(total, element)`` over ``elems`` (cut along axis 0): every total, stacked.

    Without ``initializer`` the first element is the first total.  ``reverse`` runs from the end
    (the totals stay at their elements' places).

    >>> tf.scan(lambda total, x: total + x, tf.constant([1.0, 2.0, 3.0]), reverse=True)
    <minitape.Tensor: shape=(3,), dtype=float32, numpy=array([6., 5., 3.], dtype=float32)>
    """
    _callable(fn, "scan")
    count, element = _cut(elems, "scan", IndexError)
    order = list(builtins.range(count))[::-1] if reverse else list(builtins.range(count))
    if initializer is None:
        if not order:
            raise with_hint(OutOfRangeError("Tried to read from index 0 but array size is: 0 "),
                            "scan: with no elements, give an initializer to start from.")
        total, order = element(order[0]), order[1:]
        totals = [total]
    else:
        total = nest.pack_sequence_as(initializer, [convert_to_tensor(v) for v in nest.flatten(initializer)])
        totals = []
    structure = total
    leaves = nest.flatten(structure)
    for i in order:
        total = fn(total, element(i))
        _check_same_structure(structure, total)
        totals.append(total)
    if reverse:
        totals.reverse()
    return _stacked(totals, structure, [v.dtype for v in leaves], [tuple(v.shape) for v in leaves])


def vectorized_map(fn: Callable, elems: Any, fallback_to_while_loop: bool = True, warn: bool = True) -> Any:
    """``fn`` applied to each element of ``elems``, the results stacked: TF vectorizes it, minitape loops.

    Unlike ``map_fn``, the results may have any dtypes; a result that does not depend on the
    element (a constant) is repeated for each.

    >>> tf.vectorized_map(lambda row: tf.cast(tf.reduce_max(row), tf.int32), tf.constant([[1.0, 2.0], [5.0, 4.0]]))
    <minitape.Tensor: shape=(2,), dtype=int32, numpy=array([2, 5], dtype=int32)>
    """
    _callable(fn, "vectorized_map")
    count, element = _cut(elems, "vectorized_map", IndexError)
    if count == 0:                                   # what fn returns for an element of zeros gives the empty result
        leaves = [convert_to_tensor(v) for v in nest.flatten(elems)]
        probe = fn(nest.pack_sequence_as(elems, [zeros(tuple(v.shape[1:]), v.dtype) for v in leaves]))
        outs = [convert_to_tensor(v) for v in nest.flatten(probe)]
        return _stacked([], probe, [v.dtype for v in outs], [tuple(v.shape) for v in outs])
    results = [fn(element(i)) for i in builtins.range(count)]
    first = [convert_to_tensor(v) for v in nest.flatten(results[0])]
    for result in results[1:]:
        _check_same_structure(results[0], result)
    return _stacked(results, results[0], [v.dtype for v in first], [tuple(v.shape) for v in first])
