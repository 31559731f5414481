"""Python's operators for tensors and variables: ``x + y`` is ``tf.add(x, y)``.

The core's tensor knows nothing of ops (they are built on it), so this module
attaches the operators to it from above, once, when [`minitape.ops`][minitape.ops] is
imported: each operator is one op of the table.

>>> import minitape as tf
>>> x = tf.constant([1.0, 2.0])
>>> (x * 2.0 + 1.0).numpy(), (-x).numpy(), x[1].numpy()
(array([3., 5.], dtype=float32), array([-1., -2.], dtype=float32), np.float32(2.0))
>>> ((x > 1.5) | (x < 0.0)).numpy(), x == None
(array([False,  True]), False)
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minitape.core import dtypes
from minitape.core.tensor import Tensor, _TensorLike, constant
from minitape.ops.arguments import pair
from minitape.ops import comparisons as cmp, elementwise as ew
from minitape.ops.creation import to_device
from minitape.ops.indexing import getitem
from minitape.ops.linalg import matmul
from minitape.ops import variable_scatter, variable_slices

#: Each binary operator, its reflected form (``__radd__``: the tensor is on the right), and its op.
BINARY: dict[str, Callable] = {
    "add": ew.add, "sub": ew.subtract, "mul": ew.multiply, "truediv": ew.divide, "floordiv": ew.floordiv,
    "mod": ew.mod, "pow": ew.pow, "matmul": matmul,
}
COMPARISONS: dict[str, Callable] = {
    "lt": cmp.less, "le": cmp.less_equal, "gt": cmp.greater, "ge": cmp.greater_equal,
}
#: ``&``, ``|``, ``^``: the logical op on booleans, the bitwise op on integers (as TF's tensors).
LOGIC: dict[str, tuple[Callable, Callable]] = {
    "and": (cmp.logical_and, cmp.bitwise_and), "or": (cmp.logical_or, cmp.bitwise_or),
    "xor": (cmp.logical_xor, cmp.bitwise_xor),
}


def _reflected(op: Callable) -> Callable:
    def operator(self: Any, other: Any) -> Tensor:
        return op(other, self)
    return operator


def _positive(self: Any) -> Any:
    return self


def _equality(compare: Callable, apart: bool) -> Callable:
    """``==`` (``apart`` False) or ``!=`` (True) as TF's tensors answer them, not quite ``tf.equal``:
    a tensor is never equal to None, and shapes that do not broadcast are unequal (one bool), not an error.
    """
    def operator(self: Any, other: Any) -> Any:
        if other is None and isinstance(self, Tensor):      # a Variable tries to convert None, and fails, as TF's
            return apart
        x, y = pair(compare.__name__, self, other)
        try:
            np.broadcast_shapes(tuple(x.shape), tuple(y.shape))
        except ValueError:
            return constant(apart)
        return compare(x, y)
    return operator


def _logic(logical: Callable, bitwise: Callable, reflected: bool = False) -> Callable:
    """``x & y`` and its kin: the logical op if the tensor is boolean, else the bitwise one."""
    def operator(self: Any, other: Any) -> Tensor:
        op = logical if self.dtype is dtypes.bool_ else bitwise
        return op(other, self) if reflected else op(self, other)
    return operator


def _invert(self: Any) -> Tensor:
    return cmp.logical_not(self) if self.dtype is dtypes.bool_ else cmp.invert(self)


def cpu(self: Tensor) -> Tensor:
    """A copy on the host (NumPy); gradients flow back to this tensor's device.

    >>> tf.constant([1.0]).cpu().device
    '/job:localhost/replica:0/task:0/device:CPU:0'
    """
    return to_device(self, "CPU:0")


def attach() -> None:
    """Give tensors and variables their operators (run once, on import)."""
    for name, op in BINARY.items():
        setattr(_TensorLike, f"__{name}__", op)                 # x + y is add(x, y)
        setattr(_TensorLike, f"__r{name}__", _reflected(op))    # 1 + x is add(1, x)
    for name, op in COMPARISONS.items():
        setattr(_TensorLike, f"__{name}__", op)
    _TensorLike.__eq__ = _equality(cmp.equal, apart=False)
    _TensorLike.__ne__ = _equality(cmp.not_equal, apart=True)
    for name, (logical, bitwise) in LOGIC.items():
        setattr(_TensorLike, f"__{name}__", _logic(logical, bitwise))                    # mask & mask
        setattr(_TensorLike, f"__r{name}__", _logic(logical, bitwise, reflected=True))   # True & mask
    _TensorLike.__invert__ = _invert
    _TensorLike.__neg__ = ew.negative
    _TensorLike.__abs__ = ew.abs
    _TensorLike.__pos__ = _positive
    _TensorLike.__getitem__ = getitem
    Tensor.cpu = cpu
    variable_slices.attach()                                    # v[1:].assign(...)
    variable_scatter.attach()                                   # v.scatter_nd_update(...)


attach()
