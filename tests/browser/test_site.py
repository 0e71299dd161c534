"""`make site` (scripts/build_site.py) in a browser with the network blocked:
the index links every lesson in both languages, each lesson page links the
other language, lesson 2's replay steps, and no request leaves the machine."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from test_replay_file import offline_page

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("build_site", ROOT / "scripts" / "build_site.py")
build_site = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_site)
STEMS = sorted(p.stem for p in (ROOT / "notebooks" / "en").glob("[0-9][0-9]_*.ipynb"))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site") / "_site"
    build_site.build(out)
    return out


def test_the_site_links_every_lesson_in_both_languages_offline(browser, site):
    requests, errors = [], []
    context, page = offline_page(browser, requests)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto((site / "index.html").as_uri())
        hrefs = page.eval_on_selector_all("a[href]", "els => els.map(a => a.href)")
        for lang in ("en", "zh"):
            for stem in STEMS:
                target = (site / lang / f"{stem}.html").as_uri()
                assert target in hrefs, f"the index does not link {lang}/{stem}"
                assert (site / lang / f"{stem}.html").exists()
        for lang, other in (("en", "zh"), ("zh", "en")):
            page.goto((site / lang / f"{STEMS[1]}.html").as_uri())
            links = page.eval_on_selector_all("nav.at-site-nav a", "els => els.map(a => a.href)")
            assert (site / other / f"{STEMS[1]}.html").as_uri() in links
            assert (site / "index.html").as_uri() in links
            assert page.locator("math").count() > 0                     # the lesson's math, drawn as MathML
            # every draw() picture loaded; lesson 2's replay steps, in the page's language
            pictures = page.locator("img.at-fallback")
            assert pictures.count() >= 2
            assert all(page.evaluate("(i) => i.complete && i.naturalWidth > 0", pictures.nth(i).element_handle())
                       for i in range(pictures.count()))
            widget = page.locator(".at-widget").first
            widget.locator("svg.at-graph").wait_for(state="visible")
            assert widget.get_attribute("lang") == lang
            widget.locator(".at-next").click()
            status = widget.locator(".at-status").text_content()
            assert re.search(r"step 1 of 3: MulBackward0 ran|第 1 步，共 3 步：MulBackward0 已运行", status), status
            widget.locator(".at-play").click()
            page.wait_for_function("(w) => /AccumulateGrad/.test(w.querySelector('.at-status').textContent)",
                                   arg=widget.element_handle(), timeout=15_000)
    finally:
        context.close()
    assert not errors, errors
    outside = [u for u in requests if not u.startswith(("file:", "data:", "blob:"))]
    assert not outside, f"requests that left the machine: {outside}"


def test_slides_keep_a_working_replay(browser, tmp_path):
    """`jupyter nbconvert --to slides` of a stored lesson: its replay steps, even
    with reveal.js's CDN out of reach (the replay itself needs nothing)."""
    from nbconvert import SlidesExporter
    import nbformat
    nb = nbformat.read(ROOT / "notebooks" / "zh" / f"{STEMS[1]}.ipynb", as_version=4)
    html, _ = SlidesExporter().from_notebook_node(nb)
    path = tmp_path / "slides.html"
    path.write_text(html, encoding="utf-8")
    requests = []
    context, page = offline_page(browser, requests)
    try:
        page.goto(path.as_uri())
        widget = page.locator(".at-widget").first
        widget.locator("svg.at-graph").wait_for(state="attached", timeout=15_000)
        widget.evaluate("(w) => w.querySelector('.at-next').click()")
        assert "MulBackward0 已运行" in widget.locator(".at-status").text_content()
    finally:
        context.close()
