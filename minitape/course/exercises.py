"""Exercise checkers: test a student's answer by its properties, and say what is wrong in words.

Each checker returns a [`Verdict`][minitape.course.exercises.Verdict], which notebooks display; it never
raises for a wrong or unfinished answer, so a half-done notebook still runs.
Answers are checked against finite differences and invariants, never against a
stored answer.

>>> import minitape as tf
>>> from minitape.course import exercises
>>> def square_vjp(g, x):
...     return g * 2.0 * x
>>> exercises.check_vjp(square_vjp, tf.square, [(3,)])
✔ correct: the gradient matches finite differences for every shape tried.
>>> exercises.check_vjp(lambda g, x: -g * 2.0 * x, tf.square, [(3,)])
✘ the gradient has the right size but the opposite sign: check the sign of each term.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from minitape import ops
from minitape.checkpointing.recompute import recompute_grad
from minitape.core.tensor import Variable
from minitape.ops import batch_normalization, conv2d, moments
from minitape.core.errors import InvalidArgumentError
from minitape.course.gradcheck import numerical_gradients
from minitape.checkpointing.revolve import revolve_recomputations
from minitape.autodiff.tape import GradientTape
from minitape.core.tensor import Tensor, constant


@dataclass
class Verdict:
    """The outcome of a check: ``passed``, and a message a student can act on.

    >>> from minitape.course.exercises import Verdict
    >>> verdict = Verdict(False, "not done yet")
    >>> verdict, bool(verdict)
    (✘ not done yet, False)
    """

    passed: bool
    message: str

    def __bool__(self) -> bool:
        return self.passed

    def __repr__(self) -> str:
        return ("✔ " if self.passed else "✘ ") + self.message

    def _repr_markdown_(self) -> str:
        return ("**✔** " if self.passed else "**✘** ") + self.message


def _not_done(name: str) -> Verdict:
    return Verdict(False, f"not done yet: write the body of {name}, then run this cell again.")


def _value(answer: object, unfinished: object) -> object:
    """An answer given as a function (as the graded assignment asks) is what it returns; ``unfinished`` if it
    still raises ``NotImplementedError``."""
    if not callable(answer):
        return answer
    try:
        return answer()
    except NotImplementedError:
        return unfinished


# --------------------------------------------------------------------------- VJPs

def check_vjp(student: Callable, forward: Callable, shapes: Sequence[tuple[int, ...]], wrt: int = 0,
              seed: int = 0) -> Verdict:
    """Check ``student(g, *inputs)``, the VJP of ``forward`` with respect to input ``wrt``.

    For each case of input ``shapes`` (several cases may be given as a list of
    lists), the student's gradient is compared with finite differences of
    ``sum(g * forward(*inputs))``.

    >>> import minitape as tf
    >>> from minitape.course import exercises
    >>> exercises.check_vjp(lambda g, x: g * tf.cos(x), tf.sin, [[(3,)], [(2, 2)]])
    ✔ correct: the gradient matches finite differences for every shape tried.
    >>> exercises.check_vjp(lambda g, x, y: g * x, tf.multiply, [(2,), (2,)], wrt=1)
    ✔ correct: the gradient matches finite differences for every shape tried.
    """
    cases = [shapes] if shapes and isinstance(shapes[0], tuple) and all(isinstance(n, int) for n in shapes[0]) else shapes
    rng = np.random.default_rng(seed)
    for case in cases:
        inputs = [rng.uniform(0.5, 1.5, shape) * rng.choice([-1.0, 1.0], shape) for shape in case]
        out_shape = tuple(forward(*[constant(a) for a in inputs]).shape)
        g = rng.uniform(0.5, 1.5, out_shape)
        expected = numerical_gradients(forward, inputs, g)[wrt]
        try:
            got = student(constant(g), *[constant(a) for a in inputs])
        except NotImplementedError:
            return _not_done(getattr(student, "__name__", "your function"))
        except InvalidArgumentError as error:
            return Verdict(False, f"your VJP raised: {str(error).rstrip('.')}. The shapes do not line up: the gradient with "
                                  f"respect to an input must have that input's shape (a transpose missing?).")
        verdict = _compare(np.asarray(getattr(got, "numpy", lambda: got)(), dtype=np.float64), expected, case[wrt])
        if verdict is not None:
            return verdict
    return Verdict(True, "correct: the gradient matches finite differences for every shape tried.")


def _compare(got: np.ndarray, expected: np.ndarray, shape: tuple[int, ...]) -> Verdict | None:
    """None if ``got`` is right; otherwise what is wrong with it."""
    if got.shape != expected.shape:
        extra = got.ndim - expected.ndim
        if extra >= 0 and _reduces_to(got, expected.shape):
            return Verdict(False, f"your gradient has shape {got.shape} but the input has shape {shape}: the "
                                  f"input was broadcast, so sum the gradient over the broadcast axes "
                                  f"(tf.reduce_sum(g, axis=...)).")
        if got.ndim == 2 and got.T.shape == expected.shape:
            return Verdict(False, f"your gradient has shape {got.shape} but the input has shape {shape}: "
                                  f"it looks transposed.")
        return Verdict(False, f"your gradient has shape {got.shape} but the input has shape {shape}: the "
                              f"gradient always has the shape of what it is the gradient of.")
    if np.allclose(got, expected, rtol=1e-5, atol=1e-6):
        return None
    if np.allclose(got, -expected, rtol=1e-5, atol=1e-6):
        return Verdict(False, "the gradient has the right size but the opposite sign: check the sign of each term.")
    if got.ndim == 2 and got.shape[0] == got.shape[1] and np.allclose(got.T, expected, rtol=1e-5, atol=1e-6):
        return Verdict(False, "your gradient is the transpose of the right one: check the order of the factors "
                              "and which one is transposed.")
    worst = float(np.max(np.abs(got - expected)))
    return Verdict(False, f"the shape is right but the values are not (off by up to {worst:.3g} from finite "
                          f"differences): write out the chain rule for one entry and compare.")


def _reduces_to(got: np.ndarray, shape: tuple[int, ...]) -> bool:
    try:
        return np.broadcast_shapes(got.shape, shape) == got.shape
    except ValueError:
        return False


def check_matmul_vjp(student: Callable) -> Verdict:
    """Exercise: ``student(g, a, b)`` is the gradient of ``sum(g * (a @ b))`` with respect to ``a``.

    >>> import minitape as tf
    >>> from minitape.course import exercises
    >>> exercises.check_matmul_vjp(lambda g, a, b: g @ tf.transpose(b))
    ✔ correct: the gradient matches finite differences for every shape tried.
    >>> exercises.check_matmul_vjp(lambda g, a, b: g @ b)
    ✘ your VJP raised: matmul: shapes (2, 4) and (3, 4) do not match ... (a transpose missing?).
    """
    return check_vjp(student, ops.matmul, [[(2, 3), (3, 4)], [(4, 4), (4, 4)], [(1, 5), (5, 2)]], wrt=0)


def check_bias_vjp(student: Callable) -> Verdict:
    """Exercise: ``student(g, x, b)`` is the gradient of ``sum(g * (x + b))`` with respect to the bias ``b``.

    >>> import minitape as tf
    >>> from minitape.course import exercises
    >>> exercises.check_bias_vjp(lambda g, x, b: tf.reduce_sum(g, axis=0))
    ✔ correct: the gradient matches finite differences for every shape tried.
    >>> exercises.check_bias_vjp(lambda g, x, b: g)
    ✘ your gradient has shape (4, 3) but the input has shape (3,): the input was broadcast, so sum ...
    """
    return check_vjp(student, ops.add, [[(4, 3), (3,)], [(2, 5), (5,)]], wrt=1)


# --------------------------------------------------------------------------- checkpointing

def check_checkpoint(student_block: Callable, block: Callable, width: int = 4, depth: int = 6) -> Verdict:
    """Check a checkpointed version of ``block``: the same gradients, and a tape that records only the calls.

    >>> import minitape as tf
    >>> from minitape.course import exercises
    >>> def block(h):
    ...     return tf.tanh(h)
    >>> exercises.check_checkpoint(tf.recompute_grad(block), block)
    ✔ correct: one entry per call, nothing inside recorded, and the same gradient.
    >>> exercises.check_checkpoint(block, block)
    ✘ the tape recorded 6 ops (tanh): a checkpointed block records only the call. Wrap the whole block ...
    """
    rng = np.random.default_rng(0)
    x = constant(rng.normal(size=(2, width)))

    def run(f: Callable) -> tuple[GradientTape, Tensor]:
        with GradientTape() as tape:
            tape.watch(x)
            h = x
            for _ in range(depth):
                h = f(h)
        return tape, h

    try:
        tape, out = run(student_block)
    except NotImplementedError:
        return _not_done(getattr(student_block, "__name__", "your block"))
    entries = tape.entries()
    ops_recorded = [e.label for e in entries if not e.is_call]
    if ops_recorded:
        return Verdict(False, f"the tape recorded {len(ops_recorded)} ops ({', '.join(sorted(set(ops_recorded)))}): "
                              f"a checkpointed block records only the call. Wrap the whole block with "
                              f"tf.recompute_grad, and compute nothing outside it.")
    if len(entries) != depth:
        return Verdict(False, f"the tape holds {len(entries)} entries for {depth} calls: expected one entry "
                              f"per call of the block.")
    got = tape.gradient(out, x).numpy()
    plain_tape, plain_out = run(block)
    expected = plain_tape.gradient(plain_out, x).numpy()
    if not np.allclose(got, expected, rtol=1e-6, atol=1e-9):
        return Verdict(False, "the tape records only the calls, but the gradient differs from the plain block's: "
                              "does your block compute the same thing as the original?")
    return Verdict(True, "correct: one entry per call, nothing inside recorded, and the same gradient.")


# --------------------------------------------------------------------------- schedules

def check_schedule(actions: Sequence[tuple] | Callable[[], Sequence[tuple]], n: int, snapshots: int) -> Verdict:
    """Check a schedule for reversing ``n`` steps with at most ``snapshots`` stored states.

    Actions are those of [`Schedule`][minitape.checkpointing.revolve.Schedule] (notebook 4, "The
    schedule, drawn", tabulates them): ``("advance", i, j)``, ``("store", i)``, ``("free", i)``,
    ``("record", i)`` and ``("backward", i)``.  The state at 0 (the input) starts stored; the schedule
    must end with every step reversed, from ``n - 1`` down to 0.  Messages count actions from 1.

    >>> from minitape.course import exercises
    >>> from_the_input = [("advance", 0, 2), ("record", 2), ("backward", 2), ("advance", 0, 1),
    ...                   ("record", 1), ("backward", 1), ("record", 0), ("backward", 0)]
    >>> exercises.check_schedule(from_the_input, n=3, snapshots=1)
    ✔ valid and optimal: 6 step executions, the fewest possible with 1 state.
    >>> exercises.check_schedule(from_the_input[:3], n=3, snapshots=1)
    ✘ the schedule stops before reversing step 1.
    >>> exercises.check_schedule([("advance", 0, 2), ("record", 1)], n=3, snapshots=1)
    ✘ action 2 ('record', 1) starts from state 1, which is neither stored nor in hand.
    >>> exercises.check_schedule([], n=3, snapshots=1)
    ✘ not done yet: write your actions in my_schedule, then run this cell again.
    >>> exercises.check_schedule(lambda: from_the_input, n=3, snapshots=1)      # a function returning them
    ✔ valid and optimal: 6 step executions, the fewest possible with 1 state.
    """
    actions = _value(actions, [])
    if not actions:
        return Verdict(False, "not done yet: write your actions in my_schedule, then run this cell again.")
    stored, in_hand, recorded, next_back, cost = {0}, 0, set(), n - 1, 0
    try:
        for k, action in enumerate(actions, start=1):            # counted as people count: the first is 1
            kind, i = action[0], action[1]
            where = f"action {k} {action}"
            if kind in ("advance", "record") and i != in_hand and i not in stored:
                return Verdict(False, f"{where} starts from state {i}, which is neither stored nor in hand.")
            if kind == "advance":
                if not i < action[2] <= n:
                    return Verdict(False, f"{where} must advance forwards, within the {n} steps.")
                in_hand, cost = action[2], cost + action[2] - i
            elif kind == "record":
                if recorded:        # a recorded step holds its activations: reverse it before recording another
                    return Verdict(False, f"{where} records step {i} while step {min(recorded)} is still recorded and "
                                          f"not yet reversed; its tape would hold both steps' activations.")
                recorded.add(i)
                in_hand, cost = i + 1, cost + 1
            elif kind == "store":
                if i != in_hand:
                    return Verdict(False, f"{where} stores state {i}, but the state in hand is {in_hand}.")
                stored.add(i)
                if len(stored) > snapshots:
                    return Verdict(False, f"{where} holds {len(stored)} states at once ({sorted(stored)}), but only "
                                          f"{snapshots} are allowed: free one first.")
            elif kind == "free":
                stored.discard(i)
            elif kind == "backward":
                if i != next_back:
                    return Verdict(False, f"{where}: the backward pass must go through step {next_back} next.")
                if i not in recorded:
                    return Verdict(False, f"{where}: step {i} must be recorded before its backward step.")
                recorded.discard(i)
                next_back -= 1
            else:
                return Verdict(False, f"{where}: unknown action {kind!r}.")
    except (TypeError, IndexError):
        return Verdict(False, "each action is a tuple such as ('advance', 0, 3), ('store', 3), ('record', 2), "
                              "('backward', 2) or ('free', 3).")
    if next_back >= 0:
        return Verdict(False, f"the schedule stops before reversing step {next_back}.")
    best = n + revolve_recomputations(n, snapshots)
    states = f"{snapshots} state" + ("s" if snapshots != 1 else "")
    if cost > best:
        return Verdict(True, f"valid: it runs the steps {cost} times; the optimum with {states} is {best}. "
                             f"Can you do better?")
    return Verdict(True, f"valid and optimal: {cost} step executions, the fewest possible with {states}.")


# --------------------------------------------------------------------------- a memory budget

def residual_chain(depth: int = 6, channels: int = 8, batch: int = 32, side: int = 8,
                   seed: int = 0) -> tuple[list[Callable], Tensor]:
    """``depth`` residual blocks ``relu(x + bn(conv(relu(bn(conv(x))))))`` as plain functions, and an input.

    Batch normalization uses the batch's statistics, as while training (no scale, no shift).

    >>> from minitape.course import exercises
    >>> blocks, x = exercises.residual_chain(depth=2, batch=2)
    >>> blocks[1](blocks[0](x)).shape
    TensorShape([2, 8, 8, 8])
    """
    rng = np.random.default_rng(seed)

    def normalize(h: Tensor) -> Tensor:
        mean, variance = moments(h, axes=[0, 1, 2])
        return batch_normalization(h, mean, variance, None, None, variance_epsilon=1e-3)

    def make_block(k: int) -> Callable:
        w1, w2 = (Variable(rng.normal(0, (2 / (9 * channels)) ** 0.5, (3, 3, channels, channels)).astype("float32"),
                           name=f"block{k}/conv{i}") for i in (1, 2))

        def block(x: Tensor) -> Tensor:
            h = ops.relu(normalize(conv2d(x, w1, 1, "SAME")))
            return ops.relu(x + normalize(conv2d(h, w2, 1, "SAME")))
        return block

    x = constant(rng.normal(size=(batch, side, side, channels)).astype("float32"))
    return [make_block(k) for k in range(depth)], x


def _held_and_gradients(blocks: Sequence[Callable], x: Tensor, chosen: set[int]) -> tuple[int, list]:
    """The bytes a tape holds after running the chain (the blocks in ``chosen`` checkpointed), and the gradients."""
    with GradientTape() as tape:
        h = x
        for k, block in enumerate(blocks):
            h = recompute_grad(block)(h) if k in chosen else block(h)
        held = tape.memory_info()["current"]
        total = ops.reduce_sum(h)
    variables = list(tape.watched_variables())
    return held, tape.gradient(total, variables)


def _agree(grad: np.ndarray, expected: np.ndarray) -> bool:
    """Whether two float32 gradients are equal up to rounding.  A checkpointed block's backward pass may sum
    in another order than the plain one (it asks for its input's gradient too), and an entry that nearly
    cancels keeps the rounding of the largest terms: so the absolute tolerance scales with the gradient."""
    return np.allclose(grad, expected, rtol=1e-4, atol=1e-5 * max(float(np.abs(expected).max(initial=0.0)), 1.0))


def _plan_cost(inside: list[int], inputs: list[int], chosen: Iterable[int]) -> int:
    """Held bytes of a choice.  A plain block keeps what it keeps inside, its output included; a checkpointed
    one keeps only its input, which its predecessor keeps anyway (or is the user's).  But a checkpointed
    block's output is kept by nobody inside it: the next block, whichever it is, keeps it as its input."""
    chosen = set(chosen)
    return (sum(inside[k] for k in range(len(inside)) if k not in chosen)
            + sum(inputs[k + 1] for k in chosen if k + 1 < len(inputs)))


def check_checkpoint_choice(choice: Iterable[int] | Callable[[], Iterable[int]] | None, blocks: Sequence[Callable] | None = None,
                            x: Tensor | None = None, budget: int | None = None) -> Verdict:
    """Exercise: which blocks of a chain to checkpoint so that the tape holds at most ``budget`` bytes after
    the forward pass, recomputing as few blocks as possible.

    ``choice`` holds block indices (or is a function returning them).  The default chain is ``residual_chain``'s six blocks, with a
    budget of half what the plain chain holds plus ``(depth - 1) / 2`` activations: just enough.  The checker runs the chain with your choice under a tape,
    measures what it holds, checks the gradients against the plain chain's, and compares with the
    best choice.

    >>> from minitape.course import exercises
    >>> exercises.check_checkpoint_choice({0, 2, 4})
    ✘ the tape holds 1,376,856 bytes: 32,768 over the budget of 1,344,088. A checkpointed block frees ...
    >>> exercises.check_checkpoint_choice({1, 3, 5})
    ✔ optimal: the tape holds 1,311,320 bytes (budget 1,344,088), recomputing 3 blocks, the fewest that fit.
    """
    if blocks is None:
        blocks, x = residual_chain()
    choice = _value(choice, None)
    if choice is None:
        return Verdict(False, "not done yet: set my_choice to the blocks you would checkpoint, then run this cell "
                              "again.")
    chosen = set(choice)
    if not chosen <= set(range(len(blocks))):
        return Verdict(False, f"block indices run from 0 to {len(blocks) - 1}; got {sorted(chosen)}.")
    # What each block keeps inside, and its input's size: each block run once, under a tape of its own.
    inside, inputs, h = [], [], x
    for block in blocks:
        inputs.append(h.numpy().nbytes)
        with GradientTape() as tape:
            h = block(h)
        inside.append(tape.memory_info()["current"])
    budget = budget if budget is not None else sum(inside) // 2 + inputs[-1] * (len(blocks) - 1) // 2
    held, grads = _held_and_gradients(blocks, x, chosen)
    _, expected = _held_and_gradients(blocks, x, set())
    if any(not _agree(g.numpy(), e.numpy()) for g, e in zip(grads, expected)):
        return Verdict(False, "the gradients differ from the plain chain's: checkpointing must not change them.")
    if held > budget:
        return Verdict(False, f"the tape holds {held:,} bytes: {held - budget:,} over the budget of {budget:,}. "
                              f"A checkpointed block "
                              f"frees what it keeps inside (about {sum(inside) // len(inside):,} bytes), but the "
                              f"block after it then keeps its output ({inputs[-1]:,} bytes), unless it is the last.")
    fewest = min(len(c) for n in range(len(blocks) + 1) for c in itertools.combinations(range(len(blocks)), n)
                 if _plan_cost(inside, inputs, c) <= budget)
    if len(chosen) > fewest:
        return Verdict(True, f"within budget ({held:,} of {budget:,} bytes), but recomputing {len(chosen)} blocks; "
                             f"{fewest} would do. Which of yours could run plainly?")
    return Verdict(True, f"optimal: the tape holds {held:,} bytes (budget {budget:,}), recomputing {fewest} blocks, "
                         f"the fewest that fit.")
