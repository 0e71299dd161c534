"""A lesson's first screen in JupyterLab at 1280x720.

* A stored lesson, opened as a learner opens it (untrusted, nothing run):
  every diagram (each draw() and show() output) is a picture, in the
  lesson's language; no text dump, no widget saying its kernel is gone.
* Lessons 2, 4 and 7 and a 30-step loop sharing one weight, run: every
  replay opens with its smallest text at least 10 px, the output (step 0)
  in view, its caption and legend without a sideways scrollbar, and the
  node that just ran in view after each step.
"""
from __future__ import annotations

import base64
import json
import shutil

import pytest

from test_lesson_e2e import (ROOT, assert_no_error_outputs, eventually, open_notebook, run_all_cells,
                             wait_for_step, widget_state)

pytestmark = pytest.mark.browser

STORED = "02_backward_and_gradients"
# words of lesson 2's diagrams (captions, legend) in each language, never in the other
WORDS = {"en": ("Gradients from one backward pass", "leaf tensor"), "zh": ("一次反向传播的梯度", "叶子张量")}

_PICTURES_JS = """() => {
  const out = [];
  for (const cell of document.querySelectorAll('.jp-Notebook .jp-CodeCell')) {
    const source = cell.querySelector('.jp-InputArea-editor').textContent;
    if (!/viz\\.(draw|show)\\(/.test(source)) continue;
    const imgs = [...cell.querySelectorAll('.jp-OutputArea-output img')];
    out.push({source: source.trim().slice(0, 60),
              imgs: imgs.map(i => ({src: i.getAttribute('src').slice(0, 40), loaded: i.complete && i.naturalWidth > 0,
                                    svg: i.getAttribute('src').startsWith('data:image/svg+xml;base64,')
                                         ? i.getAttribute('src').split(',')[1] : ''})),
              text: cell.querySelector('.jp-OutputArea') ? cell.querySelector('.jp-OutputArea').innerText : ''});
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_stored_untrusted_lesson_shows_every_diagram_as_a_picture(lab, page, console, lang):
    path = f"stored-{lang}-{STORED}.ipynb"
    shutil.copyfile(ROOT / "notebooks" / lang / f"{STORED}.ipynb", lab.root / path)   # with its outputs
    open_notebook(page, lab, path, workspace=f"stored-{lang}")
    trusted = page.evaluate("""(path) => { for (const w of window.jupyterapp.shell.widgets('main'))
        if (w.context && w.context.path === path) return w.content.model.cells.get(0).trusted; return null; }""", path)
    assert trusted is False, "the stored lesson should open untrusted"
    cells = eventually(page, lambda: page.evaluate(_PICTURES_JS),
                       lambda cs: len(cs) >= 3 and all(c["imgs"] and all(i["loaded"] for i in c["imgs"]) for c in cs),
                       "every draw()/show() cell to show a loaded picture")
    other = "zh" if lang == "en" else "en"
    for c in cells:
        assert len(c["imgs"]) == 1, c
        svg = base64.b64decode(c["imgs"][0]["svg"]).decode("utf-8")
        assert svg.startswith("<svg") and 'class="at-graph"' in svg, c["source"]
        assert any(w in svg for w in WORDS[lang]), f"{c['source']}: the picture is not in {lang}"
        assert not any(w in svg for w in WORDS[other]), f"{c['source']}: the picture speaks {other}"
        for junk in ("autograd graph:", "engine order", "Loading widget", "Error displaying widget",
                     "kernel", "内核"):
            assert junk not in c["text"], f"{c['source']}: the output shows {junk!r}:\n{c['text'][:300]}"


_IMG_TEXT_PX_JS = """(img) => {
  const src = img.getAttribute('src');
  const text = new TextDecoder().decode(Uint8Array.from(atob(src.split(',')[1]), c => c.charCodeAt(0)));
  const svg = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
  const sizes = [...svg.querySelectorAll('text')].map(t => parseFloat(t.getAttribute('font-size')));
  const out = img.closest('.jp-OutputArea-output');
  return {px: Math.min(...sizes) * img.getBoundingClientRect().width / svg.viewBox.baseVal.width,
          wider: img.getBoundingClientRect().width > out.clientWidth + 1,
          scrolls: out.scrollWidth > out.clientWidth && ['auto', 'scroll'].includes(getComputedStyle(out).overflowX)};
}"""


def _stored_picture_notebook(path, lang):
    """A notebook holding one stored draw() output: lesson 12's small MLP, wider than the notebook."""
    import autograd_teach as torch
    from autograd_teach import viz
    torch.manual_seed(0)
    x = torch.linspace(-1, 1, 9).reshape(9, 1)
    mlp = torch.nn.Sequential(torch.nn.Linear(1, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    loss = torch.nn.MSELoss()(mlp(x), x * x)
    with viz.record() as rec:
        loss.backward()
    names = {"W1": mlp[0].weight, "b1": mlp[0].bias, "W2": mlp[2].weight, "b2": mlp[2].bias}
    bundle = viz.draw(loss, names=names, name="loss", recording=rec, lang=lang)._repr_mimebundle_()
    output = {"output_type": "execute_result", "execution_count": 1, "metadata": {}, "data": bundle}
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "execution_count": 1, "outputs": [output],
                     "source": "viz.draw(loss, names=names)"}],
          "nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}}
    path.write_text(json.dumps(nb, indent=1), encoding="utf-8")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_stored_wide_picture_keeps_its_text_readable(lab, page, console, lang):
    # Shrunk to the notebook's width, lesson 12's Chinese MLP had 7.8 px text: it now
    # shrinks no further than 10 px and the output scrolls sideways for the rest.
    path = f"wide-picture-{lang}.ipynb"
    _stored_picture_notebook(lab.root / path, lang)
    open_notebook(page, lab, path, workspace=f"wide-picture-{lang}")
    img = page.locator(".jp-OutputArea-output img").first
    eventually(page, lambda: img.evaluate("(i) => i.complete && i.naturalWidth"), bool, "the picture to load")
    seen = img.evaluate(_IMG_TEXT_PX_JS)
    assert seen["px"] >= 10 - 1e-6, f"the stored picture's smallest text shows at {seen['px']:.1f} px"
    assert seen["scrolls"] or not seen["wider"], f"the picture is wider than its output and cannot be scrolled: {seen}"


