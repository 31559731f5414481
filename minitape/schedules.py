"""Checkpoint schedules: which activations to keep, and how much recomputing that costs.

For a chain of ``n`` steps ``x_{i+1} = f_i(x_i)`` there is a whole range of
trades between memory and time:

* :func:`checkpoint_sequential` splits the chain into segments and checkpoints
  each one (PyTorch's function, except that minitape checkpoints the last
  segment too): about ``√n`` segments keep ``√n`` states for one extra forward pass.
* :func:`checkpoint_chain` runs the **binomial schedule** of Griewank and Walther
  (Revolve): given ``c`` stored states it reverses the chain with the fewest
  possible step recomputations, ``t·n − C(c+t, c+1)``.

>>> import minitape as tf
>>> from minitape import schedules
>>> schedules.revolve_recomputations(10, 1), schedules.revolve_recomputations(10, 3)
(45, 15)
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from minitape import events, random
from minitape.checkpoint import recompute_grad
from minitape.ops import Discarded, as_operand, identity, zeros_like
from minitape.tape import Entry, GradientTape, record, stop_recording, variable_accessed, watch_variable_reads
from minitape.tensor import Tensor, wrap


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
    >>> len(tape._entries)            # one entry per segment
    3
    """
    functions = list(getattr(functions, "layers", functions))
    if not functions:
        raise ValueError("checkpoint_sequential needs at least one function.")
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

    >>> from minitape.schedules import in_order
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


# --------------------------------------------------------------------------- the binomial schedule

def revolve_recomputations(n: int, snapshots: int) -> int:
    """Griewank–Walther's minimum: ``t·n − C(c+t, c+1)``, ``t`` least with ``C(c+t, c) ≥ n``.

    ``snapshots`` (``c``) counts stored states including the chain's input; the
    result counts step executions beyond the first forward pass.
    """
    _check_chain(n, snapshots)
    c, t = snapshots, 0
    while math.comb(c + t, c) < n:
        t += 1
    return t * n - math.comb(c + t, c + 1)


@dataclass
class Schedule:
    """A plan for reversing a chain: the actions, and what they cost.

    Actions are tuples a notebook can draw: ``("advance", i, j)`` runs steps
    ``i..j-1`` unrecorded, starting from the state at ``i``; ``("store", i)``
    keeps the state at ``i``; ``("free", i)`` lets it go; ``("record", i)`` runs
    step ``i`` under a tape; ``("backward", i)`` pushes the gradient back
    through the recorded step ``i``.  The forward pass is every action up to
    and including ``("record", n - 1)``.
    """

    steps: int
    snapshots: int
    actions: list[tuple] = field(default_factory=list)

    @property
    def executions(self) -> int:
        """Step executions, the forward pass included."""
        return sum(a[2] - a[1] if a[0] == "advance" else 1 for a in self.actions if a[0] in ("advance", "record"))

    @property
    def recomputations(self) -> int:
        return self.executions - self.steps

    @property
    def forward_actions(self) -> list[tuple]:
        return self.actions[:self.actions.index(("record", self.steps - 1)) + 1]

    @property
    def reverse_actions(self) -> list[tuple]:
        return self.actions[len(self.forward_actions):]

    @property
    def peak_snapshots(self) -> int:
        """The most states stored at once (the input included)."""
        stored, peak = {0}, 1
        for action in self.actions:
            if action[0] == "store":
                stored.add(action[1])
            elif action[0] == "free":
                stored.discard(action[1])
            peak = max(peak, len(stored))
        return peak


def chain_schedule(n: int, snapshots: int) -> Schedule:
    """The optimal (binomial) schedule for ``n`` steps and ``snapshots`` stored states.

    >>> from minitape.schedules import chain_schedule
    >>> plan = chain_schedule(4, 2)
    >>> plan.actions
    [('advance', 0, 1), ('store', 1), ('advance', 1, 3), ('record', 3), ('backward', 3), ('advance', 1, 2), ('record', 2), ('backward', 2), ('record', 1), ('backward', 1), ('free', 1), ('record', 0), ('backward', 0)]
    >>> plan.recomputations, plan.peak_snapshots
    (4, 2)
    """
    _check_chain(n, snapshots)
    actions: list[tuple] = []
    _sweep_and_reverse(0, n, snapshots - 1, actions)
    return Schedule(n, snapshots, actions)


def _check_chain(n: int, snapshots: int) -> None:
    if n < 1:
        raise ValueError(f"a chain needs at least one step, got n={n}.")
    if snapshots < 1:
        raise ValueError(f"snapshots counts the chain's input, so it must be at least 1, got {snapshots}.")


# Two costs, as in Griewank and Walther.  Both reverse the steps start..start+l-1 with the state
# at ``start`` stored and ``s`` more free snapshot slots:
#   reverse_cost(l, s): none of the steps is recorded yet;
#   sweep_cost(l, s):   the forward pass is sweeping through, so advancing is free and the last
#                       step is recorded as the sweep reaches it.
# Splitting at m stores the state at start+m, reverses the right part with one slot fewer, frees it,
# then reverses the left part.

