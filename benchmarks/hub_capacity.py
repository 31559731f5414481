"""How many students can one machine hold? The real JupyterHub, N students at once, each running the tour.

    python benchmarks/hub_capacity.py --students 1 5 10 20

For each N a fresh JupyterHub starts (hub/jupyterhub_config.py in its ``try`` mode: servers as this
user, a home each under a temporary folder; configurable-http-proxy in front).  N students then
arrive together, each doing through the hub's proxy what JupyterLab does for a student who logs in
and runs the tour: an admin token creates the student and a token of their own; the student's
server is started; the student fetches the Lab page and ``00_tour.ipynb`` (contents API), opens a
session on it (a kernel, as Lab does on opening a notebook) and runs its code cells one after the
other over the kernel's websocket, waiting for each cell's reply.

Measured per student: seconds from the start request to the server being ready, to the first
output the tour shows, and to the last cell's reply; and, once every student has run the tour, the
memory and CPU time of their processes (the server and its kernel, found by ``JUPYTERHUB_USER`` in their
environment): RSS, and PSS (shared pages split between the processes that share them; PSS sums to
what the machine really holds).  The hub and proxy are measured apart.

configurable-http-proxy comes from the npm registry (``make hub-proxy`` installs it under
``.venv/chp``); ``--proxy PATH`` names another.  ``--json FILE`` writes every figure.
"""
import argparse
import asyncio
import json
import os
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

ROOT = Path(__file__).resolve().parent.parent
HUB_CONFIG = ROOT / "hub" / "jupyterhub_config.py"
TOUR = "00_tour.ipynb"
TAG = "MINITAPE_CAPACITY_RUN"          # in every process the run starts: measured by it, ended by it
OUTPUTS = {"stream", "display_data", "execute_result"}


def find_proxy(given: str | None = None) -> str | None:
    """configurable-http-proxy: the one named, the one on PATH, or the one ``make`` installs."""
    local = ROOT / ".venv" / "chp" / "node_modules" / ".bin" / "configurable-http-proxy"
    for candidate in (given, shutil.which("configurable-http-proxy"), str(local)):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


CONFIG = """\
load_subconfig({hub_config!r})
c.JupyterHub.services = [{{"name": "capacity", "api_token": {token!r}}}]
c.JupyterHub.load_roles = [{{"name": "capacity", "services": ["capacity"],
    "scopes": ["admin:users", "admin:servers", "tokens"]}}]   # the students use tokens of their own
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api}"
c.JupyterHub.hub_port = {hub_port}
c.Spawner.environment = {{{tag!r}: {run!r}}}
c.Spawner.env_keep.append("PYTHONPATH")   # a source checkout run with PYTHONPATH=$PWD: the kernel's minitape
"""


