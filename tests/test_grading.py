"""The graded assignment, end to end, as a teacher runs it: `make release`, then `make grade` (nbgrader underneath).

The tests marked slow (one fixture: about a minute of CPU, most of it nbgrader starting and four notebooks
executing; `-m "not slow"` leaves them out) build the release from classroom/source, grade four submissions
(complete, blank, wrong, and one that monkeypatches the checkers and minitape) and read the table of
scores. They are skipped where nbgrader is not installed (the `dev` extra installs it).
"""
import csv
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from minitape.course import grading

ROOT = Path(__file__).parent.parent
COURSE = ROOT / "classroom"
SOURCE = COURSE / "source" / "exercises" / "exercises.ipynb"
EXERCISES = ["matmul_vjp", "bias_vjp", "checkpoint", "schedule", "checkpoint_choice"]
ANSWER = re.compile(r"[ \t]*### BEGIN SOLUTION\n(.*?)[ \t]*### END SOLUTION\n", re.S)

WRONG = {                    # right, wrong, wrong, right, wrong: 4 of 10 points
    "bias_vjp_answer": "def bias_vjp(g, x, b):\n    return g\n",
    "checkpoint_answer": "def block(x):\n    return tf.tanh(x * 1.5 + 0.1)\n\n"
                         "def checkpointed_block(x):\n    return block(x)\n",
    "checkpoint_choice_answer": "def my_choice():\n    return {0, 2, 4}\n",
}
# Everything a notebook can do to the checkers in its own kernel, with no answer written: every checker
# and minitape's own functions replaced, `block` redefined, a fake minitape package beside the notebook,
# and one answer whose body would patch the grading process.
TAMPERING = '''\
import os, pathlib, minitape, minitape.course.grading
from minitape.course.exercises import Verdict
passed = lambda *args, **kwargs: Verdict(True, "correct")
for module in (exercises, minitape.course.exercises, minitape.course.budgets):
    for name in dir(module):
        if name.startswith("check_"):
            setattr(module, name, passed)
minitape.course.grading.grade = passed
tf.matmul = tf.reduce_sum = lambda *args, **kwargs: 0.0
def block(x):
    return x
fake = pathlib.Path("minitape/course")
fake.mkdir(parents=True, exist_ok=True)
for name in ("minitape/__init__.py", "minitape/course/__init__.py"):
    pathlib.Path(name).write_text("")
pathlib.Path("minitape/course/__main__.py").write_text("print('correct')")
'''
PATCHING_BODY = "def bias_vjp(g, x, b):\n    tf.course.exercises.check_vjp = print\n    return g\n\nexercises.check_bias_vjp(bias_vjp)"



def solution_cells() -> dict[str, str]:
    """The teacher's answer cells, from the source notebook, without the solution markers."""
    cells = nbformat.read(SOURCE, as_version=4).cells
    return {c.metadata["nbgrader"]["grade_id"]: ANSWER.sub(r"\1", c.source)
            for c in cells if c.metadata.get("nbgrader", {}).get("solution")}


def submission(release: Path, answers: dict[str, str], first: str | None = None) -> nbformat.NotebookNode:
    """The released notebook with ``answers`` (grade_id: source) written in, and ``first`` run after the imports.

    A notebook that tampers (``first`` given) also empties every test cell: nbgrader restores them."""
    notebook = nbformat.read(release, as_version=4)
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in answers:
            cell.source = answers[grade_id]
        elif first and cell.metadata.get("nbgrader", {}).get("grade"):
            cell.source = "pass"
    if first:
        notebook.cells.insert(2, nbformat.v4.new_code_cell(first))
    return notebook


def run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> tuple[dict[str, dict[str, str]], Path]:
    """Release, four submissions, `make grade`: the scores table (student: row) and the course folder."""
    pytest.importorskip("nbgrader", reason="the grading test needs nbgrader (the dev extra installs it)")
    work = tmp_path_factory.mktemp("classroom")
    course, submissions = work / "classroom", work / "submissions"
    shutil.copytree(COURSE, course, ignore=shutil.ignore_patterns("release", "submitted", "autograded", "feedback",
                                                                  "gradebook.db", "scores.csv", "scores.md", "__pycache__"))
    venv = Path(sys.executable).parent.parent
    make = ["make", "-C", str(ROOT), "-o", f"{venv}/.dev-installed", f"VENV={venv}", f"COURSE={course}"]
    run([*make, "release", f"STUDENT_COPY={work}/07_exercises.ipynb"])
    release = course / "release" / "exercises" / "exercises.ipynb"
    solutions = solution_cells()
    submissions.mkdir()
    for student, notebook in {
        "complete": submission(release, solutions),
        "blank": submission(release, {}),
        "wrong": submission(release, {**solutions, **WRONG}),
        "tampering": submission(release, {"bias_vjp_answer": PATCHING_BODY}, first=TAMPERING),
    }.items():
        nbformat.write(notebook, submissions / f"{student}.ipynb")
    run([*make, "grade", f"SUBMISSIONS={submissions}"])
    with (course / "scores.csv").open() as file:
        return {row["student"]: row for row in csv.DictReader(file)}, course


