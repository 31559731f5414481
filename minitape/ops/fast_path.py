"""The one fenced fast path: ``apply`` and ``OpEntry.backward`` for the op table's commonest call, spelled out.

Just an optimization.  On small values Python's own overhead is the cost of an op, and most ops
run are NumPy ops of one or two inputs without parameters.  ``run`` does for those exactly what
[`apply`][minitape.core.primitive.apply] does, with apply's list, lookups and calls spelled out,
and hands every other call to ``apply``; the entries it records are ``RunEntry``s, whose ``backward``
is [`OpEntry.backward`][minitape.core.primitive.OpEntry.backward] spelled out the same way.  The public functions that ``unary`` and ``binary`` make, and the gradient ops of ``elementwise``,
call it; the algorithm to read is ``apply`` and ``OpEntry``.  Matrix products run through it too, as ops
with their flags fixed (``linalg``).  One forward rule lives here as well, tanh's gradient op's:
the table's expression, computed in one array for NumPy (``tanh_grad_forward``).

Measured on the scalar chain of ``benchmarks/overhead.py`` (a), in paired fresh processes against
``apply`` alone: it saves about 1.4 µs of 9.8 per op (15%).  What each later piece saves is said
beside it, in instructions per op of the chain (callgrind, garbage collector off, against the
version without that piece).

>>> import minitape as tf
>>> from minitape.ops.fast_path import run
>>> run(tf.tanh.op, (tf.constant(0.0),)).numpy()
np.float32(0.0)
"""
from __future__ import annotations

from collections.abc import Container
from typing import Any

import numpy as np

from minitape.core.arrays import IGNORE, NUMPY_ERRSTATE
from minitape.core.backends import FLOATING, by_type
from minitape.core.errors import NotKeptError
from minitape.core.primitive import _SCALAR_RECORDS, NO_PARAMS, Discarded, Op, OpEntry, apply
from minitape.core.state import state
from minitape.core.tensor import Tensor, next_id

_new = object.__new__
# ndarray and NumPy's scalar types: asking this set, not by_type, saves 2,200 instructions of 43,700 per op (5%).
_NUMPY = frozenset(kind for kind, xp in by_type.items() if xp is np)

#: For a binary op of the table, the same op without its VJPs' ``unbroadcasting``: when both inputs
#: have one shape, the gradients have it too, so ``run`` records this twin (``binary`` makes them).
#: Saves the wrapper's call on each VJP: 2,200 instructions of 43,800 per op (5%).
SAME_SHAPES: dict[Op, Op] = {}


def run(op: Op, inputs: tuple[Tensor, ...]) -> Tensor:
    """``apply(op, inputs)``, faster for one or two NumPy inputs (the op takes no parameters)."""
    first = inputs[0]._value
    second = inputs[1]._value if len(inputs) == 2 else None
    if (op.residual or NUMPY_ERRSTATE is None or type(first) not in _NUMPY
            or (second is not None and type(second) not in _NUMPY)):
        return apply(op, inputs)
    # arrays.quietly, spelled out; a backward pass of ops is quiet already (GradientTape._quiet_pass).
    token = None if NUMPY_ERRSTATE.get() is IGNORE else NUMPY_ERRSTATE.set(IGNORE)
    try:
        value = op.forward(np, first) if second is None else op.forward(np, first, second)
    finally:
        if token is not None:
            NUMPY_ERRSTATE.reset(token)
    out = _new(Tensor)                                      # wrap(value), spelled out: 900 of 42,500 (2%)
    out._value, out._id = value, next_id()
    tapes = state.tapes
    if tapes and op.vjps and (type(value) in FLOATING or type(value.dtype) in FLOATING):
        entry = _entry(op, inputs, first, second, out)
        for tape in tapes:                                  # record(entry), spelled out: 1.3% (callgrind)
            tape._offer(entry)
    return out