class Hub:
    """A JupyterHub in a temporary folder, with an admin token; ``stop`` leaves no process behind."""

    def __init__(self, proxy: str):
        self.dir = Path(tempfile.mkdtemp(prefix="minitape-hub-"))
        self.token = secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{free_port()}"
        (self.dir / "capacity_config.py").write_text(CONFIG.format(
            hub_config=str(HUB_CONFIG), token=self.token, proxy=proxy, proxy_api=free_port(),
            hub_port=free_port(), tag=TAG, run=str(self.dir)))
        env = dict(os.environ, MINITAPE_HUB="try", MINITAPE_HUB_HOMES=str(self.dir / "homes"),
                   MINITAPE_HUB_URL=self.url, MINITAPE_HUB_DB=f"sqlite:///{self.dir / 'hub.sqlite'}",
                   MINITAPE_HUB_SECRET=str(self.dir / "cookie_secret"), **{TAG: str(self.dir)})
        self.log = open(self.dir / "hub.log", "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", "capacity_config.py"], cwd=self.dir, env=env,
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)

    async def api(self, method: str, path: str, body=None, token: str | None = None, url: str | None = None):
        request = HTTPRequest((url or self.url + "/hub/api") + path, method=method,
                              headers={"Authorization": f"token {token or self.token}"},
                              body=None if body is None else json.dumps(body),
                              allow_nonstandard_methods=True, request_timeout=600)
        response = await AsyncHTTPClient().fetch(request)
        return json.loads(response.body) if response.body else None

    async def wait_ready(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the hub exited: {self.log_tail()}")
            try:
                await self.api("GET", "/")
                return
            except (HTTPClientError, OSError):
                await asyncio.sleep(0.3)
        raise TimeoutError(f"the hub did not answer in {timeout} s: {self.log_tail()}")

    def log_tail(self) -> str:
        return (self.dir / "hub.log").read_text(errors="replace")[-3000:]

    def stop(self) -> None:
        """SIGTERM the hub (it stops the servers and the proxy), then end anything of this run left."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
        for pid in tagged_processes(str(self.dir)):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def tagged_processes(run: str) -> dict[int, dict[str, str]]:
    """The processes started for this run (by the tag in their environment), with their environments."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                raw = (entry / "environ").read_bytes()
            except OSError:
                continue
            env = dict(item.split("=", 1) for item in raw.decode(errors="replace").split("\0") if "=" in item)
            if env.get(TAG) == run:
                found[int(entry.name)] = env
    return found


def memory_kib(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of one process in KiB, from /proc/PID/smaps_rollup; (0, 0) if it has gone."""
    try:
        fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:])
    except OSError:
        return 0, 0
    return int(fields["Rss"].split()[0]), int(fields["Pss"].split()[0])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far, from /proc/PID/stat; 0 if it has gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")   # utime, stime


def message(msg_type: str, content: dict, session: str) -> dict:
    header = {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "session": session, "username": "",
              "version": "5.3", "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    return {"header": header, "parent_header": {}, "metadata": {}, "content": content,
            "channel": "shell", "buffers": []}


def decode(frame) -> dict:
    if isinstance(frame, bytes):   # a message with binary buffers: JSON parts after a table of offsets
        count = int.from_bytes(frame[:4], "big")
        offsets = [int.from_bytes(frame[4 * (i + 1):4 * (i + 2)], "big") for i in range(count)]
        return json.loads(frame[offsets[0]:offsets[1] if count > 1 else None])
    return json.loads(frame)


async def run_cells(ws, cells: list[str], session: str, started: float) -> dict:
    """Run each cell in turn over the kernel's websocket, waiting for its reply and its idle status."""
    first_output = None
    for code in cells:
        request = message("execute_request", {"code": code, "silent": False, "store_history": True,
                                              "user_expressions": {}, "allow_stdin": False,
                                              "stop_on_error": True}, session)
        await ws.write_message(json.dumps(request))
        reply = idle = None
        while reply is None or idle is None:
            frame = await ws.read_message()
            if frame is None:
                raise ConnectionError("the kernel's websocket closed")
            msg = decode(frame)
            if msg.get("parent_header", {}).get("msg_id") != request["header"]["msg_id"]:
                continue
            kind = msg["header"]["msg_type"]
            if kind in OUTPUTS and first_output is None:
                first_output = time.monotonic() - started
            elif kind == "execute_reply":
                reply = msg["content"]
            elif kind == "status" and msg["content"]["execution_state"] == "idle":
                idle = True
        if reply["status"] != "ok":
            raise RuntimeError(f"a tour cell failed: {reply.get('ename')}: {reply.get('evalue')}")
    return {"first_result_s": first_output, "tour_s": time.monotonic() - started}


async def student(hub: Hub, name: str) -> dict:
    """One student: account and token, server start, the Lab page, the tour's session and its cells."""
    await hub.api("POST", f"/users/{name}")
    token = (await hub.api("POST", f"/users/{name}/tokens", {"note": "capacity test"}))["token"]
    started = time.monotonic()
    await hub.api("POST", f"/users/{name}/server")
    while not (await hub.api("GET", f"/users/{name}"))["servers"].get("", {}).get("ready"):
        await asyncio.sleep(0.25)
    ready = time.monotonic() - started
    server = f"{hub.url}/user/{name}/api"
    headers = {"Authorization": f"token {token}"}
    page = await AsyncHTTPClient().fetch(f"{hub.url}/user/{name}/lab/tree/{TOUR}", headers=headers,
                                         request_timeout=600)
    assert b"JupyterLab" in page.body, "the single-user server did not serve JupyterLab"
    notebook = (await hub.api("GET", f"/contents/{TOUR}", token=token, url=server))["content"]
    cells = [cell["source"] for cell in notebook["cells"] if cell["cell_type"] == "code"]
    opened = await hub.api("POST", "/sessions", {"path": TOUR, "type": "notebook", "name": TOUR,
                                                 "kernel": {"name": "python3"}}, token=token, url=server)
    session = uuid.uuid4().hex
    ws_url = f"{server}/kernels/{opened['kernel']['id']}/channels?session_id={session}".replace("http", "ws", 1)
    ws = await websocket_connect(HTTPRequest(ws_url, headers=headers, request_timeout=600))
    try:
        result = await run_cells(ws, cells, session, started)
    finally:
        ws.close()
    return {"name": name, "ready_s": ready, "cells": len(cells), **result}


def class_memory(hub: Hub) -> dict:
    """RSS and PSS (MiB) and CPU seconds of each student's processes, and of the hub with its proxy."""
    per_user: dict[str, list[float]] = {}
    hub_only = [0, 0, 0.0, 0]
    for pid, env in tagged_processes(str(hub.dir)).items():
        totals = per_user.setdefault(env["JUPYTERHUB_USER"], [0, 0, 0.0, 0]) if "JUPYTERHUB_USER" in env else hub_only
        rss, pss = memory_kib(pid)
        totals[0] += rss / 1024
        totals[1] += pss / 1024
        totals[2] += cpu_seconds(pid)
        totals[3] += 1
    return {"students": {user: {"rss_mib": r, "pss_mib": p, "cpu_s": t, "processes": n}
                         for user, (r, p, t, n) in per_user.items()},
            "hub_and_proxy": {"rss_mib": hub_only[0], "pss_mib": hub_only[1], "cpu_s": hub_only[2]}}


async def one_class(proxy: str, n: int) -> dict:
    """A fresh hub, N students arriving together, their memory once all have run the tour."""
    load = os.getloadavg()[0]        # the machine's own load when the class arrives: context for the times
    began, hub_start = time.monotonic(), float("nan")
    hub = Hub(proxy)
    try:
        await hub.wait_ready()
        hub_start = time.monotonic() - began
        students = await asyncio.gather(*(student(hub, f"student{i:02d}") for i in range(n)))
        return {"n": n, "load_before": load, "hub_start_s": hub_start, "students": students,
                "memory": class_memory(hub)}
    except Exception as error:
        raise RuntimeError(f"{error}\n--- hub log ---\n{hub.log_tail()}") from error
    finally:
        stopping = time.monotonic()
        hub.stop()
        print(f"N={n}: hub started in {hub_start:.1f} s, stopped in {time.monotonic() - stopping:.1f} s",
              file=sys.stderr)


def summary(result: dict) -> dict:
    """The table's row: medians and maxima over the students."""
    def spread(values):
        return f"{statistics.median(values):.1f} / {max(values):.1f}"
    mem = list(result["memory"]["students"].values())
    return {"N": result["n"],
            "server ready, s (median / max)": spread([s["ready_s"] for s in result["students"]]),
            "first result, s": spread([s["first_result_s"] for s in result["students"]]),
            "tour done, s": spread([s["tour_s"] for s in result["students"]]),
            "RSS per student, MiB": f"{statistics.median(m['rss_mib'] for m in mem):.0f}",
            "PSS per student, MiB": f"{statistics.median(m['pss_mib'] for m in mem):.0f}",
            "all students' PSS, MiB": f"{sum(m['pss_mib'] for m in mem):.0f}",
            "CPU per student, s": f"{statistics.median(m['cpu_s'] for m in mem):.1f}",
            "hub + proxy RSS, MiB": f"{result['memory']['hub_and_proxy']['rss_mib']:.0f}",
            "load before": f"{result['load_before']:.1f}"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, nargs="+", default=[1, 5, 10, 20])
    parser.add_argument("--proxy", help="configurable-http-proxy's path (default: PATH, then .venv/chp)")
    parser.add_argument("--json", help="write every measurement to this file")
    args = parser.parse_args()
    proxy = find_proxy(args.proxy)
    if proxy is None:
        sys.exit("configurable-http-proxy not found: `make hub-proxy` installs it from npm, or pass --proxy")
    AsyncHTTPClient.configure(None, max_clients=200)
    results = []
    for n in args.students:
        results.append(asyncio.run(one_class(proxy, n)))
        row = summary(results[-1])
        if len(results) == 1:
            print("| " + " | ".join(row) + " |\n|" + " --- |" * len(row))
        print("| " + " | ".join(str(v) for v in row.values()) + " |", flush=True)
    print(f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f} at the end")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
