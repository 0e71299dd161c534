"""End-to-end: the step-through widget on a real PyTorch backward (issue 11).

A notebook written by the test into the throwaway JupyterLab root imports
real ``torch`` (installed in .venv by ``make test``), builds ``nn.Linear`` +
``MSELoss``, records ``loss.backward()`` through ``viz.torch_record`` and
shows the widget.  Headless Chromium runs it from the Run menu and checks
that the widget steps through every node in the order PyTorch's engine ran
them (the same code, run in this process, says which), with the gradient
labels appearing edge by edge, and that the console stays clean.

It screenshots the widget mid-way (``test-artifacts/widget_torch_step.png``);
with ``UPDATE_SCREENSHOTS=1`` that replaces ``assets/widget_torch_step.png``,
the picture in the README's section for PyTorch users.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from test_lesson_e2e import (_STATUS_RE, assert_no_error_outputs, eventually, open_notebook,
                             run_all_cells, step_right, wait_for_step, widget_state)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from viz_torch_helpers import import_torch  # noqa: E402

torch = import_torch()

ARTIFACTS = ROOT / "test-artifacts"
SCREENSHOT = ROOT / "assets" / "widget_torch_step.png"
NOTEBOOK = "torch_widget.ipynb"

MODEL = """\
import torch
from torch import nn
from autograd_teach import viz

torch.manual_seed(0)
model = nn.Linear(3, 1)
x, y = torch.randn(4, 3), torch.randn(4, 1)
loss = nn.MSELoss()(model(x), y)
"""

# As a teacher writes it: record PyTorch's own backward, then step through it.
RECORD = """\
with viz.record():
    loss.backward()
"""

SHOW = "viz.show(loss)\n"


def write_notebook(path):
    cells = [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
              "source": src} for src in (MODEL, RECORD, SHOW)]
    nb = {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}}
    path.write_text(json.dumps(nb, indent=1), encoding="utf-8")


def pytorch_order():
    """The nodes PyTorch runs for the notebook's code, watched in this process."""
    from viz_torch_helpers import Log, Watching
    log = Log()
    scope = {}
    exec(MODEL, scope)
    handle = Watching(log.begin)
    try:
        scope["loss"].backward()
    finally:
        handle.remove()
    return log.names()


def grads_shown(widget):
    """How many gradient texts (on edges and in nodes) the learner can see."""
    return widget.evaluate("""(w) => [...w.querySelectorAll('.at-diagram svg.at-graph text.at-grad')]
        .filter(el => getComputedStyle(el).visibility !== 'hidden').length""")


def test_widget_steps_through_a_real_pytorch_backward(lab, page, console):
    expected = pytorch_order()
    assert expected == ["MseLossBackward0", "AddmmBackward0", "AccumulateGrad", "TBackward0",
                        "AccumulateGrad"]
    write_notebook(lab.root / NOTEBOOK)
    open_notebook(page, lab, NOTEBOOK, workspace="e2e-torch")
    run_all_cells(page, NOTEBOOK)
    assert_no_error_outputs(page, NOTEBOOK)

    title = page.locator("svg.at-graph g.node > title").filter(has_text="MseLossBackward0")
    widget = page.locator(".at-widget").filter(has=title).first
    widget.locator("svg.at-graph").wait_for(state="visible", timeout=30_000)
    widget.scroll_into_view_if_needed()
    state = eventually(page, lambda: widget_state(widget), lambda s: _STATUS_RE.search(s["status"]),
                       "the step status line")
    assert {"model.weight", "model.bias", "AddmmBackward0", "TBackward0"} <= set(state["nodes"])
    n_steps = int(_STATUS_RE.search(state["status"]).group(2))
    assert n_steps == len(expected)

    state = wait_for_step(page, widget, 0)
    assert state["edgeGrads"] > 0 and state["edgeGradsShown"] == 0

    # Every step, one notch at a time: the status names PyTorch's node, in
    # PyTorch's order, the highlight moves and more gradients show.
    state["gradsShown"] = grads_shown(widget)
    seen = [state]
    shot = ARTIFACTS / "widget_torch_step.png"
    for k in range(1, n_steps + 1):
        step_right(page, widget)
        state = wait_for_step(page, widget, k)
        assert f"{expected[k - 1]} ran" in state["status"], (k, state["status"])
        assert state["currentIds"] != seen[-1]["currentIds"]
        # A new gradient shows: on an edge, or (AccumulateGrad) as the leaf's .grad in its node.
        state["gradsShown"] = grads_shown(widget)
        assert state["gradsShown"] > seen[-1]["gradsShown"], k
        assert state["edgeGradsShown"] >= seen[-1]["edgeGradsShown"]
        seen.append(state)
        if k == 3:     # mid-way: the picture for the README
            page.mouse.move(0, 0)
            widget.evaluate("(w) => w.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(200)
            ARTIFACTS.mkdir(exist_ok=True)
            widget.screenshot(path=str(shot), animations="disabled", caret="hide")
    assert state["edgeGradsShown"] == state["edgeGrads"]

    errors = console.errors()
    assert not errors, "errors in the browser console:\n" + "\n".join(
        f"[{kind}] {text} ({url})" for _t, kind, text, url in errors)
    if os.environ.get("UPDATE_SCREENSHOTS") == "1":
        shutil.copyfile(shot, SCREENSHOT)
