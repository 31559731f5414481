"""Primitives: an op's forward rule beside its derivative, and the one way every op runs.

A primitive ([`Op`][minitape.core.primitive.Op]) declares

* a **forward** rule ``forward(xp, *arrays, **params)`` computing the output
  array with the array namespace ``xp`` (NumPy, or another backend);
* one **vector-Jacobian product** per input, ``vjp(g, ans, *inputs, **params)``:
  given ``g``, the gradient of the loss with respect to the output ``ans``, it
  returns the gradient with respect to that input.  VJPs are written with
  minitape's own ops, so when another tape is recording, the derivative is
  itself recorded and can be differentiated again;
* ``keep``: which values the VJPs read (``ANS`` and/or input positions).  The
  tape saves exactly those; every other input is replaced by a
  [`Discarded`][minitape.core.primitive.Discarded] record of its shape and dtype, so ``tanh`` keeps its
  output, and ``x @ W + b`` never keeps the product ``x @ W``;
* ``residual`` (rare): the forward rule returns ``(output, residual)``, a value
  it worked out on the way that the VJPs read, as TensorFlow's fused kernels
  do.  Sparse cross-entropy keeps ``softmax - one_hot`` this way.

Every op runs through [`apply`][minitape.core.primitive.apply]: compute the output, then, if a tape is
recording and the output can be differentiated, make an [`OpEntry`][minitape.core.primitive.OpEntry] and
offer it to the tapes.  The op table itself is [`minitape.ops`][minitape.ops].

>>> import minitape as tf
>>> tf.ops.tanh.op
Op('tanh', keep=('ans',))
"""
from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Container, Iterator, Sequence
from typing import Any

import numpy as np

from minitape.core import arrays, backends, dtypes
from minitape.core.entry import Entry
from minitape.core.errors import GradientShapeError, NotKeptError
from minitape.core.state import record, state
from minitape.core.tensor import Tensor, TensorShape, wrap

ANS = "ans"          # in ``keep``: the VJPs read the op's output
INPUTS = "inputs"    # in ``keep``: the VJPs read every input (ops of any arity)
NO_PARAMS: dict[str, Any] = {}


class ForEachInput:
    """The VJPs of an op that takes any number of inputs: one function ``vjp(k, g, ans, *inputs)``.

    Iterating gives the VJP of input 0, 1, 2...: the function, told which input it is for.

    >>> import itertools
    >>> from minitape.core.primitive import ForEachInput
    >>> first, second = itertools.islice(ForEachInput(lambda k, g, ans, *inputs: inputs[k]), 2)
    >>> second(None, None, "a", "b")
    'b'
    """

    __slots__ = ("vjp",)

    def __init__(self, vjp: Callable) -> None:
        self.vjp = vjp

    def __iter__(self) -> Iterator[Callable]:
        for k in itertools.count():
            yield functools.partial(self.vjp, k)


class Joint:
    """The VJPs of an op whose inputs' gradients share their work: one function that gives them all.

    ``vjp(wanted, g, ans, *inputs)`` returns one gradient per input; ``wanted[k]`` says whether
    input ``k``'s gradient is needed, so the function can skip the work of those that are not (what
    it returns for them is dropped).  A fused primitive's gradients often share a pass: batch norm's
    three need the same sums, convolution's two the same copy of the upstream gradient's windows.

    >>> from minitape.core.primitive import Joint, Op, apply
    >>> times = Op("times", lambda xp, x, y: x * y,
    ...            Joint(lambda wanted, g, ans, x, y: (g * y, g * x)), keep=(0, 1))
    >>> x, y = tf.constant(2.0), tf.constant(5.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     z = apply(times, (x, y))
    >>> tape.gradient(z, [x, y])[0].numpy()
    np.float32(5.0)
    """

    __slots__ = ("vjp",)

    def __init__(self, vjp: Callable) -> None:
        self.vjp = vjp


