"""Hosting a class: the JupyterHub configuration, the Binder environment, and two students through a real hub."""
import json
import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from traitlets.config import Config

ROOT = Path(__file__).resolve().parent.parent
HUB_CONFIG = ROOT / "hub" / "jupyterhub_config.py"
CAPACITY = ROOT / "benchmarks" / "hub_capacity.py"


def load_hub_config(monkeypatch, **env) -> dict:
    """The config file's globals (its ``c`` and helpers), run as JupyterHub runs it, under ``env``."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(HUB_CONFIG), init_globals={"get_config": Config})


def requirement_names(lines) -> set[str]:
    return {line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")}


def test_binder_installs_what_make_lab_installs():
    tomllib = pytest.importorskip("tomllib", reason="Python 3.11 reads TOML")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    binder = requirement_names((ROOT / "binder" / "requirements.txt").read_text().splitlines())
    assert binder == set(project["dependencies"]) | set(project["optional-dependencies"]["notebooks"])
    post_build = (ROOT / "binder" / "postBuild").read_text()
    assert "pip install --no-deps --no-build-isolation -e ." in post_build
    for setting in ["jupyter_server_config.json etc/jupyter", "overrides.json share/jupyter/lab/settings"]:
        assert f"install_setting {setting}" in post_build, "the lab settings make lab installs"
    assert os.access(ROOT / "binder" / "postBuild", os.X_OK), "repo2docker runs postBuild only if executable"


def test_a_teacher_starts_with_accounts_and_pam(monkeypatch):
    c = load_hub_config(monkeypatch, MINITAPE_HUB="system", MINITAPE_HUB_ADMINS="ada,alan")["c"]
    assert (c.JupyterHub.authenticator_class, c.JupyterHub.spawner_class) == ("pam", "localprocess")
    assert c.Authenticator.admin_users == {"ada", "alan"}
    assert c.Spawner.default_url == "/lab/tree/00_tour.ipynb"
    assert c.Spawner.cmd[0] == sys.executable, "the students' servers run in the hub's environment"


def test_the_try_mode_needs_no_accounts(monkeypatch, tmp_path):
    c = load_hub_config(monkeypatch, MINITAPE_HUB="try", MINITAPE_HUB_HOMES=str(tmp_path))["c"]
    assert (c.JupyterHub.authenticator_class, c.JupyterHub.spawner_class) == ("shared-password", "simple")
    assert c.SimpleLocalProcessSpawner.home_dir_template == str(tmp_path / "{username}")


def test_an_unknown_mode_is_refused(monkeypatch):
    with pytest.raises(ValueError, match="MINITAPE_HUB='docker': use 'system'"):
        load_hub_config(monkeypatch, MINITAPE_HUB="docker")


def test_a_student_gets_the_notebooks_not_their_twins_nor_the_solutions(monkeypatch, tmp_path):
    copy_course = load_hub_config(monkeypatch, MINITAPE_HUB="try")["copy_course"]
    course = copy_course(tmp_path)
    names = {p.name for p in course.iterdir()}
    assert "00_tour.ipynb" in names and "data" in names
    assert not any(name.endswith(".py") for name in names) and "solutions" not in names
    (course / "00_tour.ipynb").write_text("the student's own work")
    copy_course(tmp_path)
    assert (course / "00_tour.ipynb").read_text() == "the student's own work", "a restart keeps the work"


def test_two_students_run_the_tour_through_a_real_hub(tmp_path):
    pytest.importorskip("jupyterhub", reason="the dev extra installs JupyterHub")
    if runpy.run_path(str(CAPACITY))["find_proxy"]() is None:
        pytest.skip("configurable-http-proxy not installed: `make hub-proxy` (npm)")
    out = tmp_path / "class.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    run = subprocess.run([sys.executable, str(CAPACITY), "--students", "2", "--json", str(out)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-5000:]
    [result] = json.loads(out.read_text())
    tour_cells = sum(cell["cell_type"] == "code" for cell in
                     json.loads((ROOT / "notebooks" / "00_tour.ipynb").read_text())["cells"])
    assert [s["cells"] for s in result["students"]] == [tour_cells, tour_cells]
    for s in result["students"]:
        assert 0 < s["ready_s"] < s["first_result_s"] <= s["tour_s"]
    memory = result["memory"]["students"]
    assert sorted(memory) == ["student00", "student01"]
    for m in memory.values():
        assert m["processes"] == 2 and m["rss_mib"] > 50, "each student: a server and a kernel, measured"
    assert not [pid for pid in os.listdir("/proc") if pid.isdigit() and left_over(pid)], "the hub left processes"


def left_over(pid: str) -> bool:
    try:
        return b"MINITAPE_CAPACITY_RUN=" in Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return False
