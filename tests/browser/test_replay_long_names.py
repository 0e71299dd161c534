"""A replay whose tensors have names too long for any box, with markup in
them: the names show as text (nothing runs), the diagram stays narrow, and the
inspector's heading wraps inside its column instead of running off it."""
from __future__ import annotations

import pytest

import autograd_teach as torch
from autograd_teach import viz

pytestmark = pytest.mark.browser

LONG = "encoder_" + "x" * 300 + "_weight"
MARKUP = '<img src=x onerror="window.ran=1"></script><script>window.ran=2</script> & 权重'


def test_long_and_markup_names_in_a_replay(browser, tmp_path):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    y = (a * b).sum()
    with viz.record() as rec:
        y.backward()
    path = viz.draw(y, names={LONG: a, MARKUP: b}, recording=rec).save(tmp_path / "replay.html")
    context = browser.new_context(viewport={"width": 1280, "height": 720}, device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto(f"file://{path}")
        page.wait_for_selector(".at-widget svg.at-graph")
        ids = page.evaluate("[...document.querySelectorAll('select.at-picker option')].map(o => o.value)")
        heads = []
        for node in [i for i in ids if i][-2:]:        # the two leaves
            page.select_option("select.at-picker", value=node)
            page.wait_for_selector(f'.at-inspector[data-node="{node}"]')
            side = page.evaluate("""() => { const s = document.querySelector('.at-side');
                                   return [s.scrollWidth, s.clientWidth]; }""")
            assert side[0] <= side[1] + 1, f"the inspector of {node} runs {side[0] - side[1]} px past its column"
            heads.append(page.evaluate("document.querySelector('.at-inspector b').textContent"))
        assert sorted(heads) == sorted([LONG, MARKUP])   # whole, as text
        assert page.evaluate("window.ran") is None
        assert page.evaluate("document.querySelectorAll('.at-widget img:not(.at-fallback)').length") == 0
        width = page.evaluate("document.querySelector('.at-diagram svg.at-graph').getBBox().width")
        assert width < 1400, width            # 4,000 px and more when the names were drawn whole
    finally:
        context.close()