@functools.lru_cache(maxsize=None)
def _reverse(l: int, s: int) -> tuple[int, int]:
    """(cost, best split) for reversing ``l`` unrecorded steps with ``s`` free slots."""
    if l == 1:
        return 1, 0
    best = (l * (l + 1) // 2, 0)                  # no split: advance from the start for each step
    if s > 0:
        for m in range(1, l):
            best = min(best, (m + _reverse(l - m, s - 1)[0] + _reverse(m, s)[0], m))
    return best


@functools.lru_cache(maxsize=None)
def _sweep(l: int, s: int) -> tuple[int, int]:
    """(cost beyond the sweep, best split) for reversing ``l`` steps the forward pass sweeps through."""
    if l == 1:
        return 0, 0
    best = ((l - 1) * l // 2, 0)                   # the last step was recorded by the sweep
    if s > 0:
        for m in range(1, l):
            best = min(best, (_sweep(l - m, s - 1)[0] + _reverse(m, s)[0], m))
    return best


def _sweep_and_reverse(start: int, n: int, free: int, actions: list[tuple]) -> None:
    """Actions of the forward sweep from ``start``, then of the whole reversal."""
    stack = []                  # the snapshot positions stored along the sweep, with their slot counts
    position, l, s = start, n, free
    while l > 1 and _sweep(l, s)[1]:
        m = _sweep(l, s)[1]
        actions += [("advance", position, position + m), ("store", position + m)]
        stack.append((position, m, s))
        position, l, s = position + m, l - m, s - 1
    if l > 1:
        actions.append(("advance", position, position + l - 1))
    actions += [("record", position + l - 1), ("backward", position + l - 1)]
    _reverse_actions(position, l - 1, s, actions)           # the rest of the last swept segment
    for left_start, m, slots in reversed(stack):
        actions.append(("free", left_start + m))
        _reverse_actions(left_start, m, slots, actions)


def _reverse_actions(start: int, l: int, s: int, actions: list[tuple]) -> None:
    """Actions reversing steps ``start..start+l-1`` (none recorded), the state at ``start`` stored."""
    if l == 0:
        return
    m = _reverse(l, s)[1]
    if l == 1:
        actions += [("record", start), ("backward", start)]
    elif m == 0:
        for i in range(start + l - 1, start - 1, -1):
            if i > start:
                actions.append(("advance", start, i))
            actions += [("record", i), ("backward", i)]
    else:
        actions += [("advance", start, start + m), ("store", start + m)]
        _reverse_actions(start + m, l - m, s - 1, actions)
        actions.append(("free", start + m))
        _reverse_actions(start, m, s, actions)


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
    plan = chain_schedule(len(functions), snapshots)
    entry = ChainEntry(functions, plan)
    output = entry.forward(input)
    record(entry)
    return output


class ChainEntry(Entry):
    """The tape's record of a whole chain: its stored states, and the last step on a local tape."""

    def __init__(self, functions: list[Callable], plan: Schedule) -> None:
        self.functions, self.plan = functions, plan
        self.name = f"checkpoint_chain({len(functions)} steps, {plan.snapshots} snapshots)"
        self.sources = [random.Source() for _ in functions]       # each step's randomness, seeded when first used
        self.stored: dict[int, Tensor] = {}
        self.recorded: dict[int, tuple[GradientTape, Tensor, Tensor]] = {}

    def forward(self, x0: Any) -> Tensor:
        x0 = as_operand(x0)
        self.stored[0] = x0
        with watch_variable_reads() as read:
            with stop_recording():
                for action in self.plan.forward_actions:
                    out = self._perform(action)
        self.variables = [read[i] for i in sorted(read) if read[i].trainable]
        for variable in self.variables:
            variable_accessed(variable)
        self.arg_tensors = [x0]
        self.inputs = (x0._id,) + tuple(v._id for v in self.variables)
        self.output_specs = [Discarded.of(out)]
        result = wrap(out._value)
        self.outputs = (result._id,)
        return result

    def backward(self, output_grads: list[Tensor | None], needed: Any) -> list[Tensor | None]:
        self.grad = output_grads[0] if output_grads[0] is not None else zeros_like(self.output_specs[0])
        self.variable_grads: list[Tensor | None] = [None] * len(self.variables)
        for action in self.plan.reverse_actions:
            self._perform(action)
        grads = [self.grad] + self.variable_grads
        return [g if i in needed else None for g, i in zip(grads, self.inputs)]

    def residuals(self) -> list[tuple[int | str, Tensor]]:
        kept: list[tuple[int | str, Tensor]] = [(f"stored state {i}", x) for i, x in self.stored.items()]
        for i, (tape, _, _) in self.recorded.items():
            kept += [(f"kept inside step {i}", value) for entry in tape._entries for _, value in entry.residuals()]
        return kept

    def _perform(self, action: tuple) -> Tensor | None:
        kind, i = action[0], action[1]
        if events.listeners:
            events.emit("schedule", entry=self, action=action)
        if kind == "store":
            self.stored[i] = self._current
        elif kind == "free":
            del self.stored[i]
        elif kind == "advance":
            x = self.stored[i] if i in self.stored else self._current
            for k in range(i, action[2]):
                x = self._step(k, x)
            self._current = x
            return x
        elif kind == "record":
            x = identity(self.stored[i] if i in self.stored else self._current)
            with GradientTape() as tape:          # it watches the variables the step reads
                tape.watch(x)
                out = self._step(i, x)
            self.recorded[i] = (tape, x, out)
            return out
        elif kind == "backward":
            tape, x, out = self.recorded.pop(i)
            grads = tape.gradient(out, [x, *self.variables], output_gradients=self.grad)
            self.grad = grads[0] if grads[0] is not None else zeros_like(x)
            self.variable_grads = [g if a is None else a if g is None else a + g
                                   for a, g in zip(self.variable_grads, grads[1:])]
        return None

    def _step(self, k: int, x: Tensor) -> Tensor:
        with random.replay(random.Source(self.sources[k].seed)) as source:
            out = self.functions[k](x)
        self.sources[k].seed = source.seed          # known from the first run on
        return out
