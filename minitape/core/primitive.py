"""Primitives: an op's forward rule beside its derivative, and the one way every op runs.

A primitive (:class:`Op`) declares

* a **forward** rule ``forward(xp, *arrays, **params)`` computing the output
  array with the array namespace ``xp`` (NumPy, or another backend);
* one **vector-Jacobian product** per input, ``vjp(g, ans, *inputs, **params)``:
  given ``g``, the gradient of the loss with respect to the output ``ans``, it
  returns the gradient with respect to that input.  VJPs are written with
  minitape's own ops, so when another tape is recording, the derivative is
  itself recorded and can be differentiated again;
* ``keep``: which values the VJPs read (``ANS`` and/or input positions).  The
  tape saves exactly those; every other input is replaced by a
  :class:`Discarded` record of its shape and dtype, so ``tanh`` keeps its
  output, and ``x @ W + b`` never keeps the product ``x @ W``;
* ``residual`` (rare): the forward rule returns ``(output, residual)``, a value
  it worked out on the way that the VJPs read, as TensorFlow's fused kernels
  do.  Sparse cross-entropy keeps ``softmax - one_hot`` this way.

Every op runs through :func:`apply`: compute the output, then, if a tape is
recording and the output can be differentiated, make an :class:`OpEntry` and
offer it to the tapes.  The op table itself is :mod:`minitape.ops`.

>>> import minitape as tf
>>> tf.ops.tanh.op
Op('tanh', keep=('ans',))
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Container, Sequence
from typing import Any

from minitape.core import backends, dtypes
from minitape.core.entry import Entry
from minitape.core.state import record, state
from minitape.core.tensor import Tensor, TensorShape, wrap

ANS = "ans"          # in ``keep``: the VJPs read the op's output
INPUTS = "inputs"    # in ``keep``: the VJPs read every input (ops of any arity)
NO_PARAMS: dict[str, Any] = {}


class Op:
    """A primitive: its forward rule, its VJPs (one per input) and what those VJPs keep.

    ``vjps`` is a tuple with one VJP (or None) per input; for ops that take any
    number of inputs (``concat``, ``stack``, ``einsum``) it is one function
    ``vjps(k, g, ans, *inputs, **params)`` for every input ``k``.

    >>> from minitape.core.primitive import Op, apply
    >>> double = Op("double", lambda xp, x: 2 * x, (lambda g, ans, x: 2 * g,))
    >>> apply(double, (tf.constant(3.0),)).numpy()
    np.float32(6.0)
    """

    __slots__ = ("name", "forward", "vjps", "keep", "residual")

    def __init__(self, name: str, forward: Callable, vjps: Sequence[Callable | None] | Callable = (),
                 keep: tuple = (), residual: bool = False) -> None:
        self.name = name
        self.forward = forward
        self.vjps = vjps
        self.keep = keep
        self.residual = residual

    @property
    def differentiable(self) -> bool:
        """Whether any gradient flows through this op (comparisons and creation have none)."""
        return bool(self.vjps)

    def vjp(self, k: int) -> Callable | None:
        """The VJP for input ``k``, or None where no gradient flows to it."""
        if callable(self.vjps):
            return functools.partial(self.vjps, k)
        return self.vjps[k] if k < len(self.vjps) else None

    def keeps(self, k: int) -> bool:
        """Whether the VJPs read input ``k`` (so the tape must keep it)."""
        return k in self.keep or INPUTS in self.keep

    def __repr__(self) -> str:
        return f"Op({self.name!r}, keep={self.keep!r})"


class Discarded(tuple):
    """What a tape remembers of a value its VJPs do not need: ``(shape, dtype)``, not the numbers.

    >>> tf.ops.Discarded.of(tf.zeros((2, 3)))
    Discarded(shape=(2, 3), dtype=float32)
    """

    __slots__ = ()

    @staticmethod
    def of(tensor: Tensor) -> "Discarded":
        """The record of ``tensor``'s shape and dtype."""
        value = tensor._value
        return Discarded((value.shape, value.dtype))

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self[0])

    @property
    def dtype(self) -> dtypes.DType:
        return dtypes.as_dtype(self[1])

    @property
    def ndim(self) -> int:
        return len(self[0])

    def __repr__(self) -> str:
        return f"Discarded(shape={self[0]}, dtype={self[1]})"


class OpEntry(Entry):
    """The tape's record of one op: the op, the ids it read and made, and what its VJPs need.

    ``saved`` holds, per input, the tensor (if a VJP reads it) or its :class:`Discarded`
    record; ``ans`` is the output if the VJPs read it, else its record.

    >>> x = tf.constant(2.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tf.sin(x)
    >>> entry = tape.entries()[0]
    >>> entry.label, entry.saved[0] is not None, entry.ans
    ('sin', True, Discarded(shape=(), dtype=float32))
    """

    __slots__ = ("op", "inputs", "outputs", "ans", "saved", "params")

    def __init__(self, op: Op, inputs: Sequence[Tensor], output: Tensor, params: dict) -> None:
        self.op = op
        self.inputs = tuple([t._id for t in inputs])
        self.outputs = (output._id,)
        self.saved = tuple([t if op.keeps(k) else Discarded.of(t) for k, t in enumerate(inputs)])
        self.ans = output if ANS in op.keep else Discarded.of(output)
        self.params = params

    @property
    def label(self) -> str:
        return self.op.name

    def backward(self, output_grads: list[Tensor | None], needed: Container[int]) -> list[Tensor | None]:
        """Each input's gradient: its VJP applied to the output's gradient ``g`` (an op has one output).

        >>> x = tf.constant(2.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = x * 3.0
        >>> entry = tape.entries()[0]
        >>> grads = entry.backward([tf.constant(1.0)], needed={x._id})   # the constant 3.0 is not needed
        >>> grads[0].numpy(), grads[1]
        (np.float32(3.0), None)
        """
        (g,) = output_grads
        grads = []
        for k, i in enumerate(self.inputs):
            vjp = self.op.vjp(k) if i in needed else None
            grads.append(None if vjp is None else vjp(g, self.ans, *self.saved, **self.params))
        return grads

    def kept(self) -> list[tuple[int | str, Tensor]]:
        kept: list[tuple[int | str, Tensor]] = [(k, t) for k, t in enumerate(self.saved) if type(t) is Tensor]
        if type(self.ans) is Tensor:
            kept.append(("output", self.ans))
        if self.op.residual:
            kept.append(("residual", self.params["residual"]))
        return kept

    def input_specs(self) -> list[Tensor | Discarded]:
        return list(self.saved)

    def output_specs(self) -> list[Tensor | Discarded]:
        return [self.ans]


def apply(op: Op, inputs: Sequence[Tensor], params: dict = NO_PARAMS) -> Tensor:
    """Run ``op`` on tensors: compute, then record onto the tapes that follow an input.

    >>> from minitape.core.primitive import apply
    >>> apply(tf.ops.tanh.op, (tf.constant(0.0),)).numpy()
    np.float32(0.0)
    """
    values = [t._value for t in inputs]
    xp = backends.namespace_of_inputs(op.name, values)
    value = op.forward(xp, *values, **params)
    if op.residual:
        value, residual = value
        params = {**params, "residual": wrap(residual)}
    out = wrap(value)
    if state.tapes and op.vjps and backends.is_floating(value):
        record(OpEntry(op, inputs, out, params))
    return out
