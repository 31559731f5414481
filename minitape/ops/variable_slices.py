"""Writing into part of a variable: ``v[0, 1].assign(9.0)``, as in TensorFlow.

Reading ``v[key]`` gives an ordinary tensor (a slice, differentiable like any other).  As
in TF, that tensor also remembers the variable and the key it was read with, and only such
a tensor has an ``assign`` method: it writes the value into that part of the variable and
returns the variable.  The write builds a new array for the variable, so tensors read
before, the slice itself included, keep the values they had.  TF gives slices ``assign``
only (no ``assign_add`` or ``assign_sub``), and so does minitape.

>>> import minitape as tf
>>> v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
>>> row = v[1]
>>> v[1].assign([30.0, 40.0]).numpy()
array([[ 1.,  2.],
       [30., 40.]], dtype=float32)
>>> row.numpy()
array([3., 4.], dtype=float32)
"""
from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import Any

from minitape.core import arrays, backends
from minitape.core.errors import InvalidArgumentError
from minitape.core.messages import kernel_text, with_hint
from minitape.core.tensor import Tensor, Variable, wrap
from minitape.ops.indexing import getitem, index_key

#: For each live slice read from a variable (by the slice's id): the variable, and the key it was read with.
_ORIGINS: dict[int, tuple[Variable, tuple]] = {}


def read_slice(variable: Variable, key: Any) -> Tensor:
    """``variable[key]``: the slice, remembered (while it lives) as a part of ``variable``.

    >>> v = tf.Variable([1.0, 2.0, 3.0])
    >>> v[1:]
    <minitape.Tensor: shape=(2,), dtype=float32, numpy=array([2., 3.], dtype=float32)>
    """
    part = getitem(variable, key)
    _ORIGINS[part._id] = (variable, index_key(key))
    weakref.finalize(part, _ORIGINS.pop, part._id, None)
    return part


def assign_slice(variable: Variable, key: tuple, value: Any, name: str | None = None) -> Variable:
    """Write ``value`` (broadcast to the part's shape) into ``variable[key]``; returns the variable.

    >>> v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    >>> assign_slice(v, (slice(None), 0), 0.0).numpy()
    array([[0., 2.],
           [0., 4.]], dtype=float32)
    """
    array = variable._coerce(value, "slice assign")       # TF's conversions and dtype rule, as for assign
    old = variable._value
    new = arrays.full_beside(old, old.shape, 0)           # a new array: what was read before keeps its values
    new[...] = old
    place = tuple(k for k in key if k is not None)         # None adds an axis to the part, not to the variable
    try:
        new[place] = array
    except ValueError:                                      # the value does not broadcast to the part
        final = getitem(wrap(old), key).shape
        text = f"Cannot broadcast input shape {arrays.listed(array.shape)} into final shape {arrays.listed(final)}"
        error = InvalidArgumentError(kernel_text("ResourceStridedSliceAssign", text, "strided_slice/_assign",
                                                 backends.backend_of(old).device_name))
        raise with_hint(error, f"slice assign to variable '{variable.name}': give a value of shape "
                               f"{tuple(final)}, or one that broadcasts to it.") from None
    return variable.assign(wrap(new))


def _assign_of(tensor: Tensor) -> Callable[..., Variable]:
    """``tensor.assign(value, name=None)``: writes into the variable ``tensor`` was sliced from.

    Only a slice read from a variable has it, as in TF: ``hasattr(t, "assign")`` is False for
    any other tensor.

    >>> v = tf.Variable([1.0, 2.0, 3.0])
    >>> v[0].assign(9.0).numpy()
    array([9., 2., 3.], dtype=float32)
    >>> hasattr(tf.constant([1.0])[0], "assign")
    False
    """
    origin = _ORIGINS.get(tensor._id)
    if origin is None:
        raise AttributeError(f"'{type(tensor).__name__}' object has no attribute 'assign'")
    return functools.partial(assign_slice, *origin)


def attach() -> None:
    """Give variables their slicing, and the slices their ``assign`` (run once, on import)."""
    Variable.__getitem__ = read_slice
    Tensor.assign = property(_assign_of, doc=_assign_of.__doc__)
