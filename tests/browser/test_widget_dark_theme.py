"""The widget in JupyterLab's dark theme: its words stay readable.

JupyterLab Dark paints the output area almost black; the widget's text is
dark grey (replay.css), so the status line ("step 2 of 5: MulBackward0 ran"),
the slider's and the picker's labels must sit on a light background of the
widget's own, or they are dark on dark."""
from __future__ import annotations

import json

import pytest

from test_lesson_e2e import open_notebook, run_all_cells, assert_no_error_outputs

pytestmark = pytest.mark.browser

NOTEBOOK = "dark_widget.ipynb"
CODE = """\
import autograd_teach as torch
from autograd_teach import viz
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
with viz.record():
    y.backward()
viz.show(y)
"""

# WCAG's contrast ratio of two colours, each the first non-transparent
# background up the tree (or the text's colour).
CONTRAST_JS = """(el) => {
  const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 4).map(Number);
  const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
                               return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  let bg = null;
  for (let e = el; e && !bg; e = e.parentElement) {
    const c = rgb(getComputedStyle(e).backgroundColor);
    if (c.length < 4 || c[3] > 0) bg = c;
  }
  const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(bg || [255, 255, 255])];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


THEME_JS = """async (theme) => {
  const xsrf = (document.cookie.match(/_xsrf=([^;]+)/) || [])[1] || "";
  const r = await fetch("/lab/api/settings/@jupyterlab/apputils-extension:themes", {method: "PUT",
      headers: {"Content-Type": "application/json", "X-XSRFToken": decodeURIComponent(xsrf)},
      body: JSON.stringify({raw: JSON.stringify({theme})})});
  return r.status;
}"""


def set_theme(page, theme):
    assert page.evaluate(THEME_JS, theme) in (200, 204)


def test_widget_words_are_readable_in_the_dark_theme(lab, page):
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": CODE}],
          "nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}}
    (lab.root / NOTEBOOK).write_text(json.dumps(nb), encoding="utf-8")
    page.goto(f"{lab.url}/lab/workspaces/dark-theme")
    set_theme(page, "JupyterLab Dark")
    try:
        open_notebook(page, lab, NOTEBOOK, workspace="dark-theme")
        page.wait_for_function("document.body.dataset.jpThemeLight === 'false'", timeout=30_000)
        run_all_cells(page, NOTEBOOK)
        assert_no_error_outputs(page, NOTEBOOK)
        widget = page.locator(".jp-OutputArea .at-widget").first
        widget.locator(".at-status").wait_for(state="visible", timeout=30_000)
        for part in (".at-status", ".at-step-box", ".at-picker-box"):
            ratio = widget.locator(part).first.evaluate(CONTRAST_JS)
            assert ratio >= 4.5, f"{part}: contrast {ratio:.2f} against its background"
    finally:
        set_theme(page, "JupyterLab Light")
