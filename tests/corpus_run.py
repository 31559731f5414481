"""Run one corpus snippet as a notebook would, printing what a student would see.

    python tests/corpus_run.py SNIPPET.py                 # with minitape (the test suite)
    python tests/corpus_run.py SNIPPET.py --tensorflow    # with TensorFlow (the recorder)

A snippet from a notebook is split into cells by ``# %%`` lines. As in Jupyter, a cell's last
line, when it is an expression whose value is not None, is shown as IPython's pretty printer
shows it; everything else the snippet prints goes to standard output unchanged. A snippet from a
script or a book's listing has no ``# %%`` and is a single cell.
"""
from __future__ import annotations

import ast
import re
import sys

from IPython.lib.pretty import pretty


def cells(source: str) -> list[str]:
    return [cell for cell in re.split(r"^# %%.*$", source, flags=re.M) if cell.strip()]


def run_cell(cell: str, namespace: dict) -> None:
    tree = ast.parse(cell)
    shown = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<snippet>", "exec"), namespace)
    if shown is not None:
        value = eval(compile(ast.Expression(shown.value), "<snippet>", "eval"), namespace)
        if value is not None:
            print(pretty(value))


def as_tensorflow(source: str) -> str:
    """The snippet as its source wrote it: minitape's imports turned back into TensorFlow's."""
    return re.sub(r"^(\s*)(import|from) minitape\b", r"\1\2 tensorflow", source, flags=re.M)


def main(path: str, tensorflow: bool) -> None:
    source = open(path).read()
    if tensorflow:
        source = as_tensorflow(source)
    namespace = {"__name__": "__main__"}
    for cell in cells(source):
        run_cell(cell, namespace)


if __name__ == "__main__":
    main(sys.argv[1], "--tensorflow" in sys.argv[2:])
