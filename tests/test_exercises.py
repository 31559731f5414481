"""Each exercise checker, both ways: correct answers pass; typical mistakes fail, saying what is wrong."""
import re

import minitape as tf
from minitape.course import exercises
from minitape.checkpointing import is_recomputing
from minitape.checkpointing.schedules import chain_schedule


def test_matmul_vjp():
    assert exercises.check_matmul_vjp(lambda g, a, b: tf.matmul(g, b, transpose_b=True))
    missing_transpose = exercises.check_matmul_vjp(lambda g, a, b: tf.matmul(g, b))
    assert not missing_transpose and "transpose" in missing_transpose.message
    assert ".." not in missing_transpose.message.replace("...", "")      # the error's own full stop, once
    sign = exercises.check_matmul_vjp(lambda g, a, b: -tf.matmul(g, b, transpose_b=True))
    assert not sign and "opposite sign" in sign.message
    swapped = exercises.check_vjp(lambda g, a, b: tf.transpose(tf.matmul(g, b, transpose_b=True)), tf.matmul,
                                  [(3, 3), (3, 3)])
    assert not swapped and "transpose" in swapped.message


def test_bias_vjp():
    assert exercises.check_bias_vjp(lambda g, x, b: tf.reduce_sum(g, axis=0))
    forgot = exercises.check_bias_vjp(lambda g, x, b: g)
    assert not forgot and "broadcast" in forgot.message and "reduce_sum" in forgot.message


def test_unfinished_answers_say_so_without_raising():
    def my_vjp(g, a, b):
        raise NotImplementedError
    verdict = exercises.check_matmul_vjp(my_vjp)
    assert not verdict and "not done yet: write the body of my_vjp" in verdict.message


def block(x):
    return tf.tanh(x * 1.5 + 0.1)


def test_checkpointed_block():
    assert exercises.check_checkpoint(tf.recompute_grad(block), block)
    records_inside = exercises.check_checkpoint(lambda x: tf.recompute_grad(block)(x) * 1.0, block)
    assert not records_inside and "records only the call" in records_inside.message
    not_checkpointed = exercises.check_checkpoint(block, block)
    assert not not_checkpointed and "tf.recompute_grad" in not_checkpointed.message
    different = exercises.check_checkpoint(tf.recompute_grad(lambda x: tf.tanh(x * 2.0)), block)
    assert not different and "same thing" in different.message


def test_schedules():
    assert "optimal" in exercises.check_schedule(chain_schedule(10, 3).actions, 10, 3).message
    store_everything = [("advance", 0, 1), ("store", 1), ("advance", 1, 2), ("store", 2), ("advance", 2, 3),
                        ("record", 3), ("backward", 3), ("record", 2), ("backward", 2), ("record", 1),
                        ("backward", 1), ("record", 0), ("backward", 0)]
    too_many = exercises.check_schedule(store_everything, 4, 2)
    assert not too_many and "only 2 are allowed" in too_many.message
    assert "valid" in exercises.check_schedule(store_everything, 4, 4).message
    out_of_order = exercises.check_schedule([("record", 0), ("backward", 0)], 2, 1)
    assert not out_of_order and "must go through step 1 next" in out_of_order.message
    from_nowhere = exercises.check_schedule([("advance", 2, 3)], 4, 2)
    assert not from_nowhere and "neither stored nor in hand" in from_nowhere.message
    # Recording every step and reversing them after would hold all activations: no schedule at all.
    record_all = [("record", 0), ("record", 1), ("record", 2), ("backward", 2), ("backward", 1), ("backward", 0)]
    hoarding = exercises.check_schedule(record_all, 3, 1)
    assert not hoarding and "still recorded" in hoarding.message
    slow = [a for i in reversed(range(4)) for a in ([("advance", 0, i)] if i else []) + [("record", i), ("backward", i)]]
    verdict = exercises.check_schedule(slow, 4, 2)
    assert verdict and "Can you do better" in verdict.message


def test_checkpoint_choice_under_a_memory_budget():
    blocks, x = exercises.residual_chain(depth=4, channels=4, batch=4)
    assert exercises.check_checkpoint_choice({1, 3}, blocks, x).message.startswith("optimal")
    spread_but_not_last = exercises.check_checkpoint_choice({0, 2}, blocks, x)
    assert not spread_but_not_last and "unless it is the last" in spread_but_not_last.message
    everything = exercises.check_checkpoint_choice(range(4), blocks, x)
    assert everything and "2 would do" in everything.message
    assert "not done yet" in exercises.check_checkpoint_choice(None, blocks, x).message
    assert "run from 0 to 3" in exercises.check_checkpoint_choice({4}, blocks, x).message
    def changes_when_recomputed(h):
        return blocks[3](h) * (2.0 if is_recomputing() else 1.0)
    changed = exercises.check_checkpoint_choice({3}, [*blocks[:3], changes_when_recomputed], x)
    assert not changed and "gradients differ" in changed.message


def test_schedule_feedback_reads_as_people_count():
    # A blank exercise 4 has not been started: it is not a wrong schedule stopping early.
    blank = exercises.check_schedule([], n=4, snapshots=2)
    assert not blank and blank.message.startswith("not done yet") and "stops before" not in blank.message
    # The first action is action 1, as a student counts the lines of their list.
    first_wrong = exercises.check_schedule([("advance", 1, 2)], n=4, snapshots=2)
    assert first_wrong.message.startswith("action 1 ('advance', 1, 2)")
    third_wrong = exercises.check_schedule([("advance", 0, 1), ("store", 1), ("store", 2)], n=4, snapshots=2)
    assert third_wrong.message.startswith("action 3 ('store', 2)")