LOOP = """\
import autograd_teach as torch
from autograd_teach import viz
viz.autorecord(True)
torch.manual_seed(0)
w = torch.randn(3, 3, requires_grad=True)     # one weight, shared by all 30 steps
x = torch.randn(30, 3)
h = torch.zeros(3)
for t in range(30):
    h = torch.tanh(w @ h + x[t])
loss = h.sum()
loss.backward()
viz.show(loss)
"""

_TEXT_PX_JS = """(w) => {
  const svg = w.querySelector('.at-pane svg.at-graph');
  const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;   // px per SVG unit
  const sizes = [...svg.querySelectorAll('text')].map(t => parseFloat(t.getAttribute('font-size')) * k);
  return Math.min(...sizes);
}"""

_IN_PANE_JS = """(w) => {
  const pane = w.querySelector('.at-pane').getBoundingClientRect();
  const g = w.querySelector('.at-pane g.node.at-current') || w.querySelector('.at-pane g.node.at-output');
  if (!g) return 'no node to look at';
  const b = g.getBoundingClientRect(), cx = (b.left + b.right) / 2, cy = (b.top + b.bottom) / 2;
  const inside = pane.left <= cx && cx <= pane.right && pane.top <= cy && cy <= pane.bottom;
  return inside ? '' : `${g.querySelector('title').textContent} at (${cx|0}, ${cy|0}) is outside the pane ` +
    `(${pane.left|0}..${pane.right|0}, ${pane.top|0}..${pane.bottom|0})`;
}"""


def _write_loop(path):
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": LOOP}],
          "nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}}
    path.write_text(json.dumps(nb, indent=1), encoding="utf-8")


def check_opening(page, widget, what):
    widget.scroll_into_view_if_needed()
    widget.locator(".at-pane svg.at-graph").wait_for(state="visible", timeout=30_000)
    page.wait_for_timeout(300)
    px = widget.evaluate(_TEXT_PX_JS)
    assert px >= 10 - 1e-6, f"{what}: the smallest text opens at {px:.1f} px"
    assert widget.evaluate(_IN_PANE_JS) == "", f"{what} at step 0: " + widget.evaluate(_IN_PANE_JS)
    # The lessons' captions and legends are short: under a graph wider than the
    # pane they still fit, with no scrollbar onto empty space.
    sw, cw = widget.evaluate("(w) => { const c = w.querySelector('.at-caption'); return [c.scrollWidth, c.clientWidth]; }")
    assert sw <= cw + 1, f"{what}: the caption and legend scroll sideways ({sw} px in {cw} px)"
    n = int(widget.locator("input.at-step").get_attribute("max"))
    width = widget.locator("input.at-step").bounding_box()["width"]
    assert width >= 200 and width / max(n, 1) >= 2, f"{what}: the slider is {width:.0f} px for {n} steps"
    for k in range(1, min(n, 4) + 1):
        widget.locator(".at-next").click()
        wait_for_step(page, widget, k)
        page.wait_for_timeout(100)
        problem = widget.evaluate(_IN_PANE_JS)
        assert problem == "", f"{what} at step {k}: {problem}"
    if n > 8:                                   # far into the loop, by the slider
        widget.locator("input.at-step").fill(str(n - 2))
        wait_for_step(page, widget, n - 2)
        page.wait_for_timeout(100)
        assert widget.evaluate(_IN_PANE_JS) == "", f"{what} at step {n - 2}: " + widget.evaluate(_IN_PANE_JS)
    return px


# The laptop lessons of the first round, renumbered since: 2, 4 (now 05 and 06) and 7 (now 09).
@pytest.mark.parametrize("path", ["en/02_backward_and_gradients.ipynb", "en/05_leaves_and_mse.ipynb",
                                  "en/06_saved_tensors_retain_graph.ipynb", "en/09_training_loop.ipynb",
                                  "loop30.ipynb"])
def test_replays_open_readable_where_the_action_is(lab, page, console, path):
    if path == "loop30.ipynb":
        _write_loop(lab.root / path)
    open_notebook(page, lab, path, workspace="readable-" + path.replace("/", "-").replace(".", "-"))
    run_all_cells(page, path, timeout=240_000)
    assert_no_error_outputs(page, path)
    widgets = page.locator(".at-widget")
    eventually(page, lambda: widgets.count(), lambda c: c > 0, "a replay widget")
    for i in range(widgets.count()):
        widget = widgets.nth(i)
        eventually(page, lambda: widget_state(widget)["status"], bool, "the status line")
        check_opening(page, widget, f"{path} widget {i}")
    errors = console.errors()
    assert not errors, "errors in the browser console:\n" + "\n".join(
        f"[{kind}] {text} ({url})" for _t, kind, text, url in errors)
