"""Checkpoint schedules: which activations to keep, and how much recomputing that costs.

For a chain of ``n`` steps ``x_{i+1} = f_i(x_i)`` there is a whole range of
trades between memory and time:

* [`checkpoint_sequential`][minitape.checkpoint_sequential] splits the chain into segments and checkpoints
  each one (PyTorch's function, except that minitape checkpoints the last
  segment too): about ``√n`` segments keep ``√n`` states for one extra forward pass.
* [`checkpoint_chain`][minitape.checkpoint_chain] runs the **binomial schedule** of Griewank and Walther
  (Revolve, planned by [`minitape.checkpointing.revolve`][minitape.checkpointing.revolve]): given ``c``
  stored states it reverses the chain with the fewest possible step
  recomputations, ``t·n − C(c+t, c+1)``.

>>> import minitape as tf
>>> layers = [lambda x: tf.tanh(x * 2.0) for _ in range(4)]
>>> x = tf.constant([0.1, 0.2])
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = tf.checkpoint_chain(layers, x, snapshots=2)
>>> [entry.label for entry in tape.entries()]
['checkpoint_chain(4 steps, 2 snapshots)']
"""
from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from typing import Any

from minitape.core import events, random
from minitape.core.state import record, state, stop_recording, watch_variable_reads
from minitape.core.tensor import Tensor, Variable, wrap
from minitape.autodiff.tape import GradientTape
from minitape.checkpointing.call import CallEntry, context_snapshot, recomputing, trainable_read
from minitape.checkpointing.recompute import recompute_grad
from minitape.checkpointing.revolve import Schedule, chain_schedule, revolve_recomputations  # noqa: F401
from minitape.ops import as_operand, identity, zeros_like
from minitape.ops.arguments import as_int


# --------------------------------------------------------------------------- checkpoint_sequential

def checkpoint_sequential(functions: Sequence[Callable] | Any, segments: int, input: Any) -> Tensor:
    """Run ``functions`` one after another, checkpointing ``segments`` consecutive groups.

    The grouping is PyTorch's: ``len(functions) // segments`` functions per
    segment, the remainder in the last one.  Unlike PyTorch, the last segment is
    checkpointed too, so only the segments' inputs are held.

    >>> import minitape as tf
    >>> layers = [lambda x: tf.tanh(x * 2.0) for _ in range(6)]
    >>> x = tf.constant([0.1, 0.2])
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tf.checkpoint_sequential(layers, 3, x)
    >>> len(tape.entries())           # one entry per segment
    3
    """
    functions = list(getattr(functions, "layers", functions))
    if not functions:
        raise ValueError("checkpoint_sequential needs at least one function.")
    segments = as_int(segments, "checkpoint_sequential", "segments")
    if not 1 <= int(segments) <= len(functions):
        raise ValueError(f"checkpoint_sequential: segments must be between 1 and {len(functions)} "
                         f"(the number of functions), got {segments}.")
    size = len(functions) // int(segments)
    bounds = [k * size for k in range(int(segments))] + [len(functions)]
    x = input
    for start, stop in zip(bounds[:-1], bounds[1:]):
        x = recompute_grad(in_order(functions[start:stop], name=f"segment of {stop - start}"))(x)
    return x


def in_order(functions: Sequence[Callable], name: str | None = None) -> Callable:
    """One function that applies ``functions`` one after another: a chain, as a single step.

    >>> from minitape.checkpointing.schedules import in_order
    >>> in_order([lambda x: x + 1, lambda x: x * 10])(1)
    20
    """
    functions = list(functions)

    def chain(x: Any) -> Any:
        for f in functions:
            x = f(x)
        return x
    chain.__qualname__ = chain.__name__ = name or f"chain of {len(functions)}"
    return chain


# --------------------------------------------------------------------------- running a schedule

def checkpoint_chain(functions: Sequence[Callable], input: Any, snapshots: int) -> Tensor:
    """Run the chain ``functions`` on ``input``, reversing it later with the binomial schedule.

    At most ``snapshots`` states (the input included) are stored at once; the
    forward pass and ``tape.gradient`` together run the steps
    ``n + revolve_recomputations(n, snapshots)`` times, the fewest possible.
    Random ops in each step are replayed whenever the step is recomputed.

    >>> import minitape as tf
    >>> w = tf.Variable(0.9)
    >>> steps = [lambda x: tf.sin(x * w) for _ in range(8)]
    >>> x = tf.constant(0.5)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tf.checkpoint_chain(steps, x, snapshots=3)
    >>> [round(float(g), 6) for g in tape.gradient(y, [x, w])]   # same as without checkpointing
    [0.289524, 1.512973]
    """
    functions = list(functions)
    chain = ChainEntry(functions, chain_schedule(len(functions), snapshots), as_operand(input))
    with watch_variable_reads() as read, stop_recording():      # the forward pass, seen by no tape
        output = chain.forward()
    chain.returned(wrap(output._value), trainable_read(read))   # a new id: the entry's output
    record(chain)
    return chain.result


