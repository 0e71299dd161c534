"""Fixtures for the browser test: a throwaway JupyterLab server and headless Chromium.

* ``lab``: JupyterLab on 127.0.0.1 and a free port, no token, serving a copy
  of ``notebooks/`` (outputs stripped, so only cells run by the test can put a
  graph on the page) from a temporary root; its config, settings, workspaces
  and runtime folders are temporary too, so nothing of the user's or of an
  earlier run leaks in.  It is stopped at the end of the session whatever
  happens (SIGTERM, then SIGKILL for it and its kernels).
* ``browser``: Debian's Chromium (``/usr/bin/chromium``, or ``$CHROMIUM``)
  driven by Playwright through ``executable_path``: never ``playwright
  install``.  Outside CI, without Chromium, the test is skipped with a
  message saying how to enable it; with ``CI`` set it fails instead.
* ``page``: a fresh browser context per test that records the console; when
  the test fails, a screenshot, the console log and the server log are
  written to ``test-artifacts/``.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ENABLE = "run `make test` as root or install chromium (apt-get install chromium)"

# Flags for Chromium as root in a sandbox-less container with a closed network:
# without the background-networking ones it keeps dialling out and gets refused.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--font-render-hinting=none", "--force-color-profile=srgb", "--hide-scrollbars",
]

# JupyterLab user settings for the throwaway server: no news/update pop-up over
# the notebook, and every cell kept in the DOM (no windowed rendering).
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
}


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "browser: end-to-end test in a real JupyterLab driven by headless Chromium")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    # Keep each phase's report on the item so fixtures can tell a failure at teardown.
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


def _in_ci() -> bool:
    return bool(os.environ.get("CI"))


def _unavailable(why: str):
    """Skip outside CI; in CI the browser test must run, so fail loudly."""
    if _in_ci():
        pytest.fail(f"CI is set but the browser test cannot run: {why}. "
                    "`make test` installs Chromium when run as root (scripts/ensure_chromium.sh).",
                    pytrace=False)
    pytest.skip(f"browser test skipped: {why}; to enable it, {ENABLE}")


# --------------------------------------------------------------------------- server

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _strip_outputs(path: Path) -> None:
    """Drop saved outputs, execution counts and widget state from a notebook."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    nb.get("metadata", {}).pop("widgets", None)
    path.write_text(json.dumps(nb, ensure_ascii=False, indent=1), encoding="utf-8")


def _children(pid: int) -> list[int]:
    """Every live descendant of ``pid`` (kernels run in their own sessions)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parents.items() if pp == p]
        found += kids
        todo += kids
    return found


def _die_with_pytest():
    """In the server, before exec: die with pytest, even when pytest is killed
    (a CI timeout), so that no server outlives the run (Linux only).  SIGKILL,
    because a server stopping while a kernel starts can hang; its kernels watch
    their parent (JPY_PARENT_PID) and exit on their own."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG
    except Exception:
        pass


def _kill(pids, sig):
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


@dataclass
class Lab:
    url: str
    root: Path
    log: Path
    process: subprocess.Popen = field(repr=False)

    def log_tail(self, n=60) -> str:
        lines = self.log.read_text(errors="replace").splitlines()
        return "\n".join(lines[-n:])


