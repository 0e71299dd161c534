"""End-to-end: a lesson in a real JupyterLab, run by headless Chromium (issue 5).

For lesson 2 in English and in Chinese: open it, run all cells from the Run
menu, then check, in the page, that

* no cell produced an error output;
* the graph widget (``autograd_teach.viz.show``) drew its SVG, with the nodes
  ``DotBackward0``, ``MulBackward0`` and ``AccumulateGrad``;
* moving the step slider moves the highlight (``.at-current``) from node to
  node and makes gradient labels appear on the edges, and Play runs it to the
  end;
* picking a node in the inspector's dropdown shows that node's tensor;
* the browser console has no errors: none at all, uncaught exceptions
  included (stricter than "none from the widget"; each is reported with the
  script it came from).

It also screenshots the widget mid-way through the backward pass
(``test-artifacts/widget_step-<lang>.png``); with ``UPDATE_SCREENSHOTS=1`` the
English one, once its test passed, replaces ``assets/widget_step.png`` (the
README shows it).  On failure, a page screenshot, the console log and the
server log go to ``test-artifacts/`` (see conftest.py).

The DOM hooks used are the ones documented in autograd_teach/viz/widget.py.
"""
from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

LESSONS = {
    "en": "en/02_backward_and_gradients.ipynb",
    "zh": "zh/02_backward_and_gradients.ipynb",
}
EXPECTED_NODES = {"DotBackward0", "MulBackward0", "AccumulateGrad"}
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
SCREENSHOT = ROOT / "assets" / "widget_step.png"

# ---------------------------------------------------------------- JupyterLab

def _in_panel(body):
    """A page function of ``path`` whose ``body`` sees ``panel``: the notebook
    panel showing ``path``, or null (window.jupyterapp: --expose-app-in-browser)."""
    return """(path) => {
  let panel = null;
  const app = window.jupyterapp;
  if (app) {
    for (const w of app.shell.widgets('main')) {
      if (w.context && w.context.path === path && w.content && w.content.model) panel = w;
    }
  }
""" + body + "\n}"


_KERNEL_READY_JS = _in_panel("""
  if (!panel || !panel.sessionContext.isReady) return false;
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  return !!kernel && kernel.connectionStatus === 'connected' && kernel.status === 'idle';
""")

# True once "Run All Cells" is over: the kernel is idle, no cell is running
# or queued, and every non-empty code cell ran, unless one failed (Run All
# stops at the first error).
_RUN_DONE_JS = _in_panel("""
  if (!panel) return false;
  const session = panel.sessionContext.session;
  if (!session || !session.kernel || session.kernel.status !== 'idle') return false;
  const cells = panel.content.model.cells;
  let failed = false, notRun = false;
  for (let i = 0; i < cells.length; i++) {
    const c = cells.get(i);
    if (c.type !== 'code') continue;
    if (c.executionState === 'running') return false;
    if (c.outputs.toJSON().some(o => o.output_type === 'error')) failed = true;
    if (c.sharedModel.getSource().trim() && c.executionCount === null) notRun = true;
  }
  return failed || !notRun;
""")

_ERRORS_JS = _in_panel("""
  const cells = panel.content.model.cells;
  const found = [];
  for (let i = 0; i < cells.length; i++) {
    const c = cells.get(i);
    if (c.type !== 'code') continue;
    for (const o of c.outputs.toJSON()) {
      if (o.output_type === 'error') {
        found.push({cell: i, ename: o.ename, evalue: o.evalue,
                    source: c.sharedModel.getSource().split('\\n').slice(0, 3).join('\\n'),
                    traceback: (o.traceback || []).join('\\n').replace(/\\x1b\\[[0-9;]*m/g, '')});
      }
    }
  }
  return found;
""")

_NOT_RUN_JS = _in_panel("""
  const cells = panel.content.model.cells;
  const found = [];
  for (let i = 0; i < cells.length; i++) {
    const c = cells.get(i);
    if (c.type === 'code' && c.sharedModel.getSource().trim() && c.executionCount === null) found.push(i);
  }
  return found;
""")


def open_notebook(page, lab, path, workspace):
    # A workspace of its own, so no notebook of an earlier test is reopened.
    page.goto(f"{lab.url}/lab/workspaces/{workspace}/tree/{path}")
    # The toolbar's indicator says "idle" before the kernel even exists (and
    # Run All then asks which kernel to start): wait for a connected, idle kernel.
    page.wait_for_function(_KERNEL_READY_JS, arg=path, timeout=60_000, polling=200)
    panel_id = page.evaluate(_in_panel("  return panel.id;"), path)
    page.wait_for_selector(f'#{panel_id} .jp-Notebook-ExecutionIndicator[data-status="idle"]',
                           timeout=10_000)


