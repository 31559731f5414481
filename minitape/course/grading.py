"""Grading afresh: an answer's source checked in a new Python process, never in the student's kernel.

An nbgrader test cell runs in the student's kernel, where the notebook may have replaced a checker,
or ``minitape`` itself, before the test runs.  So the assignment's hidden tests send the answer's
*source* (``inspect.getsource`` of the student's function) to ``python -m minitape.course
CHECK``: a process that imports minitape anew, defines the answer from its source alone, runs the
same checker the student saw (on more cases), prints the verdict and exits 0 only if it passed.

The answer's own body runs in that process too, so its source is read first: it must be one plain
function, using the names given (``tf``, ``np`` and, for exercise 3, ``block``), with no imports,
no ``_private`` names, no assignments to attributes and no reflection (``setattr``, ``globals``...).

>>> from minitape.course import grading
>>> grading.grade("bias_vjp", "def bias_vjp(g, x, b):\\n    return tf.reduce_sum(g, axis=0)\\n")
✔ correct: the gradient matches finite differences for every shape tried.
>>> grading.grade("bias_vjp", "def bias_vjp(g, x, b):\\n    tf.course.exercises.check_vjp = print\\n")
✘ graded answers may not assign to attributes (line 2): write the answer with tf and np only.
"""
from __future__ import annotations

import ast
import sys
from collections.abc import Callable

import numpy as np

from minitape import ops
from minitape.core.tensor import Tensor
from minitape.course.exercises import (Verdict, check_bias_vjp, check_checkpoint, check_checkpoint_choice,
                                       check_matmul_vjp, check_schedule, check_vjp)

# What an answer may not name: reflection and I/O would let its body reach the checker that runs it.
FORBIDDEN = {"exec", "eval", "compile", "open", "globals", "locals", "vars", "setattr", "getattr", "delattr",
             "__import__", "breakpoint", "input", "type", "object", "super", "sys", "builtins"}


def block(x: Tensor) -> Tensor:
    """Exercise 3's block, the grader's own copy: a notebook that redefines ``block`` changes nothing here.

    >>> import minitape as tf
    >>> from minitape.course.grading import block
    >>> round(float(block(tf.constant(0.0))), 4)
    0.0997
    """
    return ops.tanh(x * 1.5 + 0.1)


def _both(*verdicts: Callable[[], Verdict]) -> Verdict:
    """The first failing verdict, or the last one: later cases are tried only if the earlier pass."""
    for make in verdicts:
        verdict = make()
        if not verdict:
            return verdict
    return verdict


# Each check: the checker the student saw, then (hidden from the student's copy) more cases.
CHECKS: dict[str, Callable[[Callable], Verdict]] = {
    "matmul_vjp": lambda f: _both(lambda: check_matmul_vjp(f),
                                  lambda: check_vjp(f, ops.matmul, [[(3, 1), (1, 6)], [(5, 2), (2, 5)]], seed=1)),
    "bias_vjp": lambda f: _both(lambda: check_bias_vjp(f),
                                lambda: check_vjp(f, ops.add, [[(6, 1), (1,)], [(1, 4), (4,)]], wrt=1, seed=1)),
    "checkpoint": lambda f: _both(lambda: check_checkpoint(f, block),
                                  lambda: check_checkpoint(f, block, width=3, depth=2)),
    "schedule": lambda f: check_schedule(f, n=4, snapshots=2),
    "checkpoint_choice": lambda f: check_checkpoint_choice(f),
}


def answer_problem(source: str) -> str | None:
    """Why ``source`` cannot be graded as one plain function, or None.

    >>> from minitape.course.grading import answer_problem
    >>> answer_problem("def f(g):\\n    return g\\n") is None
    True
    >>> answer_problem("def f(g):\\n    import minitape\\n    return g\\n")
    'graded answers may not import (line 2): write the answer with tf and np only.'
    """
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        return f"the answer does not parse: {error.msg} (line {error.lineno})."
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef):
        return "the answer must be one function definition."
    if tree.body[0].decorator_list:
        return "the answer's function may not be decorated."
    for node in ast.walk(tree):
        what = _forbidden(node)
        if what:
            return f"graded answers may not {what} (line {node.lineno}): write the answer with tf and np only."
    return None


def _forbidden(node: ast.AST) -> str | None:
    if isinstance(node, ast.Import | ast.ImportFrom):
        return "import"
    if isinstance(node, ast.Global | ast.Nonlocal):
        return "declare global or nonlocal names"
    if isinstance(node, ast.Attribute | ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del):
        return "assign to attributes"
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
    if name is not None and (name.startswith("_") or name in FORBIDDEN):
        return f"use the name {name!r}"
    return None


def grade(check: str, source: str) -> Verdict:
    """Check the function defined by ``source`` with check ``check`` (a key of ``CHECKS``).

    >>> from minitape.course import grading
    >>> grading.grade("schedule", "def my_schedule():\\n    return []\\n")
    ✘ not done yet: write your actions in my_schedule, then run this cell again.
    >>> grading.grade("matmul_vjp", "def matmul_vjp_a(g, a, b):\\n    return g @ b\\n")
    ✘ your VJP raised: matmul: shapes ... (a transpose missing?).
    """
    problem = answer_problem(source)
    if problem:
        return Verdict(False, problem)
    namespace = {"tf": _top_level(), "np": np, "block": block}
    exec(compile(source, "<answer>", "exec"), namespace)
    answer = namespace[ast.parse(source).body[0].name]
    try:
        return CHECKS[check](answer)
    except NotImplementedError:
        return Verdict(False, f"not done yet: write the body of {answer.__name__}.")
    except Exception as error:          # a wrong answer may fail in any way: that is a verdict, not a crash
        return Verdict(False, f"the answer raised {type(error).__name__}: {error}")


def _top_level() -> object:
    """``minitape`` itself, the namespace an answer writes ``tf.`` against.  Importing this module ran the
    package's ``__init__`` first (Python imports a module's parents before it), so it is loaded; naming it
    in an import here would make this layer depend on the one that gathers all the others."""
    return sys.modules["minitape"]


def main(argv: list[str], source: str) -> int:
    """``python -m minitape.course CHECK < answer.py`` (``argv`` is ``[CHECK]``): print the verdict; 0 if it passed.

    >>> from minitape.course import grading
    >>> grading.main(["bias_vjp"], "def bias_vjp(g, x, b):\\n    return g\\n")
    ✘ your gradient has shape (4, 3) but the input has shape (3,): ...
    1
    """
    verdict = grade(argv[0], source)
    print(repr(verdict))
    return 0 if verdict else 1
