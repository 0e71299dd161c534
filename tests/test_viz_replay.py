"""The replay's data and HTML: what replay.js is given is what the widget showed
step by step in Python, at every step; the HTML is deterministic, escaped, small."""
import base64
import gzip
import json
import re

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach import viz
from autograd_teach.viz import graph as G
from autograd_teach.viz import page
from autograd_teach.viz.inspector import inspector_html
from autograd_teach.viz.replay import replay_data
from autograd_teach.viz.widget import step_classes


def dot_example():
    x = torch.arange(4.0, requires_grad=True)
    return 2 * torch.dot(x, x), {"x": x}


def shared_loop():
    # one weight shared by every step of a loop: copies (at-ref) of its AccumulateGrad
    w = torch.tensor([0.5, -0.25], requires_grad=True)
    h = torch.tensor([1.0, 2.0])
    for _ in range(12):
        h = (h * w).tanh() + torch.ones(2)
    return h.sum(), {"w": w}


def repeated_chain():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x
    for _ in range(8):
        y = y.exp().log()
    return (y * x).sum(), {"x": x}


def saved_and_constants():
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = torch.tensor([0.5, 0.25])
    return ((a @ b) ** 2).mean(), {"a": a, "b": b}


EXAMPLES = [dot_example, shared_loop, repeated_chain, saved_and_constants]


def drawn(make, lang=None):
    out, names = make()
    with viz.record() as rec:
        out.backward()
    return viz.draw(out, names=names, recording=rec, show_saved=True, show_constants=True, lang=lang)


def classes_at(data, k):
    """What replay.js's classesAt computes from the compact data."""
    now = set(data["current"][k - 1]) if k else set()
    return {i: "at-current" if i in now else ("at-done" if 0 < d <= k else "at-pending")
            for i, d in data["done"].items()}


@pytest.mark.parametrize("make", EXAMPLES)
def test_the_compact_classes_are_step_classes_at_every_step(make):
    d = drawn(make)
    data = replay_data(d)
    assert data["n"] == len(d.steps) > 0
    for k in range(len(d.steps) + 1):
        assert classes_at(data, k) == step_classes(d.graph, d.steps, k), k


def test_copies_of_a_shared_node_are_in_the_data():
    d = drawn(shared_loop)
    data = replay_data(d)
    refs = [n for n in d.graph.nodes if n.kind == G.REF]
    assert refs and data["aliases"] == {r.id: r.ref for r in refs}
    assert all(r.id not in {i for i, _ in data["nodes"]} for r in refs)   # the picker lists the node once


@pytest.mark.parametrize("make", EXAMPLES)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_inspector_of_every_node_at_every_step_is_in_the_data(make, lang):
    d = drawn(make, lang)
    segments = replay_data(d)["inspector"]
    for n in d.graph.nodes:
        if n.kind == G.REF:
            continue
        for k in range(len(d.steps) + 1):
            shown = [html for start, html in segments[n.id] if start <= k][-1]
            assert shown == inspector_html(d.graph, d.steps, k, n.id, lang), (n.id, k)


def test_words_are_in_the_diagrams_language():
    zh = replay_data(drawn(dot_example, "zh"))
    assert zh["lang"] == "zh" and zh["labels"]["widget.play"] == "播放"
    assert zh["labels"]["widget.stepk"] == "第 {k} 步，共 {n} 步：{name} 已运行"   # replay.js fills it
    assert "Run \u2192 Run All Cells" in zh["labels"]["widget.stale"]


def _data_of(html):
    m = re.search(r'<script type="application/json" data-at-replay-data="\w+"( data-packed="gzip")?>(.*?)</script>',
                  html, re.S)
    if m.group(1):
        return json.loads(gzip.decompress(base64.b64decode(m.group(2))))["data"]
    return json.loads(m.group(2))


def test_the_replay_file_is_deterministic_and_self_contained(tmp_path):
    files = []
    for i in range(2):
        d = drawn(dot_example)
        files.append(d.save(tmp_path / f"replay{i}.html"))
    first, second = (open(f, "rb").read() for f in files)
    assert first == second
    text = first.decode("utf-8")
    assert text.startswith("<!DOCTYPE html>") and 'src="data:image/svg+xml;base64,' in text
    assert not re.search(r'(src|href)="(?!data:)', text)          # nothing to fetch
    assert "http://" not in text.replace("http://www.w3.org/", "") and "https://" not in text
    assert page.asset("replay.js") in text                          # the widget's own module
    data = _data_of(text)
    assert data["names"] == ["MulBackward0", "DotBackward0", "AccumulateGrad"]
    svg = base64.b64decode(re.search(r'base64,([A-Za-z0-9+/=]+)"', text).group(1)).decode("utf-8")
    assert svg == drawn(dot_example).svg()