class Op:
    """A primitive: its forward rule, its VJPs (one per input) and what those VJPs keep.

    ``vjps`` is a tuple with one VJP (or None) per input; ops that take any
    number of inputs (``concat``, ``stack``, ``einsum``) give ``ForEachInput``,
    and ops whose inputs' gradients share their work give one ``Joint`` VJP.

    >>> from minitape.core.primitive import Op, apply
    >>> double = Op("double", lambda xp, x: 2 * x, (lambda g, ans, x: 2 * g,))
    >>> apply(double, (tf.constant(3.0),)).numpy()
    np.float32(6.0)
    """

    __slots__ = ("name", "forward", "vjps", "keep", "residual", "keeps_output", "kept_inputs", "checked")
    #: How many ops people wrote (``checked``) in this process: while none, a backward pass need not look
    #: among its entries for VJPs of theirs (see ``GradientTape._quiet_pass``).
    written = 0

    def __init__(self, name: str, forward: Callable, vjps: Sequence[Callable | None] | ForEachInput | Joint = (),
                 keep: tuple = (), residual: bool = False) -> None:
        self.name = name
        self.forward = forward
        self.vjps = vjps
        self.keep = keep
        self.residual = residual
        # ``keep`` read once, here, rather than for every entry recorded.
        self.keeps_output = ANS in keep
        self.kept_inputs = _Everything() if INPUTS in keep else frozenset(k for k in keep if isinstance(k, int))
        # Whether the backward step checks what the VJPs return (GradientShapeError): for the ops people write.
        # The op tables' own rows (minitape.ops, keras.ops) are checked by the test suite against finite
        # differences instead; skipping them saves about 3% of a scalar chain's time (benchmarks/against.py).
        self.checked = not getattr(forward, "__module__", "").startswith(_OP_TABLES)
        Op.written += self.checked


    def __repr__(self) -> str:
        return f"Op({self.name!r}, keep={self.keep!r})"


_OP_TABLES = ("minitape.ops.", "minitape.keras.ops.")      # the modules whose ops are the library's rows


class _Everything:
    """The positions an op keeps when it keeps every input, however many (``keep=(INPUTS,)``)."""

    def __contains__(self, k: int) -> bool:
        return True


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
        # Fast path: records are immutable, so a NumPy scalar's record (its type says it all) is made
        # once and shared.  Scalar ops then record without asking a value its shape and dtype.
        shared = _SCALAR_RECORDS.get(type(value))
        return shared if shared is not None else Discarded((value.shape, value.dtype))

    @property
    def shape(self) -> TensorShape:
        return TensorShape._known(tuple(self[0]))

    @property
    def dtype(self) -> dtypes.DType:
        return dtypes.as_dtype(self[1])

    @property
    def ndim(self) -> int:
        return len(self[0])

    def __repr__(self) -> str:
        return f"Discarded(shape={self[0]}, dtype={self[1]})"

    def _not_kept(self, *_: Any, **__: Any) -> Any:
        """A VJP used this record as a value: an error that ``OpEntry.backward`` names the op and the value in."""
        error = NotKeptError(f"a VJP used a value its op does not keep: the tape holds only a record of shape "
                             f"{self[0]} and dtype {self[1]}. Add it to the op's keep=.")
        error.record = self
        raise error

    # Where numbers, not a record, are wanted: an op's input (its array, _value), NumPy's conversion, arithmetic.
    _value = property(_not_kept)
    __array__ = __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _not_kept
    __truediv__ = __rtruediv__ = __pow__ = __rpow__ = __matmul__ = __rmatmul__ = __neg__ = _not_kept


_SCALAR_RECORDS = {kind: Discarded(((), dtype)) for kind, dtype in backends.SCALARS.items()}


def _fits(grad: Tensor, spec: Tensor | Discarded) -> bool:
    """Whether a gradient is a tensor of the shape and dtype of its input (the kept tensor, or its record)."""
    if type(grad) is not Tensor:
        return False
    value = grad._value
    if type(spec) is Discarded:
        return spec is _SCALAR_RECORDS.get(type(value)) or (value.shape == spec[0] and value.dtype == spec[1])
    kept = spec._value
    if type(value) is type(kept) and type(kept) in _SCALAR_RECORDS:
        return True                                    # a NumPy scalar's type says its shape and dtype
    return value.shape == kept.shape and value.dtype == kept.dtype