def _start_lab(base: Path, port: int) -> Lab:
    root = base / "root"
    env = dict(os.environ)
    env.update(
        JUPYTER_CONFIG_DIR=str(base / "config"),    # no user config (passwords, extensions off)
        JUPYTER_DATA_DIR=str(base / "data"),        # no user kernelspecs shadowing the venv's
        JUPYTER_RUNTIME_DIR=str(base / "runtime"),
        IPYTHONDIR=str(base / "ipython"),           # no user startup scripts in the kernel
        # The kernel imports this checkout's package, whatever is installed.
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    log = base / f"jupyterlab-{port}.log"
    cmd = [
        # The interpreter running pytest (the project's .venv under `make test`):
        # its jupyterlab, and its python3 kernel.
        sys.executable, "-m", "jupyterlab",
        "--no-browser", "--allow-root",
        "--ip=127.0.0.1", f"--port={port}", "--ServerApp.port_retries=0",
        "--ServerApp.token=", "--ServerApp.password=",
        f"--ServerApp.root_dir={root}",
        f"--LabApp.user_settings_dir={base / 'settings'}",
        f"--LabApp.workspaces_dir={base / 'workspaces'}",
        "--LabApp.expose_app_in_browser=True",   # window.jupyterapp: cell outputs, kernel state
    ]
    with open(log, "wb") as out:
        process = subprocess.Popen(cmd, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True,
                                   preexec_fn=_die_with_pytest)
    return Lab(url=f"http://127.0.0.1:{port}", root=root, log=log, process=process)


def _wait_ready(lab: Lab, timeout=60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if lab.process.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(lab.url + "/api/status", timeout=2) as r:
                if r.status == 200:
                    return True
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"JupyterLab did not answer {lab.url}/api/status in {timeout:.0f} s:\n"
                       + lab.log_tail())


def _stop_lab(lab: Lab) -> None:
    proc = lab.process
    if proc.poll() is None:
        kids = _children(proc.pid)
        proc.send_signal(signal.SIGTERM)    # the server shuts its kernels down itself
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            _kill([proc.pid] + kids, signal.SIGKILL)
            proc.wait(timeout=5)
        # Anything of ours still alive (a kernel the server lost track of) goes too.
        _kill([k for k in kids if Path(f"/proc/{k}").exists()], signal.SIGKILL)


@pytest.fixture(scope="session")
def lab(tmp_path_factory, chromium_executable):
    """JupyterLab serving a throwaway copy of the lessons; stopped at the end whatever happens."""
    try:
        import jupyterlab  # noqa: F401
    except ImportError:
        _unavailable(f"jupyterlab is not installed for {sys.executable}")
    base = tmp_path_factory.mktemp("lab")
    root = base / "root"
    shutil.copytree(ROOT / "notebooks", root,
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    for nb in root.rglob("*.ipynb"):
        _strip_outputs(nb)
    for key, value in LAB_SETTINGS.items():
        path = base / "settings" / (key + ".jupyterlab-settings")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))

    server = None
    try:
        for _attempt in range(3):       # the free port can be taken before the server binds it
            server = _start_lab(base, _free_port())
            if _wait_ready(server):
                break
        else:
            raise RuntimeError("JupyterLab exited before answering:\n" + server.log_tail())
        yield server
    finally:
        if server is not None:
            _stop_lab(server)


# --------------------------------------------------------------------------- browser

@pytest.fixture(scope="session")
def chromium_executable():
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        _unavailable(f"no Chromium at {CHROMIUM}")
    try:
        import playwright  # noqa: F401
    except ImportError:
        _unavailable("the playwright Python package is not installed")
    return CHROMIUM


@pytest.fixture(scope="session")
def browser(chromium_executable):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        # Playwright gives every launch a fresh, temporary user-data dir.
        b = pw.chromium.launch(executable_path=chromium_executable, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@dataclass
class Console:
    """What the page printed: console messages and uncaught exceptions."""
    entries: list = field(default_factory=list)

    def add(self, kind, text, url=""):
        self.entries.append((time.strftime("%H:%M:%S"), kind, text, url))

    def errors(self):
        return [e for e in self.entries if e[1] in ("error", "pageerror")]

    def dump(self) -> str:
        return "\n".join(f"{t} [{kind}] {text}" + (f"  ({url})" if url else "")
                         for t, kind, text, url in self.entries)


@pytest.fixture
def console():
    return Console()


@pytest.fixture
def page(request, lab, browser, console):
    context = browser.new_context(viewport={"width": 1280, "height": 720}, device_scale_factor=1,
                                  locale="en-US", timezone_id="UTC", reduced_motion="reduce")
    context.set_default_timeout(30_000)
    pg = context.new_page()
    pg.on("console", lambda m: console.add(m.type, m.text, (m.location or {}).get("url", "")))
    pg.on("pageerror", lambda e: console.add("pageerror", f"{e.name}: {e.message}\n{e.stack or ''}"))
    try:
        yield pg
    finally:
        report = getattr(request.node, "report_call", None)
        if report is not None and report.failed:
            ARTIFACTS.mkdir(exist_ok=True)
            stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
            try:
                pg.screenshot(path=str(ARTIFACTS / f"{stem}.png"), full_page=True)
            except Exception as exc:  # a crashed page still gets its logs written
                console.add("harness", f"screenshot failed: {exc}")
            (ARTIFACTS / f"{stem}.console.log").write_text(console.dump() + "\n", encoding="utf-8")
            shutil.copyfile(lab.log, ARTIFACTS / f"{stem}.jupyterlab.log")
        context.close()