def _entry(op: Op, inputs: tuple[Tensor, ...], first: np.ndarray, second: np.ndarray | None,
           out: Tensor) -> "RunEntry":
    """``OpEntry(op, inputs, out, NO_PARAMS)``, spelled out for one or two inputs.

    A NumPy scalar's ``Discarded`` record is looked up by its type here (``Discarded.of`` does the same
    for every other value).  Saves 4,100 instructions of 45,700 per op (9%).
    """
    entry = _new(RunEntry)
    entry.op, entry.params, entry.outputs = op, NO_PARAMS, (out._id,)
    kept, records = op.kept_inputs, _SCALAR_RECORDS
    x = inputs[0]
    if second is None:
        entry.inputs = (x._id,)
        entry.saved = (x if 0 in kept else records.get(type(first)) or Discarded.of(x),)
    else:
        y = inputs[1]
        entry.inputs = (x._id, y._id)
        entry.saved = (x if 0 in kept else records.get(type(first)) or Discarded.of(x),
                       y if 1 in kept else records.get(type(second)) or Discarded.of(y))
        twin = SAME_SHAPES.get(op)
        if twin is not None and ((type(first) is type(second) and type(first) in records)
                                 or first.shape == second.shape):
            op = entry.op = twin
    entry.ans = out if op.keeps_output else records.get(type(out._value)) or Discarded.of(out)
    return entry


class RunEntry(OpEntry):
    """The entry ``run`` records: an [`OpEntry`][minitape.core.primitive.OpEntry] whose ``backward``
    is spelled out for one or two inputs and no parameters.

    Ops people write (``Op.checked``), VJPs given otherwise than one per input (``Joint``), and a
    VJP that reads what its op does not keep take the kernel's ``OpEntry.backward``, with its checks
    and its words.  Saves 3,100 instructions of
    44,600 per op (7%).

    >>> x = tf.constant(2.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = x * 3.0
    >>> entry = tape.entries()[0]
    >>> type(entry).__name__, [g if g is None else g.numpy() for g in entry.backward([tf.constant(1.0)], {x._id})]
    ('RunEntry', [np.float32(3.0), None])
    """

    __slots__ = ()

    def backward(self, output_grads: list[Tensor | None], needed: Container[int]) -> list[Tensor | None]:
        """``OpEntry.backward``, spelled out for one or two inputs."""
        op = self.op
        if op.checked or type(op.vjps) is not tuple:
            return OpEntry.backward(self, output_grads, needed)
        (g,) = output_grads
        inputs, vjps, ans, saved = self.inputs, op.vjps, self.ans, self.saved
        try:
            if len(inputs) == 1:
                return [vjps[0](g, ans, *saved) if inputs[0] in needed else None]
            (x, y), (vjp_x, vjp_y) = inputs, vjps
            return [None if vjp_x is None or x not in needed else vjp_x(g, ans, *saved),
                    None if vjp_y is None or y not in needed else vjp_y(g, ans, *saved)]
        except NotKeptError:
            return OpEntry.backward(self, output_grads, needed)     # which VJP, and what it read: the kernel says


def tanh_grad_forward(xp: Any, y: Any, g: Any) -> Any:
    """The forward rule of tanh's gradient op: ``g * (1 - y * y)``, for NumPy arrays (not 0-d) in one new array.

    Just an optimization: NumPy's ``out=`` makes one array where the expression makes three (or, from
    256 KiB on, makes one and reuses it, after asking the C stack whether it may): 11 µs rather than
    15 for 256 by 256 float32, the same numbers; the 32 blocks of benchmarks/checkpoint.py (mode none)
    take 0.98× their CPU time (alternating in one process with the expression, medians of 60 pairs).

    >>> tanh_grad_forward(np, np.array([0.0, 0.5]), np.array([1.0, 2.0]))
    array([1. , 1.5])
    """
    if type(y) is np.ndarray and type(g) is np.ndarray and y.ndim and y.shape == g.shape and y.dtype == g.dtype:
        square = y * y
        np.subtract(1, square, out=square)
        return np.multiply(g, square, out=square)
    return g * (1 - y * y)
