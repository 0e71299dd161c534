"""The diagram's Chinese text stays inside its boxes as Chromium draws it (with
a CJK font such as Noto CJK, wider than the layout engine measured): the legend
swatches and the node boxes.  No JupyterLab needed: the SVG alone, in a page."""
import pytest

import autograd_teach as torch
from autograd_teach import viz

pytestmark = pytest.mark.browser

MEASURE = """() => {
  const out = [];
  for (const t of document.querySelectorAll('text')) {
    if (!/[\\u4e00-\\u9fff]/.test(t.textContent)) continue;
    const b = t.getBBox();
    let box = null;    // the smallest shape of the same group around the text's start
    for (const p of t.parentNode.querySelectorAll('polygon,path')) {
      const q = p.getBBox();
      if (q.x <= b.x + 1 && q.x + q.width >= b.x && q.y <= b.y + b.height / 2 && q.y + q.height >= b.y + b.height / 2
          && (!box || q.width * q.height < box.width * box.height)) box = q;
    }
    if (box) out.push([t.textContent.trim(), (b.x + b.width) - (box.x + box.width)]);
  }
  return out;
}"""


def _every_kind_in_chinese():
    w = torch.tensor([0.5, 0.2], requires_grad=True)
    h = torch.tensor([1.0, 2.0])
    with viz.record() as rec:
        for _ in range(6):
            h = (h * w).tanh() + torch.ones(2)
        y = h.sum()
        y.backward()
    return viz.draw(y, names={"w": w}, recording=rec, lang="zh", show_constants=True, show_saved=True,
                    max_nodes=12).svg()


def test_chinese_text_stays_inside_its_boxes(browser):
    context = browser.new_context(device_scale_factor=1)
    try:
        page = context.new_page()
        page.set_content(f"<html><body>{_every_kind_in_chinese()}</body></html>")
        measured = page.evaluate(MEASURE)
    finally:
        context.close()
    assert any(text == "不需要梯度的输入" for text, _ in measured)     # the legend was measured
    over = [(text, round(px, 1)) for text, px in measured if px > -1.0]
    assert not over, f"text past the right edge of its box (px): {over}"
