"""Opening a course notebook in JupyterLab and letting it autosave leaves the files as committed.

A real Jupyter server, started as `make lab` starts it (jupytext's contents manager pairs each
.ipynb with its .py), serves a copy of notebooks/. Each notebook is opened and saved
through the contents API as JupyterLab's autosave does: GET the model, set the kernelspec and
language_info the kernel reports, PUT it back. Both files of the pair must come back byte for byte.
"""
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("jupyter_server", reason="the notebook-server test needs jupyter_server (make test installs it)")

ROOT = Path(__file__).parent.parent
FOLDERS = ["notebooks"]          # the teacher's source, classroom/source, is nbgrader's (tests/test_grading.py)
NOTEBOOKS = [f"{folder}/{path.name}" for folder in FOLDERS for path in sorted((ROOT / folder).glob("*.ipynb"))]
TOKEN = "minitape-test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(server: str, method: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(f"{server}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"token {TOKEN}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


@contextlib.contextmanager
def running(app: str, env: dict, *options: str):
    """A Jupyter server (``python -m app``) on a free local port with our token, until the block ends: its URL."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", app, "--no-browser", "--allow-root", f"--port={port}",
                               "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={TOKEN}", *options],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(240):
            try:
                call(url, "GET", "/api/status")
                break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail(f"{app} did not start")
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A Jupyter server with the jupytext contents manager over a copy of the notebooks.

    Each .ipynb is made newer than its .py, as a fresh clone may leave them: jupytext then checks
    that the two say the same, and refuses to open the pair if they do not.
    """
    root = tmp_path_factory.mktemp("course")
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, root / folder)
        for notebook in (root / folder).glob("*.ipynb"):
            os.utime(notebook, (time.time() + 5, time.time() + 5))
    config = tmp_path_factory.mktemp("jupyter-config")
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(config), JUPYTER_RUNTIME_DIR=str(config / "runtime"))
    with running("jupyter_server", env, f"--ServerApp.root_dir={root}",
                 "--ServerApp.jpserver_extensions={'jupyterlab_jupytext': True}") as url:
        yield url, root


@pytest.fixture(scope="module")
def kernel_metadata(served):
    """What JupyterLab writes once the notebook's kernel is up: its kernelspec and its language_info."""
    from jupyter_client.manager import start_new_kernel

    url, _ = served
    specs = call(url, "GET", "/api/kernelspecs")
    spec = specs["kernelspecs"][specs["default"]]["spec"]
    manager, client = start_new_kernel(kernel_name=specs["default"])
    try:
        language_info = client.kernel_info(reply=True, timeout=30)["content"]["language_info"]
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    return {"kernelspec": {"name": specs["default"], "display_name": spec["display_name"], "language": spec["language"]},
            "language_info": language_info}


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_opening_and_autosaving_a_notebook_changes_no_file(served, kernel_metadata, name):
    url, root = served
    before = {path: path.read_bytes() for path in (root / name).parent.iterdir() if path.is_file()}
    model = call(url, "GET", f"/api/contents/{name}?type=notebook&content=1")
    notebook = model["content"]
    notebook["metadata"].update(kernel_metadata)
    for cell in notebook["cells"]:                     # JupyterLab's model sends each source as one string
        cell["source"] = "".join(cell["source"])
    call(url, "PUT", f"/api/contents/{name}", {"type": "notebook", "format": "json", "content": notebook})
    after = {path: path.read_bytes() for path in (root / name).parent.iterdir() if path.is_file()}
    changed = [path.name for path in after if before.get(path) != after[path]]
    assert changed == [], f"saving {name} rewrote {changed}"


def test_every_notebook_is_paired_and_configured():
    for folder in FOLDERS:
        config = (ROOT / folder / "jupytext.toml").read_text()
        assert 'notebook_metadata_filter = "-all"' in config and 'cell_metadata_filter = "-all"' in config
        for notebook in (ROOT / folder).glob("*.ipynb"):
            assert notebook.with_suffix(".py").exists()
            assert not notebook.with_suffix(".py").read_text().startswith("# ---"), "no YAML header in the .py"