def run_all_cells(page, path, timeout=90_000):
    """Run > Run All Cells, as a learner would; wait until it is over."""
    page.locator(".lm-MenuBar-itemLabel").get_by_text("Run", exact=True).click()
    page.locator(".lm-Menu-item:visible .lm-Menu-itemLabel").get_by_text(
        "Run All Cells", exact=True).click()
    page.wait_for_function(_RUN_DONE_JS, arg=path, timeout=timeout, polling=200)


def assert_no_error_outputs(page, path):
    errors = page.evaluate(_ERRORS_JS, path)
    assert not errors, "cells produced error outputs:\n" + "\n\n".join(
        f"cell {e['cell']}: {e['ename']}: {e['evalue']}\n--- source:\n{e['source']}\n"
        f"--- traceback:\n{e['traceback']}" for e in errors)
    assert page.evaluate(_NOT_RUN_JS, path) == [], "some code cells did not run"


# ---------------------------------------------------------------- the widget

# State of one .at-widget, read from the DOM the way a learner sees it.
_STATE_JS = """
(w) => {
  const shown = (el) => {
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none';
  };
  const title = (g) => (g.querySelector(':scope > title') || {}).textContent || '';
  const svg = w.querySelector('.at-diagram svg.at-graph');
  const edgeGrads = svg ? [...svg.querySelectorAll('g.edge text.at-grad')] : [];
  const status = w.querySelector('.at-status');
  const inspector = w.querySelector('div.at-inspector');
  return {
    nodes: svg ? [...svg.querySelectorAll('g.node')].map(title) : [],
    current: svg ? [...svg.querySelectorAll('g.node.at-current')].map(title) : [],
    currentIds: svg ? [...svg.querySelectorAll('g.node.at-current')].map(g => g.id) : [],
    edgeGrads: edgeGrads.length,
    edgeGradsShown: edgeGrads.filter(shown).length,
    status: status ? status.textContent.trim() : '',
    inspectorNode: inspector ? (inspector.dataset.node || '') : null,
  };
}
"""

# The status line in either language: "step 2 of 5: MulBackward0 ran" / "第 2 步，共 5 步：MulBackward0 已运行"
_STATUS_RE = re.compile(r"(?:step (\d+) of (\d+)|第 (\d+) 步，共 (\d+) 步)")
ROW = {"shape": ("shape", "形状"), "dtype": ("dtype",), "value": ("value", "数值")}


def status_numbers(status):
    """(k, n) from the status line, or None."""
    m = _STATUS_RE.search(status)
    if not m:
        return None
    k, n = (m.group(1), m.group(2)) if m.group(1) is not None else (m.group(3), m.group(4))
    return int(k), int(n)


def row(rows, key):
    """The inspector row ``key`` (shape, dtype, value), whatever the language."""
    return next((rows[h] for h in ROW.get(key, (key,)) if h in rows), None)


def widget_state(widget):
    return widget.evaluate(_STATE_JS)


def eventually(page, read, ok, what, timeout=15_000):
    """Poll ``read()`` until ``ok(value)``; the widget's parts update one
    message at a time, so a check right after an action can see half of it."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        value = read()
        if ok(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; last seen: {value}")
        page.wait_for_timeout(100)


def wait_for_step(page, widget, k, timeout=15_000):
    """Wait until the widget shows step ``k``: the status line says so and the
    highlighted node is the one it says ran."""
    def settled(state):
        m = status_numbers(state["status"])
        if not m or m[0] != k:
            return False
        if k == 0:
            return not state["current"]
        return any(f"{name} ran" in state["status"] or f"{name} 已运行" in state["status"]
                   for name in state["current"])
    return eventually(page, lambda: widget_state(widget), settled, f"step {k}", timeout)


def find_widget(page):
    """The graph widget of ``y = 2 * torch.dot(x, x)``: it has a DotBackward0 node."""
    title = page.locator("svg.at-graph g.node > title").filter(
        has_text=re.compile(r"^DotBackward0$"))
    widget = page.locator(".at-widget").filter(has=title).first
    widget.locator("svg.at-graph").wait_for(state="visible", timeout=30_000)
    widget.scroll_into_view_if_needed()
    return widget


def step_right(page, widget):
    """Move the step slider one notch, with the keyboard, as a learner could."""
    handle = widget.locator("input.at-step")
    handle.focus()
    page.keyboard.press("ArrowRight")


def step_left(page, widget):
    handle = widget.locator("input.at-step")
    handle.focus()
    page.keyboard.press("ArrowLeft")


def assert_in_view(page, locator, what, within=None):
    """``locator``'s box lies inside the window (and inside ``within``'s box, when given)."""
    box = locator.bounding_box()
    assert box is not None, f"{what}: not displayed"
    frames = [{"x": 0, "y": 0, "width": page.viewport_size["width"], "height": page.viewport_size["height"]}]
    if within is not None:
        frames.append(within.bounding_box())
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    for f in frames:
        assert f["x"] <= cx <= f["x"] + f["width"] and f["y"] <= cy <= f["y"] + f["height"], (
            f"{what} is out of view: its centre ({cx:.0f}, {cy:.0f}) is outside {f}")


def pick_node(widget, node_id):
    """Choose ``node_id`` in the inspector's dropdown (its options read "name (id)")."""
    select = widget.locator("select.at-picker")
    labels = select.locator("option").all_text_contents()
    matches = [i for i, text in enumerate(labels) if text.replace("\xa0", " ").endswith(f"({node_id})")]
    assert matches, f"no option for {node_id} in the node picker: {labels}"
    select.select_option(index=matches[0])