def test_the_notebook_exercise_4_points_to_defines_the_actions():
    from pathlib import Path

    notebooks = Path(__file__).parent.parent / "notebooks"
    pointer = (notebooks / "07_exercises.py").read_text(encoding="utf-8")
    assert 'notebook 4 ("The schedule, drawn")' in pointer
    memory = (notebooks / "04_memory.py").read_text(encoding="utf-8")
    section = memory.split("## The schedule, drawn")[1].split("# %%")[0]
    for action in ['`("advance", i, j)`', '`("store", i)`', '`("free", i)`', '`("record", i)`', '`("backward", i)`']:
        assert action in section


def test_the_api_reference_does_not_print_exercise_4s_answer():
    import re
    from pathlib import Path

    answer = re.sub(r"\s", "", str(chain_schedule(4, 2).actions))
    root = Path(__file__).parent.parent
    sources = [*(root / "minitape").rglob("*.py"), *(root / "docs").rglob("*.md"), root / "README.md"]
    assert [str(path) for path in sources if answer in re.sub(r"\s", "", path.read_text(encoding="utf-8"))] == []


def test_every_over_budget_choice_says_by_how_much():
    blocks, x = exercises.residual_chain(depth=4, channels=4, batch=4)
    for choice in [set(), {0}, {2}, {0, 2}]:
        verdict = exercises.check_checkpoint_choice(choice, blocks, x)
        held, over, budget = [int(n.replace(",", "")) for n in
                              re.match(r"the tape holds ([\d,]+) bytes: ([\d,]+) over the budget of ([\d,]+)\.",
                                       verdict.message).groups()]
        assert not verdict and over == held - budget > 0


def test_answers_given_as_functions_are_what_they_return():
    # The graded assignment asks for functions (nbgrader's stub, `raise NotImplementedError()`, needs a body).
    actions = chain_schedule(4, 2).actions
    assert "optimal" in exercises.check_schedule(lambda: actions, 4, 2).message

    def my_schedule():
        raise NotImplementedError()

    def my_choice():
        raise NotImplementedError()
    assert exercises.check_schedule(my_schedule, 4, 2).message.startswith("not done yet")
    blocks, x = exercises.residual_chain(depth=4, channels=4, batch=4)
    assert exercises.check_checkpoint_choice(my_choice, blocks, x).message.startswith("not done yet")
    assert exercises.check_checkpoint_choice(lambda: {1, 3}, blocks, x).message.startswith("optimal")


def test_grading_reads_an_answer_before_running_it():
    from minitape.course.grading import answer_problem

    assert answer_problem("def f(g, x, b):\n    return tf.reduce_sum(g, axis=0)\n") is None
    refused = {
        "def f(g):\n    from minitape.course import exercises\n    return g\n": "may not import",
        "def f(g):\n    tf.course.exercises.check_vjp = print\n    return g\n": "may not assign to attributes",
        "def f(g):\n    tf.ops.__dict__.clear()\n    return g\n": "may not use the name '__dict__'",
        "def f(g):\n    setattr(tf, 'matmul', print)\n    return g\n": "may not use the name 'setattr'",
        "def f(g):\n    global block\n    return g\n": "may not declare global",
        "@tf.recompute_grad\ndef f(g):\n    return g\n": "may not be decorated",
        "def f(g):\n    return g\nprint('and more')\n": "one function definition",
        "def f(g) return g": "does not parse",
    }
    for source, words in refused.items():
        assert words in answer_problem(source), source


def test_grading_afresh_ignores_what_this_process_patched(monkeypatch):
    import subprocess
    import sys

    from minitape.course import grading

    monkeypatch.setattr(exercises, "check_matmul_vjp", lambda f: exercises.Verdict(True, "patched"))
    blank = "def matmul_vjp_a(g, a, b):\n    raise NotImplementedError()\n"
    assert not grading.CHECKS["matmul_vjp"](lambda g, a, b: g)          # the grader holds its own references
    fresh = subprocess.run([sys.executable, "-m", "minitape.course", "matmul_vjp"], input=blank,
                           capture_output=True, text=True)
    assert fresh.returncode == 1 and fresh.stdout.startswith("✘ not done yet: write the body of matmul_vjp_a")
    right = "def matmul_vjp_a(g, a, b):\n    return tf.matmul(g, b, transpose_b=True)\n"
    fresh = subprocess.run([sys.executable, "-m", "minitape.course", "matmul_vjp"], input=right,
                           capture_output=True, text=True)
    assert fresh.returncode == 0 and fresh.stdout.startswith("✔")
    # The hidden cases catch an answer that fits only the shapes the student's checker tries.
    only_square = "def matmul_vjp_a(g, a, b):\n    return tf.matmul(g, b, transpose_b=True) if a.shape[0] != 3 else g\n"
    assert exercises.check_matmul_vjp(grading_answer(only_square))
    assert not grading.grade("matmul_vjp", only_square)


def grading_answer(source: str):
    namespace = {"tf": tf}
    exec(source, namespace)
    return next(value for name, value in namespace.items() if callable(value) and name != "tf")
