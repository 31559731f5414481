"""Memory-budget exercises: choose what to recompute so that a tape fits, and hear how far off a choice is.

A choice is checked by running it: the chain's blocks under a tape, the chosen segments each under one
[`recompute_grad`][minitape.recompute_grad], the bytes held measured with ``tape.memory_info()`` and the
gradients compared with the plain chain's.  The best choice is found the same way, by measuring, never
stored.

>>> import minitape as tf
>>> from minitape.course import budgets
>>> w = tf.Variable(tf.ones((4, 4)) / 4)
>>> blocks = [lambda h: tf.tanh(h @ w)] * 3
>>> x = tf.ones((2, 4))
>>> budgets.check_segments([[0, 1, 2]], blocks, x, budget=0)
✔ optimal: the tape holds 0 bytes (budget 0), recomputing 3 blocks, the fewest that fit.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np

from minitape import ops
from minitape.autodiff.tape import GradientTape
from minitape.checkpointing.recompute import recompute_grad
from minitape.core.tensor import Tensor
from minitape.course.exercises import Verdict


def run_segments(blocks: Sequence[Callable], x: Tensor, segments: Sequence[Sequence[int]]) -> Callable:
    """A function of ``x`` running ``blocks`` in order, each segment (consecutive indices) under one ``recompute_grad``.

    >>> import minitape as tf
    >>> from minitape.course.budgets import run_segments
    >>> blocks = [lambda h: h * 2.0, lambda h: h + 1.0, lambda h: h * h]
    >>> float(run_segments(blocks, tf.constant(1.0), [[0, 1]])(tf.constant(1.0)))
    9.0
    """
    starts = {segment[0]: len(segment) for segment in segments}

    def chain(h: Tensor) -> Tensor:
        k = 0
        while k < len(blocks):
            n = starts.get(k, 0)
            if n:
                h = recompute_grad(lambda h, group=tuple(blocks[k:k + n]): _in_order(group, h))(h)
            else:
                h, n = blocks[k](h), 1
            k += n
        return h
    return chain


def _in_order(blocks: Sequence[Callable], h: Tensor) -> Tensor:
    for block in blocks:
        h = block(h)
    return h


def _held_and_gradients(blocks: Sequence[Callable], x: Tensor, segments: Sequence[Sequence[int]],
                        gradients: bool = True) -> tuple[int, list]:
    """The bytes a tape holds after the forward pass (``x`` watched), and the gradients of the output's sum."""
    with GradientTape() as tape:
        tape.watch(x)
        out = run_segments(blocks, x, segments)(x)
        held = tape.memory_info()["current"]
        total = ops.reduce_sum(out)
    return held, tape.gradient(total, [x, *tape.watched_variables()]) if gradients else []


def _runs(chosen: Sequence[int]) -> list[list[int]]:
    """The chosen blocks as maximal runs of consecutive indices: the fewest segments for them."""
    return [[k for _, k in run] for _, run in itertools.groupby(enumerate(sorted(chosen)), lambda p: p[1] - p[0])]


def _segments_problem(segments: object, depth: int) -> str | None:
    """What is wrong with the shape of a choice of segments, or None."""
    try:
        segments = [list(segment) for segment in segments]
        indices = [int(k) for segment in segments for k in segment]
    except TypeError:
        return "write my_choice as a list of segments, each a list of block indices, e.g. [[1], [3, 4]]."
    if not set(indices) <= set(range(depth)):
        return f"block indices run from 0 to {depth - 1}; got {sorted(set(indices))}."
    if len(indices) != len(set(indices)):
        return "a block may be in one segment only."
    for segment in segments:
        if not segment or list(segment) != list(range(segment[0], segment[0] + len(segment))):
            return f"a segment is a run of consecutive blocks in order, e.g. [3, 4]; got {segment}."
    return None


def check_segments(choice: Sequence[Sequence[int]] | None, blocks: Sequence[Callable], x: Tensor,
                   budget: int) -> Verdict:
    """Exercise: which segments of a chain of ``blocks`` to recompute, so that its tape holds at most
    ``budget`` bytes after the forward pass, recomputing as few blocks as possible.

    ``choice`` is a list of segments, each a list of consecutive block indices run under one
    ``recompute_grad``; the other blocks run plainly.  ``x`` (the chain's input) is watched.  An answer
    over budget hears by how much; one within budget hears whether fewer blocks would have done.

    >>> import minitape as tf
    >>> from minitape.course import budgets
    >>> w = tf.Variable(tf.ones((4, 4)) / 4)
    >>> blocks = [lambda h: tf.tanh(h @ w)] * 4
    >>> x = tf.ones((2, 4))
    >>> budgets.check_segments([[1], [2]], blocks, x, budget=64)
    ✘ the tape holds 128 bytes: 64 over the budget of 64.
    >>> budgets.check_segments([[1, 2, 3]], blocks, x, budget=64)
    ✔ within budget (32 of 64 bytes), but recomputing 3 blocks; 2 would do. Which of yours could run plainly?
    """
    if choice is None:
        return Verdict(False, "not done yet: set my_choice to the segments you would recompute, then run this cell "
                              "again.")
    problem = _segments_problem(choice, len(blocks))
    if problem:
        return Verdict(False, problem)
    segments = [list(segment) for segment in choice]
    held, grads = _held_and_gradients(blocks, x, segments)
    _, expected = _held_and_gradients(blocks, x, [])
    if any(not np.allclose(g.numpy(), e.numpy(), rtol=1e-4, atol=1e-5) for g, e in zip(grads, expected)):
        return Verdict(False, "the gradients differ from the plain chain's: checkpointing must not change them.")
    if held > budget:
        return Verdict(False, f"the tape holds {held:,} bytes: {held - budget:,} over the budget of {budget:,}.")
    recomputed = sum(len(segment) for segment in segments)
    fewest = next(n for n in range(len(blocks) + 1) for chosen in itertools.combinations(range(len(blocks)), n)
                  if _held_and_gradients(blocks, x, _runs(chosen), gradients=False)[0] <= budget)
    if recomputed > fewest:
        return Verdict(True, f"within budget ({held:,} of {budget:,} bytes), but recomputing {recomputed} blocks; "
                             f"{fewest} would do. Which of yours could run plainly?")
    return Verdict(True, f"optimal: the tape holds {held:,} bytes (budget {budget:,}), recomputing {fewest} blocks, "
                         f"the fewest that fit.")
