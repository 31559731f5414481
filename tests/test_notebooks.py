"""Every notebook runs top to bottom in a fresh kernel; a failing cell fails the suite.

Notebooks are kept as jupytext pairs: the .py (percent format) must say what the .ipynb says.
The students' notebooks live in notebooks/; the graded exercises' solutions only in the assignment's source
(classroom/source, tests/test_grading.py), of which notebooks/07_exercises is the generated release.
"""
import re
import time
from pathlib import Path

import jupytext
import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
NAMES = [str(p.relative_to(ROOT)) for p in NOTEBOOKS]
TIMES: dict[str, float] = {}


def run(path: Path) -> str:
    notebook = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    NotebookClient(notebook, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    TIMES[path.name] = time.perf_counter() - start
    return "".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", ""))
                   for cell in notebook.cells for o in cell.get("outputs", []))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=NAMES)
def test_notebook_runs(path):
    outputs = run(path)
    if path.name == "00_tour.ipynb":
        # forward + backward with recompute, plain forward, the timeline's forward + backward, the
        # pictured tape's forward, the Keras forward and its two gradient calls: every trace as documented.
        assert outputs.count("running\n") == (4 + 4) + 4 + (4 + 4) + 4 + (4 + 4 + 4)
    if path.name == "07_exercises.ipynb":
        assert outputs.count("✘ not done yet") == 5       # the student's copy runs unfinished: all five exercises
    if path.name == "08_cnn_checkpointing.ipynb":
        # Trained, not a given figure: it moves with float rounding (the convolutions' biases before batch norm get
        # gradients of pure rounding noise, which Adam turns into full steps): 0.978 with batch norm as a dozen ops,
        # 0.956 with it fused into one, whose gradients agree with those ops' to 1e-6.
        assert float(re.search(r"test accuracy: (\d\.\d+)", outputs).group(1)) >= 0.95
        assert outputs.count("✘ not done yet") == 1
        plain, checkpointed = re.findall(r"holds +([\d,]+) bytes .*; theory +([\d,]+)", outputs)
        assert plain[0] == plain[1] and checkpointed[0] == checkpointed[1]          # held = theory, to the byte
    if path.name == "09_transformer_checkpointing.ipynb":
        held = re.findall(r"holds +([\d,]+) bytes .*; theory +([\d,]+)", outputs)
        assert len(held) == 3 and all(measured == theory for measured, theory in held)    # none, block, sqrt
        assert outputs.count("✘ not done yet") == 1
    if path.name == "10_checkpointing_through_time.ipynb":
        assert "equal the theory, and the gradients agree, for every length" in outputs


@pytest.mark.parametrize("path", NOTEBOOKS, ids=NAMES)
def test_notebook_pairs_agree(path):
    text = jupytext.read(path.with_suffix(".py"))
    notebook = nbformat.read(path, as_version=4)
    assert [(c.cell_type, c.source) for c in text.cells] == [(c.cell_type, c.source) for c in notebook.cells]
    assert all(not c.get("outputs") for c in notebook.cells), "commit notebooks without outputs"


def test_the_course_has_its_notebooks():
    assert NAMES == [f"notebooks/{name}.ipynb" for name in ["00_tour", "01_tape", "02_recompute_grad", "03_keras",
                     "04_memory", "05_custom_gradient", "06_higher_order", "07_exercises", "08_cnn_checkpointing",
                     "09_transformer_checkpointing", "10_checkpointing_through_time"]]
