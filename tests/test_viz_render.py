"""draw(): DOT text, SVG through the bundled engine, files, determinism, errors."""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import autograd_teach as torch
from autograd_teach import viz
from autograd_teach.viz import layout

SVG = "{http://www.w3.org/2000/svg}"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def texts(svg):
    # Graphviz keeps runs of spaces as no-break spaces
    return ["".join(t.itertext()).replace("\xa0", " ") for t in ET.fromstring(svg).iter(SVG + "text")]


def dot_example():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    return 2 * torch.dot(x, x), x


def test_draw_shows_pytorchs_node_names_and_says_no_gradient_yet():
    y, x = dot_example()
    d = viz.draw(y, names={"x": x})
    words = texts(d.svg())
    for name in ("MulBackward0", "DotBackward0", "AccumulateGrad", "x", "output"):
        assert name in words
    assert viz.dot.NO_GRAD_YET in words
    assert 'class="at-grad"' not in d.svg().split("</g>", 2)[-1]  # only the legend's sample


def test_after_backward_every_edge_shows_its_gradient():
    y, x = dot_example()
    with viz.record() as rec:
        y.backward()
    d = viz.draw(y, names={"x": x}, recording=rec)
    root = ET.fromstring(d.svg())
    edges = [g for g in root.iter(SVG + "g") if "edge" in g.get("class", "").split()]
    assert len(edges) == 5
    for g in edges:   # every edge a gradient flowed along; the leaf's .grad is written in the leaf
        has_grad = any(t.get("class") == "at-grad" for t in g.iter(SVG + "text"))
        assert has_grad == ("at-edge-variable" not in g.get("class")), g.get("id")
    words = texts(d.svg())
    assert words.count("tensor([2., 4., 6.])") == 2        # each of the two contributions, once
    assert "\u03a3 = tensor([ 4.,  8., 12.])" in words      # their sum at AccumulateGrad
    assert ".grad = tensor([ 4.,  8., 12.])" in words       # in the leaf x
    assert words.count("tensor(2.)") == 1                  # MulBackward0's output: on its edge only
    assert viz.dot.NO_GRAD_YET not in words


def test_svg_hooks_ids_titles_and_classes():
    y, x = dot_example()
    svg = viz.draw(y, names={"x": x}).svg()
    root = ET.fromstring(svg)
    assert root.get("class") == "at-graph"
    nodes = {g.get("id"): g for g in root.iter(SVG + "g") if "node" in g.get("class", "").split()}
    assert nodes["n1"].get("class") == "node at-function"
    assert nodes["n1"].find(SVG + "title").text == "MulBackward0"
    assert nodes["n3"].get("class") == "node at-accumulate"
    assert 'class="edge at-edge-output"' in svg
    assert "graphviz version" not in svg and not svg.startswith("<?xml")


def test_labels_are_escaped_for_dot_and_html():
    x = torch.ones(2, requires_grad=True)
    nasty = '<b>"]'
    d = viz.draw((x * x).sum(), names={nasty: x})
    assert nasty in texts(d.svg())
    assert nasty not in d.source          # only the escaped form is in the DOT text
    assert "&lt;b&gt;&quot;]" in d.source


def test_text_repr_is_deterministic_and_has_no_addresses():
    y, x = dot_example()
    text = repr(viz.draw(y, names={"x": x}))
    assert "0x" not in text and "object at" not in text
    assert text.splitlines()[0].startswith("autograd graph: 3 backward nodes")
    bundle = viz.draw(y)._repr_mimebundle_()
    assert set(bundle) == {"image/svg+xml", "text/html", "text/plain"}   # text/html: the picture as <img>


def test_save_writes_svg_png_and_pdf(tmp_path):
    y, _ = dot_example()
    d = viz.draw(y)
    assert d.save(tmp_path / "g.svg").read_text().startswith("<svg")
    assert (d.save(tmp_path / "g.png")).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pdf = d.save(tmp_path / "g.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-1.4") and b"(MulBackward0) Tj" in pdf
    assert d.save(tmp_path / "g.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    with pytest.raises(ValueError, match=r"\.svg, \.png, \.pdf or \.html"):
        d.save(tmp_path / "g.gif")


def test_list_of_outputs_draws_shared_part_once():
    x = torch.ones(2, requires_grad=True)
    h = x * 3
    words = texts(viz.draw([h.sum(), h.mean()]).svg())
    assert words.count("MulBackward0") == 1


def test_collapsed_graph_says_what_it_hid():
    x = torch.ones(1, requires_grad=True)
    b = x
    for _ in range(30):
        b = b * 2
    words = texts(viz.draw(b, max_nodes=10).svg())
    assert "MulBackward0 \u00d7 30" in words
    assert "30 Functions in one repeated run drawn as one node." in words


RENDER = """
import autograd_teach as torch
from autograd_teach import viz
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = (3 * (x + 2) ** 2).mean()
out.backward()
import sys, hashlib
sys.stdout.write(hashlib.sha256(viz.draw(out, names={"x": x}).svg().encode()).hexdigest())
"""


def run_fresh(env=None):
    done = subprocess.run([sys.executable, "-c", RENDER], capture_output=True, text=True,
                          cwd=ROOT, env=env, check=True)
    return done.stdout


def test_same_graph_gives_identical_svg_bytes_in_fresh_processes():
    assert run_fresh() == run_fresh()


def test_renders_with_no_dot_on_path(tmp_path):
    env = dict(os.environ, PATH=str(tmp_path), PYTHONPATH=ROOT)
    assert len(run_fresh(env)) == 64


def test_system_engine_without_dot_says_what_to_do(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    y, _ = dot_example()
    with pytest.raises(viz.RenderError, match="Install Graphviz"):
        viz.draw(y, engine="system").svg()


def test_missing_engine_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(layout, "PURE", "graphviz-pure-not-here")
    y, _ = dot_example()
    with pytest.raises(viz.RenderError, match=r"pip install graphviz-pure==0\.2\.2"):
        viz.draw(y).svg()


def test_engine_failure_reports_the_engines_message():
    with pytest.raises(viz.RenderError, match="could not render"):
        layout.run("digraph { a -> }")