class OpEntry(Entry):
    """The tape's record of one op: the op, the ids it read and made, and what its VJPs need.

    ``saved`` holds, per input, the tensor (if a VJP reads it) or its [`Discarded`][minitape.core.primitive.Discarded]
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
        ids, saved = [], []
        for k, t in enumerate(inputs):
            ids.append(t._id)
            saved.append(t if k in op.kept_inputs else Discarded.of(t))
        self.op = op
        self.inputs = tuple(ids)
        self.outputs = (output._id,)
        self.saved = tuple(saved)
        self.ans = output if op.keeps_output else Discarded.of(output)
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
        if type(self.op.vjps) is Joint:
            return self._backward_jointly(g, needed)
        grads = []
        for k, (i, vjp) in enumerate(zip(self.inputs, self.op.vjps)):
            if vjp is None or i not in needed:
                grads.append(None)
                continue
            try:
                grad = vjp(g, self.ans, *self.saved, **self.params)
            except NotKeptError as error:                  # the VJP read what keep= did not name
                raise self._naming(error, k) from None
            if grad is not None and self.op.checked and not _fits(grad, self.saved[k]):
                raise self._misfit(grad, k)
            grads.append(grad)
        return grads

    def _backward_jointly(self, g: Tensor, needed: Container[int]) -> list[Tensor | None]:
        """``backward`` for a ``Joint`` VJP: one call for every input's gradient, those not needed dropped."""
        wanted = tuple(i in needed for i in self.inputs)
        try:
            grads = list(self.op.vjps.vjp(wanted, g, self.ans, *self.saved, **self.params))
        except NotKeptError as error:
            raise self._naming(error, None) from None
        if len(grads) != len(wanted):
            raise GradientShapeError(f"{self.op.name}: its joint VJP returned {len(grads)} gradients for "
                                     f"{len(wanted)} inputs; return one per input (None for one not wanted).")
        grads = [grad if wanted[k] else None for k, grad in enumerate(grads)]
        for k, grad in enumerate(grads):
            if grad is not None and self.op.checked and not _fits(grad, self.saved[k]):
                raise self._misfit(grad, k)
        return grads

    def _naming(self, error: NotKeptError, k: int | None) -> NotKeptError:
        """``error``, raised by a ``Discarded`` record, saying which op, which VJP and which value."""
        record = getattr(error, "record", None)
        roles = [(f"input {j}", str(j)) for j, saved in enumerate(self.saved) if saved is record]
        if self.ans is record:
            roles.append(("the output", "ANS"))
        if not roles:                                      # named already, by an entry the VJP itself ran
            return error
        name, vjp = self.op.name, "its VJP" if k is None else f"the VJP of input {k}"
        return NotKeptError(f"{name}: {vjp} used {' or '.join(r for r, _ in roles)}, which {name} "
                            f"does not keep: the tape holds only a record of shape {record[0]} and dtype "
                            f"{record[1]}. Add {' or '.join(f for _, f in roles)} to {name}'s keep=.")

    def _misfit(self, grad: Tensor, k: int) -> GradientShapeError:
        """The error for input ``k``'s VJP returning ``grad``, whose shape or dtype is not the input's."""
        if type(grad) is not Tensor:
            return GradientShapeError(f"{self.op.name}: the VJP of input {k} returned a value of type {type(grad).__name__}, not a "
                                      f"tensor. Write VJPs with minitape's ops, which return tensors.")
        value, spec = grad._value, self.saved[k]
        shape, dtype = (spec[0], spec[1]) if type(spec) is Discarded else (spec._value.shape, spec._value.dtype)
        return GradientShapeError(
            f"{self.op.name}: the VJP of input {k} returned a gradient of shape {tuple(value.shape)} and dtype "
            f"{value.dtype}, but input {k} has shape {tuple(shape)} and dtype {dtype}. A gradient has its input's "
            f"shape: sum it over the axes the input was broadcast along (unbroadcast), and give it the input's dtype.")

    def kept(self) -> list[tuple[int | str, Tensor]]:
        kept: list[tuple[int | str, Tensor]] = []
        for k, t in enumerate(self.saved):
            if type(t) is Tensor:
                kept.append((k, t))
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
    xp = arrays.namespace_of_inputs(op.name, values)
    value = arrays.quietly(op.forward, xp, *values, **params)     # inf and nan, without NumPy's warnings
    if op.residual:
        value, residual = value
        params = {**params, "residual": wrap(residual)}
    out = wrap(value)
    if state.tapes and op.vjps and backends.is_floating(value):
        record(OpEntry(op, inputs, out, params))
    return out