class ChainEntry(CallEntry):
    """The tape's record of a whole chain: its plan, the states it stores and the steps it records.

    [`checkpoint_chain`][minitape.checkpoint_chain] makes one, performs the plan's forward
    actions with it (tapes paused), tells it what the chain returned and records it;
    ``backward`` performs the reverse actions.  What the actions read and write is set up here.
    It exists before the forward pass runs because that pass's ``schedule`` events name it: the
    player draws the steps recorded then inside the chain's node.
    """

    def __init__(self, functions: list[Callable], plan: Schedule, x0: Tensor) -> None:
        self.functions, self.plan, self.x0 = functions, plan, x0
        self.label = f"checkpoint_chain({len(functions)} steps, {plan.snapshots} snapshots)"
        self.sources = [random.Source() for _ in functions]       # each step's randomness, seeded when first used
        self.context = context_snapshot()                           # e.g. Keras' training mode, for the re-runs
        self.stored: dict[int, Tensor] = {0: x0}                    # the states the plan keeps, by position
        self.recorded: dict[int, tuple[GradientTape, Tensor, Tensor]] = {}    # step -> its tape, input, output
        self.current = x0                                           # the state the last advance reached
        self.grad: Tensor | None = None               # the gradient at the state the reversal has reached
        self.variable_grads: list[Tensor | None] = []     # the variables' gradients, summed over the steps
        self.states_used = False                      # whether a reversal has used up the forward pass's states

    def returned(self, result: Tensor, variables: list[Variable]) -> None:
        """What the forward pass gave: the chain's output, and the trainable variables its steps read."""
        self.result = result
        super().__init__([self.x0], variables, [result])
        self.announce_reads()

    def forward(self) -> Tensor:
        """Perform the plan's forward actions from the input: store its states, record the last step."""
        self.stored, self.recorded, self.current = {0: self.x0}, {}, self.x0
        self.perform(self.plan.forward_actions)
        return self.recorded[self.plan.steps - 1][2]

    def backward(self, output_grads: list[Tensor | None], needed: Container[int]) -> list[Tensor | None]:
        """Perform the plan's reverse actions, carrying the gradient back from step to step.

        The first time, they start from what the forward pass stored.  Those states were
        computed with every tape paused, so to a tape recording this backward pass (to
        differentiate it again) they would be constants; and the reverse actions use them
        up.  So a tape recording, or any later call (a persistent tape, a jacobian), first
        performs the forward actions again, where the tapes can see them.
        """
        (self.grad,) = self.upstream(output_grads)
        self.variable_grads = [None] * len(self.variables)
        with recomputing(self.context):      # every step run from here on runs again, as it first ran
            if self.states_used or state.tapes:
                self.forward()
            self.states_used = True
            self.perform(self.plan.reverse_actions)
        grads = [self.grad] + self.variable_grads
        return [g if i in needed else None for g, i in zip(grads, self.inputs)]

    def perform(self, actions: list[tuple]) -> None:
        """Perform the plan's ``actions``, one by one (see [`Schedule`][minitape.checkpointing.revolve.Schedule])."""
        for action in actions:
            # A step recorded runs under a tape of its own: the event names it, so the player knows its entries.
            step_tape = GradientTape() if action[0] == "record" else None
            events.emit("schedule", entry=self, action=action, step_tape=step_tape)
            match action:
                case ("advance", i, j):
                    self.current = self._run(i, j, self.stored.get(i, self.current))
                case ("store", i):
                    self.stored[i] = self.current
                case ("free", i):
                    del self.stored[i]
                case ("record", i):
                    self.recorded[i] = self._record(i, self.stored.get(i, self.current), step_tape)
                case ("backward", i):
                    self._backward(*self.recorded.pop(i))

    def kept(self) -> list[tuple[int | str, Tensor]]:
        kept: list[tuple[int | str, Tensor]] = [(f"stored state {i}", x) for i, x in self.stored.items()]
        for i, (tape, _, out) in self.recorded.items():
            kept += [(f"kept inside step {i}", value) for entry in tape.entries() for _, value in entry.kept()]
            kept.append((f"output of step {i}", out))      # the target of the step's gradient, held till then
        return kept

    def _run(self, start: int, stop: int, x: Tensor) -> Tensor:
        """Steps ``start..stop-1`` from ``x``, unrecorded."""
        for k in range(start, stop):
            x = self._step(k, x)
        return x

    def _record(self, k: int, x: Tensor, tape: GradientTape) -> tuple[GradientTape, Tensor, Tensor]:
        """Step ``k`` from a fresh copy of ``x``, under ``tape``, its own (it watches the variables the step reads)."""
        x = identity(x)
        with tape:
            tape.watch(x)
            out = self._step(k, x)
        return tape, x, out

    def _backward(self, tape: GradientTape, x: Tensor, out: Tensor) -> None:
        """Carry the gradient back through a recorded step, and add what its variables receive."""
        grads = tape.gradient(out, [x, *self.variables], output_gradients=self.grad)
        self.grad = grads[0] if grads[0] is not None else zeros_like(x)
        self.variable_grads = [g if a is None else a if g is None else a + g
                               for a, g in zip(self.variable_grads, grads[1:])]

    def _step(self, k: int, x: Tensor) -> Tensor:
        with random.replay(random.Source(self.sources[k].seed)) as source:
            out = self.functions[k](x)
        self.sources[k].seed = source.seed          # known from the first run on
        return out
