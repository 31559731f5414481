"""`make lab`'s JupyterLab: the paired .py files out of the file browser, jupytext still pairing, no news pop-up.

The settings in jupyter/ are installed by the Makefile's own rules into a scratch environment folder,
and a real JupyterLab server is started on them as `make lab` starts it (the course's notebooks as its
root). What its contents API lists is what the file browser shows.
"""
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from test_notebook_files import call, running

pytest.importorskip("jupyterlab", reason="the JupyterLab test needs jupyterlab (make test installs it)")

ROOT = Path(__file__).parent.parent
NOTEBOOKS = sorted(path.name for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server with the settings `make lab` installs, over a copy of notebooks/."""
    venv = tmp_path_factory.mktemp("venv")
    settings = [venv / "etc" / "jupyter" / "jupyter_server_config.json",
                venv / "share" / "jupyter" / "lab" / "settings" / "overrides.json"]
    subprocess.run(["make", "-s", "-C", str(ROOT), f"VENV={venv}", *map(str, settings)], check=True)
    root = tmp_path_factory.mktemp("course") / "notebooks"
    shutil.copytree(ROOT / "notebooks", root)
    for notebook in root.glob("*.ipynb"):            # newer than its .py, as a fresh clone may leave them
        os.utime(notebook, (time.time() + 5, time.time() + 5))
    config = tmp_path_factory.mktemp("jupyter-config")
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(config), JUPYTER_RUNTIME_DIR=str(config / "runtime"),
               JUPYTER_CONFIG_PATH=str(settings[0].parent))      # as .venv/etc/jupyter is searched for the venv
    with running("jupyterlab", env, f"--ServerApp.root_dir={root}",
                 f"--LabApp.app_settings_dir={settings[1].parent}") as url:
        yield url, root


def test_the_file_browser_lists_each_notebook_once(lab):
    url, _ = lab
    listed = sorted(entry["name"] for entry in call(url, "GET", "/api/contents")["content"])
    assert listed == sorted([*NOTEBOOKS, "data"]) and len(NOTEBOOKS) >= 11


def test_jupytext_still_pairs_the_hidden_py(lab):
    url, root = lab
    model = call(url, "GET", "/api/contents/00_tour.ipynb?type=notebook&content=1")
    model["content"]["cells"].append({"cell_type": "markdown", "metadata": {}, "source": "Pairs while hidden."})
    call(url, "PUT", "/api/contents/00_tour.ipynb", {"type": "notebook", "format": "json",
                                                      "content": model["content"]})
    assert (root / "00_tour.py").read_text().rstrip().endswith("# Pairs while hidden.")


def test_the_jupyter_news_pop_up_is_off(lab):
    url, _ = lab
    schema = call(url, "GET", "/lab/api/settings/@jupyterlab/apputils-extension:notification")["schema"]
    assert schema["properties"]["fetchNews"]["default"] == "false"      # JupyterLab's own default, "none", asks
    assert schema["properties"]["checkForUpdates"]["default"] is False