# ---------------------------------------------------------------- the test

@pytest.mark.parametrize("lang", sorted(LESSONS))
def test_lesson_runs_and_widget_steps(lab, page, console, lang):
    path = LESSONS[lang]
    if not (lab.root / path).exists():
        pytest.fail(f"lesson {path} is missing from notebooks/", pytrace=False)
    started = time.monotonic()

    open_notebook(page, lab, path, workspace=f"e2e-{lang}")
    run_all_cells(page, path)
    assert_no_error_outputs(page, path)

    widget = find_widget(page)
    state = eventually(page, lambda: widget_state(widget),
                       lambda s: EXPECTED_NODES <= set(s["nodes"]) and _STATUS_RE.search(s["status"]),
                       f"the nodes {sorted(EXPECTED_NODES)} and the step status line")
    n_steps = status_numbers(state["status"])[1]
    assert n_steps >= 3, f"expected at least 3 backward steps, the status says {state['status']!r}"

    # Step 0: nothing ran yet, no gradient on any edge.
    state = wait_for_step(page, widget, 0)
    assert state["edgeGrads"] > 0, "the diagram has no gradient labels on its edges"
    assert state["edgeGradsShown"] == 0, f"gradients shown before backward started: {state}"

    # The slider, one notch at a time, to mid-way: a new node is highlighted at
    # every step and gradients appear on more edges.
    mid = (n_steps + 1) // 2
    seen = [state]
    for k in range(1, mid + 1):
        step_right(page, widget)
        state = wait_for_step(page, widget, k)
        before = seen[-1]
        assert state["current"] and state["currentIds"] != before["currentIds"], (
            f"step {k}: the highlighted node did not change: {before['current']} -> {state['current']}")
        assert state["edgeGradsShown"] > before["edgeGradsShown"], (
            f"step {k}: no new gradient label on the edges ({before['edgeGradsShown']} -> "
            f"{state['edgeGradsShown']})")
        seen.append(state)
    ran = [s["status"] for s in seen[1:]]

    # The inspector: pick the leaf tensor; it shows the tensor's value, the same
    # text the diagram prints in the leaf's node.
    leaf = widget.locator("svg.at-graph g.node.at-leaf").first
    leaf_id = leaf.get_attribute("id")
    leaf_name = leaf.locator(":scope > title").text_content()
    leaf_value = " ".join(leaf.locator("text.at-value").first.text_content().split())
    pick_node(widget, leaf_id)
    inspector = widget.locator(f'div.at-inspector[data-node="{leaf_id}"]')
    inspector.wait_for(timeout=15_000)
    assert inspector.locator("b").first.text_content() == leaf_name
    rows = eventually(page, lambda: _inspector_rows(inspector),
                      lambda r: all(row(r, k) is not None for k in ROW), "the leaf's rows in the inspector")
    assert " ".join(row(rows, "value").split()) == leaf_value, (row(rows, "value"), leaf_value)
    assert "tensor(" in row(rows, "value")
    grad_row = rows.get(".grad", "")
    assert "not yet" in grad_row or "还没有" in grad_row, f"leaf .grad before its step: {rows}"
    assert_in_view(page, inspector, "the inspector, once a node is picked")

    # Mid-way through backward, the current node highlighted: the README's picture.
    wait_for_step(page, widget, mid)
    # At 1280x720 the graph fits the notebook's width, and the node that just ran is in view.
    fit = widget.evaluate("""(w) => {
      const pane = w.querySelector('.at-pane'), svg = pane.querySelector('svg.at-graph');
      return [svg.getBoundingClientRect().width, pane.clientWidth];
    }""")
    assert fit[0] <= fit[1] + 1, f"the graph ({fit[0]} px) is wider than its pane ({fit[1]} px)"
    current = widget.locator("svg.at-graph g.node.at-current").first
    assert_in_view(page, current, "the node that just ran", within=widget.locator(".at-pane"))
    # Zoom in: the graph grows past the pane, and stepping keeps the current node in view.
    widget.locator(".at-zoom-in").click()
    widget.locator(".at-zoom-in").click()
    eventually(page, lambda: widget.evaluate(
        "(w) => w.querySelector('.at-diagram').dataset.scale"), lambda s: s and float(s) > 1.2, "zoomed in")
    step_right(page, widget)
    wait_for_step(page, widget, mid + 1)
    page.wait_for_timeout(300)
    assert_in_view(page, widget.locator("svg.at-graph g.node.at-current").first,
                   "the node that just ran, zoomed in", within=widget.locator(".at-pane"))
    widget.locator(".at-fit").click()
    step_left(page, widget)
    wait_for_step(page, widget, mid)
    # Same picture on every run: no hover, and the widget at the top of the
    # notebook's scroll area (its subpixel offset then depends on layout only).
    page.mouse.move(0, 0)
    widget.evaluate("(w) => w.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(200)
    # The inspector on DotBackward0, which has run: its chain rule with the numbers put in.
    dot_id = widget.locator("svg.at-graph g.node").filter(
        has=page.locator(":scope > title", has_text=re.compile(r"^DotBackward0$"))).first.get_attribute("id")
    pick_node(widget, dot_id)
    chain = widget.locator(f'div.at-inspector[data-node="{dot_id}"] pre.at-rule').first
    chain.wait_for(timeout=15_000)
    assert "grad_self = " in chain.text_content()
    page.wait_for_timeout(200)
    shot = ARTIFACTS / f"widget_step-{lang}.png"
    ARTIFACTS.mkdir(exist_ok=True)
    widget.screenshot(path=str(shot), animations="disabled", caret="hide")
    pick_node(widget, leaf_id)
    inspector.wait_for(timeout=15_000)

    # Play runs the rest: the highlight moves on to the last node and every
    # edge gets its gradient; the leaf's .grad appears in the inspector.
    widget.locator(".at-play").click()
    state = wait_for_step(page, widget, n_steps, timeout=(n_steps - mid + 2) * 3_000)
    assert "AccumulateGrad" in state["current"], f"last step highlights {state['current']}"
    assert state["currentIds"] != seen[-1]["currentIds"]
    assert state["edgeGradsShown"] == state["edgeGrads"], f"after Play: {state}"
    eventually(page, lambda: _inspector_rows(inspector),
               lambda r: r.get(".grad", "").startswith("tensor("), "the leaf's .grad in the inspector")

    errors = console.errors()
    assert not errors, "errors in the browser console:\n" + "\n".join(
        f"[{kind}] {text} ({url})" for _t, kind, text, url in errors)

    # A widget whose kernel is gone says so, says what to do, and its controls send nothing.
    page.evaluate(_in_panel("  return panel.sessionContext.session.kernel.restart();"), path)
    note = widget.locator(".at-stale-note")
    note.wait_for(state="visible", timeout=30_000)
    assert "kernel" in note.text_content() or "内核" in note.text_content()
    assert "Run \u2192 Run All Cells" in note.text_content()
    for control in ("input.at-step", ".at-play", ".at-next", ".at-zoom-in", "select.at-picker", ".at-toggle-grads"):
        assert widget.locator(control).is_disabled(), f"{control} is still enabled in a stale widget"
    before = widget_state(widget)["status"]
    widget.locator("input.at-step").dispatch_event("input")
    page.wait_for_timeout(300)
    assert widget_state(widget)["status"] == before
    errors = console.errors()
    assert not errors, "errors in the browser console once the kernel was gone:\n" + "\n".join(
        f"[{kind}] {text} ({url})" for _t, kind, text, url in errors)

    if lang == "en" and os.environ.get("UPDATE_SCREENSHOTS") == "1":
        SCREENSHOT.parent.mkdir(exist_ok=True)
        shutil.copyfile(shot, SCREENSHOT)
    print(f"{path}: {time.monotonic() - started:.1f} s; steps ran: {ran}")


def _inspector_rows(inspector):
    """Heading -> cell text of the inspector's table."""
    return inspector.evaluate(
        "(d) => Object.fromEntries([...d.querySelectorAll('tr')].map("
        "tr => [tr.querySelector('th').textContent, tr.querySelector('td').textContent]))")
