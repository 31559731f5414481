"""Updating some rows (or entries) of a variable at once: ``v.scatter_update``, ``v.scatter_nd_add``...

TensorFlow names the rows a sparse update touches with an ``IndexedSlices``
(``values[i]`` goes to row ``indices[i]``) and the entries of an ``*_nd_*`` update with index
vectors.  Each method combines the old value there with the update (replace, add, subtract,
multiply, divide, max, min), one index after another, as TF's CPU kernels do: a repeated index
is updated twice (replaced twice: the last wins; added twice: both count).  The variable gets a
new array, so tensors read before keep their values, and the method returns what ``assign``
returns.  Like ``assign``, an update is not differentiable.

>>> import minitape as tf
>>> v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
>>> v.scatter_nd_update(indices=[[0, 0], [1, 1]], updates=[10.0, 40.0]).numpy()
array([[10.,  2.],
       [ 3., 40.]], dtype=float32)
>>> v.scatter_add(tf.IndexedSlices(values=[[1.0, 1.0]], indices=[1])).numpy()
array([[10.,  2.],
       [ 4., 41.]], dtype=float32)
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minitape.core import arrays, backends
from minitape.core.errors import InvalidArgumentError
from minitape.core.messages import kernel_text, with_hint
from minitape.core.tensor import Tensor, UnreadVariable, Variable, convert_to_tensor, wrap
from minitape.ops.arguments import GATHER_INDICES, check_indices, plain


class IndexedSlices:
    """Some rows of a tensor: ``values[i]`` is row ``indices[i]`` of a tensor of shape ``dense_shape``.

    Kept as given (TF converts nothing here either); ``Variable.scatter_*`` reads it.  With a
    ``dense_shape`` it converts to that dense tensor (rows named twice add up, as in TF).

    >>> print(tf.IndexedSlices(values=[[1.0, 2.0]], indices=[1]))
    IndexedSlices(indices=[1], values=[[1.0, 2.0]])
    >>> tf.convert_to_tensor(tf.IndexedSlices([[1.0, 2.0]], [1], dense_shape=[2, 2])).numpy()
    array([[0., 0.],
           [1., 2.]], dtype=float32)
    """

    def __init__(self, values: Any, indices: Any, dense_shape: Any = None) -> None:
        self.values, self.indices, self.dense_shape = values, indices, dense_shape

    def __str__(self) -> str:
        shape = f", dense_shape={self.dense_shape}" if self.dense_shape is not None else ""
        return f"IndexedSlices(indices={self.indices}, values={self.values}{shape})"

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        if self.dense_shape is None:
            raise with_hint(ValueError(f"Tensor conversion requested for IndexedSlices for argument `value` without "
                                       f"dense_shape: {self}"), "Give IndexedSlices a dense_shape to make it a tensor.")
        values = convert_to_tensor(self.values).numpy()
        dense = np.zeros(arrays.dimensions(plain(self.dense_shape), "IndexedSlices: dense_shape"), values.dtype)
        np.add.at(dense, arrays.integers(plain(self.indices), "IndexedSlices: indices"), values)
        return dense if dtype is None else dense.astype(dtype)


#: How each update combines the old entry ``a`` with the new ``b`` (an integer quotient is truncated, as TF's).
_COMBINE: dict[str, Callable[[Any, Any], Any]] = {
    "update": lambda a, b: b, "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b, "max": np.maximum, "min": np.minimum,
}
_KERNELS = {"update": "Update", "add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div", "max": "Max", "min": "Min"}


def _scatter(variable: Variable, how: str, indices: Any, updates: Any, nd: bool) -> UnreadVariable:
    """Combine ``updates`` into ``variable`` at ``indices``: rows, or index vectors (``nd``: ``scatter_nd_*``)."""
    kernel = f"ResourceScatter{'Nd' if nd else ''}{_KERNELS[how]}"
    method = f"scatter_{'nd_' if nd else ''}{how}"
    old = variable._value
    device = backends.backend_of(old).device_name
    named = isinstance(indices, Tensor)         # TF's text ends in "name: " only when the indices were a tensor
    check_indices(GATHER_INDICES, method, indices)
    index = arrays.integers(plain(indices), f"{method}: indices", InvalidArgumentError)
    values = convert_to_tensor(updates, dtype=variable.dtype)
    host = arrays.to_numpy(old).copy()
    k = index.shape[-1] if nd and index.ndim else 1
    positions = index.reshape(-1, k) if nd else index.reshape(-1, 1)
    expected = (index.shape[:-1] if nd else index.shape) + host.shape[k:]
    if nd and not 1 <= k <= host.ndim or tuple(values.shape) != expected:
        text = (f"updates of shape {arrays.listed(values.shape)} do not fit indices of shape "
                f"{arrays.listed(index.shape)} into shape {arrays.listed(host.shape)}")
        raise with_hint(InvalidArgumentError(_kernel_text(kernel, text, device, named)),
                        f"{method} to variable '{variable.name}': updates must have shape {expected}.")
    rows = arrays.to_numpy(values._value).reshape((-1,) + host.shape[k:])
    if how == "div" and not rows.all():         # checked before any row is written, so nothing is
        raise with_hint(InvalidArgumentError(_kernel_text(kernel, "updates must not contain 0", device, named)),
                        f"{method} to variable '{variable.name}': every update divides, so none may be 0.")
    for n, (position, row) in enumerate(zip(positions, rows)):
        if any(not 0 <= p < size for p, size in zip(position, host.shape)):
            text = (f"indices[{n}] = [{', '.join(map(str, position))}] does not index into shape "
                    f"{arrays.listed(host.shape)}" if nd else f"indices[{n}] = {position[0]} is not in [0, {host.shape[0]})")
            raise with_hint(InvalidArgumentError(_kernel_text(kernel, text, device, named)),
                            f"{method} to variable '{variable.name}': every index must be inside the variable.")
        place = tuple(int(p) for p in position)
        host[place] = _COMBINE[how](host[place], row)
    return variable.assign(wrap(arrays.asarray_beside(old, host)))


def _kernel_text(kernel: str, text: str, device: str, named: bool) -> str:
    """TF's words for a scatter kernel's error, with no ``name:`` after them unless ``named``."""
    full = kernel_text(kernel, text, "", device)
    return full if named else full.removesuffix(" name: ")


def _rows_method(how: str) -> Callable[..., UnreadVariable]:
    def method(self: Variable, sparse_delta: IndexedSlices, use_locking: bool = False,
               name: str | None = None) -> UnreadVariable:
        if not isinstance(sparse_delta, IndexedSlices):
            raise with_hint(TypeError(f"Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: "
                                      f"{sparse_delta}"), f"scatter_{how}: wrap the rows as "
                                                          f"tf.IndexedSlices(values=..., indices=...).")
        return _scatter(self, how, sparse_delta.indices, sparse_delta.values, nd=False)
    return _named(method, f"scatter_{how}", f"Row ``indices[i]`` of the variable becomes ``{how}(row, values[i])``, "
                                            f"for a ``IndexedSlices``", "tf.IndexedSlices([[2.0, 2.0]], [1])", how)


def _nd_method(how: str) -> Callable[..., UnreadVariable]:
    def method(self: Variable, indices: Any, updates: Any, name: str | None = None) -> UnreadVariable:
        return _scatter(self, how, indices, updates, nd=True)
    return _named(method, f"scatter_nd_{how}", f"The entry (or slice) at each index vector ``indices[i]`` becomes "
                                               f"``{how}(it, updates[i])``", "[[1, 0], [1, 1]], [2.0, 2.0]", how)


def _named(method: Callable, name: str, summary: str, arguments: str, how: str) -> Callable:
    """``method`` named ``name``, its docstring the ``summary`` and an example: row [3, 4] updated by [2, 2]."""
    result = np.array2string(np.asarray(_COMBINE[how](np.array([3.0, 4.0], np.float32), np.float32(2.0)),
                                        np.float32), separator=", ")
    method.__name__ = method.__qualname__ = name
    method.__doc__ = (f"{summary}; returns what ``assign`` returns.\n\n"
                      f"    >>> v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])\n"
                      f"    >>> v.{name}({arguments}).numpy()[1]\n"
                      f"    array({result}, dtype=float32)\n")
    return method


def _no_item_assignment(kind: str) -> Callable[..., None]:
    def setitem(self: Any, key: Any, value: Any) -> None:
        raise with_hint(TypeError(f"'{kind}' object does not support item assignment"),     # TF's words
                        "Tensors never change; a variable changes through v.assign(...), or part of it "
                        "through v[key].assign(...) or v.scatter_nd_update(...).")
    return setitem


def attach() -> None:
    """Give variables their ``scatter_*`` methods, and TF's refusal of ``x[key] = value`` (run once, on import)."""
    for how in _COMBINE:
        setattr(Variable, f"scatter_{how}", _rows_method(how))
    for how in ("update", "add", "sub"):
        setattr(Variable, f"scatter_nd_{how}", _nd_method(how))
    Variable.__setitem__ = _no_item_assignment("ResourceVariable")
    Tensor.__setitem__ = _no_item_assignment("tensorflow.python.framework.ops.EagerTensor")
