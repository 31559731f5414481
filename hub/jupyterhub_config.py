"""JupyterHub for a class on one machine: each student logs in and gets JupyterLab on their own copy
of the course notebooks, opened at the tour.

Start it with ``make hub`` (or ``.venv/bin/jupyterhub -f hub/jupyterhub_config.py``), then open
http://THIS-MACHINE:8000.  JupyterHub is the engine; this file only chooses its parts:

``MINITAPE_HUB=system`` (the default): the students are the machine's user accounts.
    JupyterHub's default authenticator (PAM) checks their password, and its default spawner
    (LocalProcessSpawner) runs each student's server as that user, in their home directory, so
    students cannot read each other's work.  The hub runs as root to switch users; the clone and
    its ``.venv`` must be readable by the students (not a Python under ``/root``).
    ``MINITAPE_HUB_ADMINS=alice,bob`` names the teachers (they see the admin page).
``MINITAPE_HUB=try``: to try it out, with no accounts.  Any name logs in with the one shared
    password in ``MINITAPE_HUB_PASSWORD``, 8 characters at least, ``minitape-class`` unless set
    (SharedPasswordAuthenticator); every server runs as the hub's own
    user (SimpleLocalProcessSpawner), each with a home under ``MINITAPE_HUB_HOMES`` (default
    ``/tmp/minitape-hub``).  There is no isolation between students: not for a real class.

The hub keeps its state (``jupyterhub.sqlite``, the cookie secret) in the folder it starts in
(``.venv/hub-state`` with ``make hub``); ``MINITAPE_HUB_URL`` (default ``http://:8000``),
``MINITAPE_HUB_DB`` and ``MINITAPE_HUB_SECRET`` move them.

Either way the first start of a student's server copies the course (the ``.ipynb`` files and
``data/``, not the jupytext ``.py`` twins, not ``solutions/``) into ``~/minitape-course``; later
starts leave the student's work alone.  The single-user servers run in the Python environment the
hub runs in (``.venv``), where ``minitape`` and JupyterLab are installed.

For nbgrader's exchange (releasing assignments and collecting them through the hub), see the
nbgrader documentation: it adds ``c.Exchange.root`` to each user's nbgrader config and a shared
folder; this file does not set it up.
"""
import os
import shutil
import sys
from pathlib import Path

c = get_config()  # noqa: F821  (JupyterHub's config loader provides it)

REPO = Path(__file__).resolve().parent.parent
COURSE = REPO / "notebooks"
PROXY = REPO / ".venv" / "chp" / "node_modules" / ".bin" / "configurable-http-proxy"   # `make hub-proxy`
COURSE_DIR = "minitape-course"
MODE = os.environ.get("MINITAPE_HUB", "system")


def copy_course(home: Path) -> Path:
    """Copy the course notebooks and their data into ``home/minitape-course`` unless it exists."""
    target = home / COURSE_DIR
    if not target.exists():
        target.mkdir(parents=True)
        for notebook in sorted(COURSE.glob("*.ipynb")):
            shutil.copy2(notebook, target / notebook.name)
        shutil.copytree(COURSE / "data", target / "data")
    return target


def system_user_course(spawner) -> None:
    """pre_spawn_hook for real accounts: the copy belongs to the student."""
    import pwd
    account = pwd.getpwnam(spawner.user.name)
    target = copy_course(Path(account.pw_dir))
    for path in [target, *target.rglob("*")]:
        os.chown(path, account.pw_uid, account.pw_gid)


def try_user_course(spawner) -> None:
    """pre_spawn_hook for the no-accounts set-up: the home comes from the spawner's template."""
    copy_course(Path(spawner.home_dir))


if PROXY.exists() and not shutil.which("configurable-http-proxy"):
    c.ConfigurableHTTPProxy.command = [str(PROXY)]
c.JupyterHub.bind_url = os.environ.get("MINITAPE_HUB_URL", "http://:8000")
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]   # this environment's Jupyter
c.Spawner.notebook_dir = f"~/{COURSE_DIR}"
c.Spawner.default_url = "/lab/tree/00_tour.ipynb"
# A class logs in at once: on a small machine, twenty servers and kernels starting together need
# more than the default 60 s (see docs/hosting.md for measured start times).
c.Spawner.start_timeout = 300
c.Spawner.http_timeout = 300
c.JupyterHub.cookie_secret_file = os.environ.get("MINITAPE_HUB_SECRET", "jupyterhub_cookie_secret")
c.JupyterHub.db_url = os.environ.get("MINITAPE_HUB_DB", "sqlite:///jupyterhub.sqlite")

if MODE == "system":
    c.JupyterHub.authenticator_class = "pam"
    c.JupyterHub.spawner_class = "localprocess"
    c.Spawner.pre_spawn_hook = system_user_course
    c.Authenticator.allow_all = True          # every account on the machine may log in
    c.Authenticator.admin_users = set(filter(None, os.environ.get("MINITAPE_HUB_ADMINS", "").split(",")))
elif MODE == "try":
    c.JupyterHub.authenticator_class = "shared-password"
    c.SharedPasswordAuthenticator.user_password = os.environ.get("MINITAPE_HUB_PASSWORD", "minitape-class")
    c.Authenticator.allow_all = True
    c.JupyterHub.spawner_class = "simple"
    homes = Path(os.environ.get("MINITAPE_HUB_HOMES", "/tmp/minitape-hub"))
    c.SimpleLocalProcessSpawner.home_dir_template = str(homes / "{username}")
    c.Spawner.pre_spawn_hook = try_user_course
    if os.getuid() == 0:                      # in a container or CI: Jupyter refuses root unless told
        c.Spawner.args = ["--allow-root"]
else:
    raise ValueError(f"MINITAPE_HUB={MODE!r}: use 'system' (accounts and PAM) or 'try' (no accounts)")
