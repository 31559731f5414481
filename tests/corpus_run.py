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
import linecache
import re
import sys

from IPython.lib.pretty import pretty


def cells(source: str) -> list[str]:
    return [cell for cell in re.split(r"^# %%.*$", source, flags=re.M) if cell.strip()]


def run_cell(cell: str, number: int, namespace: dict) -> None:
    # Kept in linecache under a name of its own, as IPython keeps a cell, so that code that reads
    # a function's source (TensorFlow's AutoGraph, inspect) finds it as it would in a notebook.
    filename = f"<cell-{number}>"
    linecache.cache[filename] = (len(cell), None, cell.splitlines(keepends=True), filename)
    tree = ast.parse(cell)
    shown = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, filename, "exec"), namespace)
    if shown is not None:
        value = eval(compile(ast.Expression(shown.value), filename, "eval"), namespace)
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
    for number, cell in enumerate(cells(source), start=1):
        run_cell(cell, number, namespace)


if __name__ == "__main__":
    main(sys.argv[1], "--tensorflow" in sys.argv[2:])
