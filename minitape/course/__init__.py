"""Course tools: what a student uses to check their own work.

* ``gradcheck``: a tape's gradients against central finite differences, in float64;
* ``exercises``: the checkers the exercise notebooks call, each testing an answer by its properties.
* ``budgets``: memory-budget exercises, checked by measuring what a tape holds.
* ``grading``: the graded assignment's hidden tests, which check an answer afresh in a new process.

>>> from minitape.course import gradcheck
>>> gradcheck.check_gradients(lambda x: x * x, np.array([1.0, 2.0]))
"""
from minitape.course import budgets, exercises, gradcheck, grading  # noqa: F401
