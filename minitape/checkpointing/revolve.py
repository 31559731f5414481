"""The binomial (Revolve) schedule: which states to keep when reversing a chain, as a pure plan.

For a chain of ``n`` steps ``x_{i+1} = f_i(x_i)`` and room for ``c`` stored
states, Griewank and Walther's binomial schedule reverses the chain with the
fewest possible step recomputations, ``t·n − C(c+t, c+1)``.  This module only
plans: [`chain_schedule`][minitape.checkpointing.revolve.chain_schedule] returns the list of actions, which
[`checkpoint_chain`][minitape.checkpoint_chain] performs.

>>> from minitape.checkpointing import revolve
>>> revolve.revolve_recomputations(10, 1), revolve.revolve_recomputations(10, 3)
(45, 15)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np


def revolve_recomputations(n: int, snapshots: int) -> int:
    """Griewank–Walther's minimum: ``t·n − C(c+t, c+1)``, ``t`` least with ``C(c+t, c) ≥ n``.

    ``snapshots`` (``c``) counts stored states including the chain's input; the
    result counts step executions beyond the first forward pass.

    >>> from minitape.checkpointing.revolve import revolve_recomputations
    >>> [revolve_recomputations(10, c) for c in (1, 2, 3, 10)]       # more room, fewer recomputations
    [45, 20, 15, 9]
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

    >>> from minitape.checkpointing.revolve import chain_schedule
    >>> plan = chain_schedule(3, 2)
    >>> plan.actions
    [('advance', 0, 1), ('store', 1), ('advance', 1, 2), ('record', 2), ('backward', 2), ('record', 1), ('backward', 1), ('free', 1), ('record', 0), ('backward', 0)]
    >>> plan.recomputations, plan.peak_snapshots
    (2, 2)
    """
    _check_chain(n, snapshots)
    actions: list[tuple] = []
    _sweep_and_reverse(0, n, snapshots - 1, actions)
    return Schedule(n, snapshots, actions)


def _check_chain(n: int, snapshots: int) -> None:
    for name, value in (("n", n), ("snapshots", snapshots)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise TypeError(f"{name} must be an integer, got {value!r}; a schedule counts whole steps and states.")
    if n < 1:
        raise ValueError(f"a chain needs at least one step, got n={n}.")
    if snapshots < 1:
        raise ValueError(f"snapshots counts the chain's input, so it must be at least 1, got {snapshots}.")


# Where to split.  Reversing the steps start..start+l-1 with the state at ``start`` stored and ``s``
# more free slots, splitting at m stores the state at start+m, reverses the right part with one slot
# fewer, frees it, then reverses the left part.  Reversing k steps with c stored states costs
# R(k, c) = k + revolve_recomputations(k, c) step executions, so splitting at m costs
#     f(m) = m + R(l - m, s) + R(m, s + 1),
# and the k-th step of such a reversal adds 1 + t to R, t the least with C(c+t, c) >= k: f is convex,
# and falls until the first m with t_{s+1}(m+1) + 1 >= t_s(l-m).  Writing r = t_{s+1}(m+1), that is
# m >= l - C(s+r+1, s), reachable within r's range of m (m < C(s+r+1, s+1)) first for the least r with
# C(s+r+2, s+1) > l.  So each split costs a few binomials, not a search; ties go to the smallest m.
# (The forward sweep splits where a reversal would: advancing is free during it, which lowers every
# split's cost by the same l.)

def _split(l: int, s: int) -> int:
    """The smallest optimal split for reversing ``l`` steps with ``s`` free slots; 0: store nothing.

    >>> from minitape.checkpointing.revolve import _split
    >>> [_split(l, 1) for l in range(1, 8)]       # one free slot: the right part is reversed from its start
    [0, 0, 1, 1, 2, 3, 3]
    """
    if l <= 2 or s == 0:         # with one or two steps, or no free slot, advancing from the start costs no more
        return 0
    r = 0                        # the repetitions of the cheapest split's left part: least r with C(s+r+2, s+1) > l
    while math.comb(s + r + 2, s + 1) <= l:
        r += 1
    return min(l - 1, max(1, math.comb(s + r, s + 1), l - math.comb(s + r + 1, s)))


def _sweep_and_reverse(start: int, n: int, free: int, actions: list[tuple]) -> None:
    """Actions of the forward sweep from ``start``, then of the whole reversal."""
    stack = []                  # the snapshot positions stored along the sweep, with their slot counts
    position, l, s = start, n, free
    while m := _split(l, s):
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
    """Actions reversing steps ``start..start+l-1`` (none recorded), the state at ``start`` stored.

    The right part of each split is a recursion with one slot fewer (at most ``s`` deep); the
    left part, with the same slots, is the next turn of the loop.
    """
    while l > 0:
        m = _split(l, s)
        if m == 0:
            for i in range(start + l - 1, start - 1, -1):
                if i > start:
                    actions.append(("advance", start, i))
                actions += [("record", i), ("backward", i)]
            return
        actions += [("advance", start, start + m), ("store", start + m)]
        _reverse_actions(start + m, l - m, s - 1, actions)
        actions.append(("free", start + m))
        l = m
