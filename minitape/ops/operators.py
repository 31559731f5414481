"""Python's operators for tensors and variables: ``x + y`` is ``tf.add(x, y)``.

The core's tensor knows nothing of ops (they are built on it), so this module
attaches the operators to it from above, once, when [`minitape.ops`][minitape.ops] is
imported: each operator is one op of the table.

>>> import minitape as tf
>>> x = tf.constant([1.0, 2.0])
>>> (x * 2.0 + 1.0).numpy(), (-x).numpy(), x[1].numpy()
(array([3., 5.], dtype=float32), array([-1., -2.], dtype=float32), np.float32(2.0))
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minitape.core.tensor import Tensor, _TensorLike
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
    "lt": cmp.less, "le": cmp.less_equal, "gt": cmp.greater, "ge": cmp.greater_equal, "eq": cmp.equal,
    "ne": cmp.not_equal,
}


def _reflected(op: Callable) -> Callable:
    def operator(self: Any, other: Any) -> Tensor:
        return op(other, self)
    return operator


def _positive(self: Any) -> Any:
    return self


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
    _TensorLike.__neg__ = ew.negative
    _TensorLike.__abs__ = ew.abs
    _TensorLike.__pos__ = _positive
    _TensorLike.__getitem__ = getitem
    Tensor.cpu = cpu
    variable_slices.attach()                                    # v[1:].assign(...)
    variable_scatter.attach()                                   # v.scatter_nd_update(...)


attach()
