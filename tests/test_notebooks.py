"""Every notebook runs top to bottom in a fresh kernel; a failing cell fails the suite."""
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path):
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    outputs = "".join(o.get("text", "") for cell in notebook.cells for o in cell.get("outputs", []))
    if path.name == "00_tour.ipynb":
        # forward + backward with recompute, plain forward, the timeline's forward + backward, the
        # pictured tape's forward, the Keras forward and its two gradient calls: every trace as documented.
        assert outputs.count("running\n") == (4 + 4) + 4 + (4 + 4) + 4 + (4 + 4 + 4)


def test_there_is_a_tour():
    assert any(p.name == "00_tour.ipynb" for p in NOTEBOOKS)
