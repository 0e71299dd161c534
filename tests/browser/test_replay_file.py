"""The standalone replay (``viz.draw(y).save("replay.html")``) in a browser with
the network blocked: it opens from file://, Play steps through backward in the
engine's order, and the inspector shows the chain rule, in English and Chinese.
No JupyterLab, no kernel: the same front-end module the widget runs."""
from __future__ import annotations

import re

import pytest

import autograd_teach as torch
from autograd_teach import viz

pytestmark = pytest.mark.browser

ORDER = ["MulBackward0", "DotBackward0", "AccumulateGrad"]
STEP_RAN = {"en": re.compile(r"step (\d) of 3: (\w+) ran"), "zh": re.compile(r"第 (\d) 步，共 3 步：(\w+) 已运行")}


def offline_page(browser, requests):
    """A 1280x720 page that may load file:// (and data:/blob:) only; every other request is refused."""
    context = browser.new_context(viewport={"width": 1280, "height": 720}, device_scale_factor=1)
    allowed = re.compile(r"^(file|data|blob):|^https?://(127\.0\.0\.1|localhost)[:/]")

    def route(r):
        requests.append(r.request.url)
        return r.continue_() if allowed.match(r.request.url) else r.abort()
    context.route("**/*", route)
    page = context.new_page()
    page.on("request", lambda req: requests.append(req.url))
    return context, page


def record_dot(lang):
    x = torch.arange(4.0, requires_grad=True)
    y = 2 * torch.dot(x, x)
    with viz.record() as rec:
        y.backward()
    return viz.draw(y, names={"x": x}, recording=rec, lang=lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_standalone_replay_plays_offline_from_file(browser, tmp_path, lang):
    path = record_dot(lang).save(tmp_path / f"replay-{lang}.html")
    requests, errors = [], []
    context, page = offline_page(browser, requests)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    try:
        page.goto(f"file://{path}")
        widget = page.locator(".at-widget")
        widget.locator("svg.at-graph").wait_for(state="visible")
        assert widget.get_attribute("lang") == lang
        # Every status line Play shows, as it shows it.
        page.evaluate("""() => { window.seen = [];
          const s = document.querySelector('.at-status');
          new MutationObserver(() => window.seen.push(s.textContent)).observe(s, {childList: true, characterData: true, subtree: true});
        }""")
        widget.locator(".at-play").click()
        page.wait_for_function("() => window.seen.some(t => /3 (of|步)/.test(t) && /AccumulateGrad/.test(t))",
                               timeout=15_000)
        ran = []
        for text in page.evaluate("() => window.seen"):
            m = STEP_RAN[lang].search(text)
            if m and (not ran or ran[-1] != m.group(2)):
                ran.append(m.group(2))
        assert ran == ORDER, page.evaluate("() => window.seen")
        current = widget.locator("svg.at-graph g.node.at-current > title").all_text_contents()
        assert "AccumulateGrad" in current
        # The inspector on DotBackward0: its chain rule, with the numbers put in.
        dot_id = next(i for i, text in enumerate(widget.locator("select.at-picker option").all_text_contents())
                      if text.startswith("DotBackward0"))
        widget.locator("select.at-picker").select_option(index=dot_id)
        inspector = widget.locator("div.at-inspector")
        inspector.wait_for(state="visible")
        rule = inspector.locator("pre.at-rule").first.text_content()
        assert rule.startswith("grad_self = ") and "grad" in rule[len("grad_self = "):]
        assert ("numbers" if lang == "en" else "代入数值") in inspector.text_content()
        assert "tensor([0., 2., 4., 6.])" in inspector.text_content()    # what it sent
        # Gradients off: the diagram's gradients hide, the legend's "gradient" entry stays.
        widget.locator(".at-toggle-grads").click()
        assert widget.locator(".at-toggle-grads").get_attribute("aria-pressed") == "false"
        hidden = widget.evaluate("""(w) => [...w.querySelectorAll('.at-pane text.at-grad')]
            .every(t => getComputedStyle(t).visibility === 'hidden')""")
        legend = widget.locator(".at-caption svg.at-footer text").filter(
            has_text=re.compile("^(gradient|梯度)[\\s\u00a0]*$")).first
        assert hidden and legend.is_visible() and legend.evaluate("(t) => getComputedStyle(t).visibility") == "visible"
        # the words are the file's language
        assert widget.locator(".at-play").get_attribute("aria-label") == (
            "Play: run backward one node at a time" if lang == "en" else "播放：逐个节点运行反向传播")
    finally:
        context.close()
    assert not errors, errors
    assert requests and all(u.startswith(("file:", "data:", "blob:")) for u in requests), requests


def test_a_replay_of_a_failed_backward_says_where_it_stopped(browser, tmp_path):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    h.register_hook(lambda g: 1 / 0)
    y = (h * h).sum()
    with viz.record() as rec, pytest.raises(ZeroDivisionError):
        y.backward()
    path = viz.draw(y, recording=rec).save(tmp_path / "failed.html")
    requests, errors = [], []
    context, page = offline_page(browser, requests)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"file://{path}")
        widget = page.locator(".at-widget")
        widget.locator("svg.at-graph").wait_for(state="visible")
        status = widget.locator(".at-status")
        widget.locator(".at-next").click()
        assert status.text_content().strip() == "step 1 of 2: SumBackward0 ran"
        widget.locator(".at-next").click()
        assert status.text_content().strip() == ("step 2 of 2: MulBackward0 ran; "
                                                 "backward() failed at step 3: ZeroDivisionError: division by zero")
    finally:
        context.close()
    assert not errors, errors
