"""The one fenced fast path: ``apply`` for the op table's commonest call, spelled out.

Just an optimization.  On small values Python's own overhead is the cost of an op, and most ops
run are NumPy ops of one or two inputs without parameters.  ``run`` does for those exactly what
[`apply`][minitape.core.primitive.apply] does, with apply's list, lookups and calls spelled out,
and hands every other call to ``apply``.  The public functions that ``unary`` and ``binary`` make,
and the gradient ops of ``elementwise``, call it; the algorithm to read is ``apply``.

Measured on the scalar chain of ``benchmarks/overhead.py`` (a), in paired fresh processes against
``apply`` alone: it saves about 1.4 µs of 9.8 per op (15%).

>>> import minitape as tf
>>> from minitape.ops.fast_path import run
>>> run(tf.tanh.op, (tf.constant(0.0),)).numpy()
np.float32(0.0)
"""
from __future__ import annotations

import numpy as np

from minitape.core.arrays import IGNORE, NUMPY_ERRSTATE
from minitape.core.backends import FLOATING, by_type
from minitape.core.primitive import NO_PARAMS, Op, OpEntry, apply
from minitape.core.state import state
from minitape.core.tensor import Tensor, wrap


def run(op: Op, inputs: tuple[Tensor, ...]) -> Tensor:
    """``apply(op, inputs)``, faster for one or two NumPy inputs (the op takes no parameters)."""
    first = inputs[0]._value
    second = inputs[1]._value if len(inputs) == 2 else None
    if (op.residual or NUMPY_ERRSTATE is None or by_type.get(type(first)) is not np
            or (second is not None and by_type.get(type(second)) is not np)):
        return apply(op, inputs)
    token = NUMPY_ERRSTATE.set(IGNORE)                      # arrays.quietly, spelled out
    try:
        value = op.forward(np, first) if second is None else op.forward(np, first, second)
    finally:
        NUMPY_ERRSTATE.reset(token)
    out = wrap(value)
    tapes = state.tapes
    if tapes and op.vjps and (type(value) in FLOATING or type(value.dtype) in FLOATING):
        entry = OpEntry(op, inputs, out, NO_PARAMS)
        for tape in tapes:                                  # record(entry), spelled out: 1.3% (callgrind)
            tape._offer(entry)
    return out
