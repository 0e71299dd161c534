"""`make lab` (scripts/lab.py): JupyterLab opens index.ipynb, not the Launcher,
and a learner's session (open a lesson, run it, save it) changes the working
copy only: the repository's lessons stay byte for byte as stored.  Reopened
later, the saved lesson shows its replay, not a widget whose model is gone."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import LAB_SETTINGS, Lab, _die_with_pytest, _free_port, _stop_lab, _wait_ready
from test_lesson_e2e import open_notebook, run_all_cells
from test_lesson_opens_clean import dirty_after_kernel_start

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
LESSON = "en/02_backward_and_gradients.ipynb"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def lessons_state():
    digests = {str(p.relative_to(ROOT)): hashlib.sha256(p.read_bytes()).hexdigest()
               for p in sorted((ROOT / "notebooks").rglob("*")) if p.is_file()}
    status = subprocess.run(["git", "status", "--porcelain", "--", "notebooks"], cwd=ROOT,
                            capture_output=True, text=True).stdout
    return digests, status


@pytest.fixture
def make_lab(tmp_path, chromium_executable):
    """scripts/lab.py as `make lab` runs it, on a free port, with throwaway Jupyter folders."""
    for key, value in LAB_SETTINGS.items():
        path = tmp_path / "settings" / (key + ".jupyterlab-settings")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp_path / "config"), JUPYTER_DATA_DIR=str(tmp_path / "data"),
               JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"), IPYTHONDIR=str(tmp_path / "ipython"),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    work = tmp_path / "work"
    server = None
    try:
        for _attempt in range(3):
            port = _free_port()
            log = tmp_path / f"lab-{port}.log"
            cmd = [sys.executable, str(ROOT / "scripts" / "lab.py"), "--workdir", str(work), "--",
                   "--no-browser", "--allow-root", "--ip=127.0.0.1", f"--port={port}", "--ServerApp.port_retries=0",
                   "--ServerApp.token=", "--ServerApp.password=",
                   f"--LabApp.user_settings_dir={tmp_path / 'settings'}",
                   f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}", "--LabApp.expose_app_in_browser=True"]
            with open(log, "wb") as out:
                process = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                           stdin=subprocess.DEVNULL, start_new_session=True,
                                           preexec_fn=_die_with_pytest)
            server = Lab(url=f"http://127.0.0.1:{port}", root=work, log=log, process=process)
            if _wait_ready(server):
                break
        yield server
    finally:
        if server is not None:
            _stop_lab(server)


def test_make_lab_opens_the_index_and_never_writes_the_lessons(make_lab, page):
    before = lessons_state()
    page.goto(make_lab.url + "/")
    page.wait_for_function("""() => { const app = window.jupyterapp;
        if (!app || !app.shell.currentWidget) return false;
        const w = app.shell.currentWidget; return !!(w.context && w.context.path === 'index.ipynb'); }""",
                           timeout=60_000)
    assert page.locator(".jp-Launcher:visible").count() == 0, "the Launcher opened, not index.ipynb"
    page.locator(".jp-MarkdownCell").filter(has_text="autograd_teach").first.wait_for(timeout=30_000)

    copy = make_lab.root / LESSON
    stored = copy.read_bytes()
    as_stored = json.loads((ROOT / "notebooks" / LESSON).read_text(encoding="utf-8"))
    as_stored["metadata"]["language_info"]["version"] = sys.version.split()[0]   # as the kernel reports it
    assert json.loads(stored) == as_stored        # the working copy starts as stored
    open_notebook(page, make_lab, LESSON, workspace="make-lab")
    assert not dirty_after_kernel_start(page, LESSON)["dirty"], "the lesson was marked modified on opening"
    run_all_cells(page, LESSON)
    saved_at = copy.stat().st_mtime_ns
    page.locator(".jp-Notebook").first.click()
    page.keyboard.press("Control+s")
    deadline = time.monotonic() + 30
    while copy.stat().st_mtime_ns == saved_at and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    # (A run lesson saved can be the stored one byte for byte: its outputs are.)
    assert copy.stat().st_mtime_ns != saved_at, "the session did not save the working copy"
    assert lessons_state() == before, "a lab session changed the repository's lessons"

    # The learner comes back to the saved lesson, kernel long gone: the replay shows
    # where viz.show() ran (a saved widget view said "model not found" there).
    saved = json.loads(copy.read_text(encoding="utf-8"))
    shows = [c for c in saved["cells"] if c["cell_type"] == "code" and "viz.show(" in "".join(c["source"])]
    assert shows and all(o.get("data", {}).get("text/html") for c in shows for o in c["outputs"])
    assert not [o for c in shows for o in c["outputs"] if WIDGET_VIEW in o.get("data", {})], "a widget view was saved"
    page.goto(f"{make_lab.url}/lab/workspaces/make-lab-again/tree/{LESSON}")
    cell = page.locator(".jp-Notebook .jp-CodeCell").filter(has_text="viz.show(").first
    # the replay's picture, or its stepper once its script has run (and hidden the picture):
    # whichever is visible (.first alone could be the hidden picture, and wait forever)
    shown = ".jp-OutputArea-output img.at-fallback:visible, .jp-OutputArea-output .at-widget:visible"
    cell.locator(shown).first.wait_for(state="visible", timeout=30_000)
    page.wait_for_timeout(1000)
    text = cell.locator(".jp-OutputArea").inner_text()
    assert "Error displaying widget" not in text and "Loading widget" not in text, text