def test_every_user_string_is_escaped(tmp_path):
    evil = '</script><script>alert(1)</script><b x="&">'
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    out = (w * 3).sum()
    with viz.record() as rec:
        out.backward()
    text = open(viz.draw(out, names={evil: w}, recording=rec).save(tmp_path / "r.html"), encoding="utf-8").read()
    assert "alert(1)" in text                                       # the name is there ...
    assert evil not in text and "<script>alert" not in text          # ... never as markup
    assert text.count("<script") == 2 and text.count("</script>") == 2
    data = _data_of(text)
    assert any(label == evil for _, label in data["nodes"])          # and reads back exactly


def test_a_2000_node_replay_stays_under_5_mb(tmp_path):
    torch.manual_seed(0)
    x = torch.randn(4, requires_grad=True)
    w = torch.randn(4, requires_grad=True)
    h = x
    with viz.record() as rec:
        for i in range(1000):
            h = (h * w).tanh() if i % 2 else h + w
        y = h.sum()
        y.backward()
    d = viz.draw(y, recording=rec, max_nodes=2100)
    assert len(d.graph.nodes) >= 2000
    path = d.save(tmp_path / "big.html")
    size = path.stat().st_size if hasattr(path, "stat") else len(open(path, "rb").read())
    assert size < 5_000_000, size
    data = _data_of(open(path, encoding="utf-8").read())
    assert data["n"] == len(d.steps)
    assert len(data["inspector"]) == sum(n.kind != G.REF for n in d.graph.nodes)


def test_draw_carries_a_picture_that_survives_a_sanitizer():
    d = drawn(dot_example, "zh")
    bundle = d._repr_mimebundle_()
    html = bundle["text/html"]
    assert re.fullmatch(r'<img class="at-fallback" src="data:image/svg\+xml;base64,[A-Za-z0-9+/=]+" alt="计算图"'
                        r' style="min-width:[0-9]+px">', html)
    svg = base64.b64decode(html.split("base64,")[1].split('"')[0]).decode("utf-8")
    assert svg == bundle["image/svg+xml"] and "一次反向传播的梯度" in svg    # the picture is in the lesson's language


def test_script_json_cannot_close_its_script():
    text = page.script_json({"a": "</script><!-- \u2028 & >"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"a": "</script><!-- \u2028 & >"}
    assert np.isfinite(len(text))


def wide_mlp(lang):
    """Lesson 12's picture of a small MLP: wider than a laptop's notebook, more so in Chinese."""
    torch.manual_seed(0)
    x = torch.linspace(-1, 1, 9).reshape(9, 1)
    mlp = torch.nn.Sequential(torch.nn.Linear(1, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    loss = torch.nn.MSELoss()(mlp(x), x * x)
    with viz.record() as rec:
        loss.backward()
    names = {"W1": mlp[0].weight, "b1": mlp[0].bias, "W2": mlp[2].weight, "b2": mlp[2].bias}
    return viz.draw(loss, names=names, name="loss", recording=rec, lang=lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_picture_shrinks_only_while_its_text_stays_readable(lang):
    html = wide_mlp(lang)._repr_mimebundle_()["text/html"]
    svg = base64.b64decode(html.split("base64,")[1].split('"')[0]).decode("utf-8")
    width = int(re.search(r'style="min-width:([0-9]+)px"', html).group(1))
    view = float(re.search(r'viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+) ', svg).group(1))
    natural = float(re.search(r' width="([0-9.]+)pt"', svg).group(1)) * 4 / 3
    smallest = min(float(x) for x in re.findall(r'font-size="([0-9.]+)"', svg))
    assert smallest * width / view >= page.READABLE_PX - 1e-9      # its smallest text at that width, in px
    assert width <= natural + 1                                    # and never wider than it is
    assert page.readable_width('<svg class="at-graph" width="300pt" height="40pt" viewBox="0.00 0.00 300.00 40.00">'
                               '<text font-size="10.00">a</text></svg>') == 300   # at 10 pt, 75% is 10 px
    assert page.readable_width("<svg></svg>") is None
