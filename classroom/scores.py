"""The table of scores `make grade` writes: nbgrader's gradebook, one row per student, one column per exercise.

nbgrader does the grading (autograde) and stores each test cell's score in its gradebook; its own CSV
export gives one total per assignment. This export plugin writes the same gradebook per exercise, as
CSV (``scores.csv``) and as Markdown (``scores.md``), the Markdown with the message of each failed test
(read from the autograded notebook) so that a teacher sees why without opening it.
"""
from __future__ import annotations

import csv
from pathlib import Path

import nbformat
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.plugins import ExportPlugin


class PerExerciseExport(ExportPlugin):
    """``nbgrader export``'s plugin for this course: scores per exercise, and why each failed one failed."""

    def export(self, gradebook: Gradebook) -> None:
        destination = Path(self.to or "scores.csv")
        rows, reasons = [], []
        for assignment in gradebook.assignments:
            exercises = [cell.name for notebook in assignment.notebooks for cell in notebook.grade_cells]
            for student in gradebook.students:
                row = {"student": student.id, "assignment": assignment.name}
                try:
                    submission = gradebook.find_submission(assignment.name, student.id)
                except MissingEntry:
                    rows.append({**row, **{name: 0.0 for name in exercises}, "total": 0.0,
                                 "max": assignment.max_score})
                    continue
                for notebook in submission.notebooks:
                    for grade in notebook.grades:
                        row[grade.name] = grade.score
                    reasons += [(student.id, name, why) for name, why in failures(assignment.name, student.id,
                                                                                     notebook.name)]
                rows.append({**row, "total": submission.score, "max": assignment.max_score})
        columns = ["student", "assignment", *dict.fromkeys(k for r in rows for k in r if k not in
                                                           ("student", "assignment", "total", "max")), "total", "max"]
        with destination.open("w", newline="") as file:
            writer = csv.DictWriter(file, columns)
            writer.writeheader()
            writer.writerows(rows)
        destination.with_suffix(".md").write_text(markdown(columns, rows, reasons), encoding="utf-8")
        self.log.info("Scores written to %s and %s", destination, destination.with_suffix(".md"))


def failures(assignment: str, student: str, notebook: str) -> list[tuple[str, str]]:
    """(exercise, message) for each test cell that raised in the student's autograded notebook."""
    path = Path("autograded", student, assignment, f"{notebook}.ipynb")
    if not path.exists():
        return []
    found = []
    for cell in nbformat.read(path, as_version=4).cells:
        grading = cell.metadata.get("nbgrader", {})
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if grading.get("grade") and errors:
            message = errors[0].get("evalue", "").strip().splitlines() or [errors[0].get("ename", "")]
            found.append((grading["grade_id"], message[-1]))
    return found


def markdown(columns: list[str], rows: list[dict], reasons: list[tuple[str, str, str]]) -> str:
    """The scores as a Markdown table, then what each failed exercise said."""
    lines = ["| " + " | ".join(columns) + " |", "|" + " --- |" * len(columns)]
    lines += ["| " + " | ".join(str(row.get(column, "")) for column in columns) + " |" for row in rows]
    if reasons:
        lines += ["", "## Why points were lost", ""]
        lines += [f"- **{student}**, `{name}`: {why}" for student, name, why in reasons]
    return "\n".join(lines) + "\n"