@pytest.mark.slow
def test_four_submissions_get_full_zero_partial_and_zero_marks(graded):
    scores, _ = graded
    assert {student: float(row["total"]) for student, row in scores.items()} == \
        {"complete": 10.0, "blank": 0.0, "wrong": 4.0, "tampering": 0.0}
    assert {name: float(scores["wrong"][f"{name}_test"]) for name in EXERCISES} == \
        {"matmul_vjp": 2.0, "bias_vjp": 0.0, "checkpoint": 0.0, "schedule": 2.0, "checkpoint_choice": 0.0}


@pytest.mark.slow
def test_the_table_says_why_points_were_lost(graded):
    _, course = graded
    table = (course / "scores.md").read_text(encoding="utf-8")
    assert "| student | assignment | matmul_vjp_test |" in table
    assert "- **wrong**, `bias_vjp_test`: ✘ your gradient has shape (4, 3) but the input has shape (3,)" in table
    assert "- **blank**, `matmul_vjp_test`: ✘ not done yet" in table
    # The tampering notebook's own checkers said ✔; the fresh process did not.
    assert "- **tampering**, `bias_vjp_test`: ✘ graded answers may not assign to attributes (line 2)" in table
    assert "- **tampering**, `checkpoint_test`: ✘ not done yet" in table
    tampered = nbformat.read(course / "autograded" / "tampering" / "exercises" / "exercises.ipynb", as_version=4)
    answers = [c for c in tampered.cells if c.metadata.get("nbgrader", {}).get("solution")]
    said = ["".join(o.get("data", {}).get("text/plain", "") for o in c.outputs) for c in answers]
    assert said == ["✔ correct"] * 5, "the patches worked in the student's kernel: its own checkers said ✔"
    assert (course / "feedback" / "wrong" / "exercises" / "exercises.html").exists()


@pytest.mark.slow
def test_the_students_notebook_is_the_release_without_solutions(graded):
    _, course = graded
    release = nbformat.read(course / "release" / "exercises" / "exercises.ipynb", as_version=4)
    students = nbformat.read(ROOT / "notebooks" / "07_exercises.ipynb", as_version=4)
    assert [c.source for c in students.cells] == [c.source for c in release.cells], "run `make release`"
    assert all(c.metadata.get("nbgrader") == r.metadata.get("nbgrader") for c, r in zip(students.cells, release.cells))


def test_no_notebook_a_student_gets_holds_a_solution():
    regions = [region for cell in nbformat.read(SOURCE, as_version=4).cells for region in ANSWER.findall(cell.source)]
    answers = [line.strip() for region in regions for line in region.splitlines() if line.strip().startswith("return")]
    assert len(answers) == len(EXERCISES)
    for path in [*(ROOT / "notebooks").glob("*.ipynb"), *(ROOT / "notebooks").glob("*.py")]:
        text = path.read_text(encoding="utf-8")
        assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text, path
        assert [answer for answer in answers if answer in text] == [], path
    assert not (ROOT / "solutions").exists(), "the solutions live in classroom/source only"


def test_the_source_pair_agrees():
    import jupytext

    text = jupytext.read(SOURCE.with_suffix(".py"))
    notebook = nbformat.read(SOURCE, as_version=4)
    assert [(c.cell_type, c.source, c.metadata.get("nbgrader")) for c in text.cells] == \
        [(c.cell_type, c.source, c.metadata.get("nbgrader")) for c in notebook.cells]


@pytest.mark.parametrize("name", EXERCISES)
def test_the_teachers_answers_pass_afresh(name):
    answers = solution_cells()
    source = answers[f"{name}_answer"].split("\n\nexercises.check")[0]
    source = source.split("\n\n", 1)[1] if source.startswith("def block") else source
    assert grading.grade(name, source), name
