"""A lesson run and saved in a plain `jupyter lab` (not `make lab`, whose save
hook stores the replay instead of the widget view), reopened once its kernel is
gone.  Saved as JupyterLab saves by default, each show() output keeps a widget
view whose model died with the kernel: "Error displaying widget: model not found"
where the diagram was.  With ipywidgets' own setting, Settings -> Save Widget
State Automatically (what the lesson index tells such learners to switch on), the
notebook also keeps the widgets' state, ipywidgets restores the model from it
when the notebook opens, and the replay shows its diagram, saying that its
kernel is gone.  Both are checked here, as a learner does them: the menu item,
Run All, Ctrl+S."""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from conftest import LAB_SETTINGS, _free_port, _start_lab, _stop_lab, _wait_ready
from test_lesson_e2e import _in_panel, open_notebook, run_all_cells

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
LESSON = ROOT / "notebooks" / "en" / "02_backward_and_gradients.ipynb"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


@pytest.fixture
def plain_lab(tmp_path, chromium_executable):
    """`jupyter lab` as a learner starts it: no make lab config, throwaway settings."""
    (tmp_path / "root").mkdir()
    for key, value in LAB_SETTINGS.items():
        path = tmp_path / "settings" / (key + ".jupyterlab-settings")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))
    server = None
    try:
        for _attempt in range(3):
            server = _start_lab(tmp_path, _free_port())
            if _wait_ready(server):
                break
        yield server
    finally:
        if server is not None:
            _stop_lab(server)


# The show() cell's output, once the widget renderer has settled.
_SHOW_OUTPUT_JS = _in_panel("""
  if (!panel) return null;
  const cell = panel.content.widgets.find((c) => c.model.type === 'code'
                                               && c.model.sharedModel.getSource().includes('viz.show('));
  if (!cell) return null;
  const text = cell.node.querySelector('.jp-OutputArea').innerText;
  const svg = cell.node.querySelector('.jp-OutputArea .at-widget svg.at-graph');
  if (!svg && !text.includes('Error displaying widget')) return null;
  return {text, diagram: !!svg && svg.getBoundingClientRect().height > 50};
""")


def _menu(page, menu, item):
    page.locator(".lm-MenuBar-itemLabel").get_by_text(menu, exact=True).click()
    page.locator(".lm-Menu-item:visible .lm-Menu-itemLabel").get_by_text(item, exact=True).click()


def _run_save_and_reopen(page, lab, name):
    """Run All, Ctrl+S, the kernel goes away, the lesson is opened again: its show() output."""
    path = lab.root / name
    open_notebook(page, lab, name, workspace=f"run-{path.stem}")
    run_all_cells(page, name)
    saved_at = path.stat().st_mtime_ns
    page.locator(".jp-Notebook").first.click()
    page.keyboard.press("Control+s")
    deadline = time.monotonic() + 30
    while path.stat().st_mtime_ns == saved_at and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert path.stat().st_mtime_ns != saved_at, "Ctrl+S did not save the lesson"
    page.evaluate(_in_panel("return panel.sessionContext.shutdown();"), name)   # as when the server stops
    open_notebook(page, lab, name, workspace=f"reopen-{path.stem}")
    handle = page.wait_for_function(_SHOW_OUTPUT_JS, arg=name, timeout=30_000, polling=200)
    return json.loads(path.read_text(encoding="utf-8")), handle.json_value()


def test_a_saved_lesson_reopens_with_its_diagram_once_widget_state_is_saved(plain_lab, page):
    shutil.copyfile(LESSON, plain_lab.root / "default.ipynb")
    saved, shown = _run_save_and_reopen(page, plain_lab, "default.ipynb")
    assert WIDGET_STATE not in saved["metadata"].get("widgets", {})
    assert "Error displaying widget: model not found" in shown["text"] and not shown["diagram"], shown

    page.goto(f"{plain_lab.url}/lab/workspaces/settings")
    _menu(page, "Settings", "Save Widget State Automatically")
    setting = plain_lab.root.parent / "settings" / "@jupyter-widgets" / "jupyterlab-manager" / "plugin.jupyterlab-settings"
    deadline = time.monotonic() + 10
    while not (setting.exists() and '"saveState": true' in setting.read_text()) and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert '"saveState": true' in setting.read_text(), "the menu item did not switch the setting on"
    shutil.copyfile(LESSON, plain_lab.root / "with-state.ipynb")
    saved, shown = _run_save_and_reopen(page, plain_lab, "with-state.ipynb")
    assert saved["metadata"]["widgets"][WIDGET_STATE]["state"], "no widget state was saved"
    assert shown["diagram"] and "Error displaying widget" not in shown["text"], shown
    assert "kernel is gone" in shown["text"]
