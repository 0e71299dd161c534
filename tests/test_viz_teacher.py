"""A teacher's path through viz: diagrams for slides, saved files, and the
mistakes a first call makes.  Each test here failed before its fix."""
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach import viz
from autograd_teach.viz import layout

SVG = "{http://www.w3.org/2000/svg}"


def texts(svg):
    return ["".join(t.itertext()).replace("\xa0", " ").strip() for t in ET.fromstring(svg).iter(SVG + "text")]


def titles(svg):
    return [t.text for t in ET.fromstring(svg).iter(SVG + "title")]


def small_graph():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    return (x * x).sum(), x


# --- PNG: the bundled engine's font has no Chinese ---------------------------

@pytest.mark.parametrize("lang, names", [("zh", {"x": None}), ("en", {"权重": None}), ("en", {"w \U0001F389": None})])
def test_png_refuses_text_its_font_cannot_draw(tmp_path, lang, names):
    # graphviz-pure's PNG renderer draws Chinese and emoji as empty boxes:
    # say so, and where the text does show, instead of writing boxes
    y, x = small_graph()
    d = viz.draw(y, names={k: x for k in names}, lang=lang)
    with pytest.raises(viz.RenderError, match=r"cannot draw .* save as \.svg or \.pdf"):
        d.save(tmp_path / "g.png")
    assert not (tmp_path / "g.png").exists()
    assert d.save(tmp_path / "g.svg").exists() and d.save(tmp_path / "g.pdf").exists()


def test_png_keeps_latin_greek_and_the_diagrams_own_symbols(tmp_path):
    y, x = small_graph()
    d = viz.draw(y, names={"Σ_é × α": x})
    assert d.save(tmp_path / "g.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_undrawable_in_png_names_the_first_such_character():
    assert layout.undrawable_in_png("MulBackward0 Σ = tensor([1., 2.]) é ×") is None
    assert layout.undrawable_in_png("x 梯度") == "梯"
    assert layout.undrawable_in_png("\U0001F389") == "\U0001F389"


# --- names too long for a box -------------------------------------------------

def test_a_very_long_name_is_shortened_in_its_box_and_kept_whole_in_its_title():
    y, x = small_graph()
    long = "layer" + "x" * 300 + "_weight"
    svg = viz.draw(y, names={long: x}).svg()
    words = texts(svg)
    assert not any(long in w for w in words)
    shown = [w for w in words if w.startswith("layerxxx")]
    assert len(shown) == 1 and "\u2026" in shown[0] and shown[0].split(" ")[0].endswith("_weight")
    assert len(shown[0].split(" ")[0]) <= 48
    assert long in titles(svg)                                  # hover shows the whole name
    width = float(ET.fromstring(svg).get("width").rstrip("pt"))
    assert width < 600, width


def test_names_up_to_the_limit_are_drawn_whole():
    y, x = small_graph()
    name = "model.encoder.layers.0.self_attn.in_proj_weight"     # 47 characters: a real parameter name
    assert name in " ".join(texts(viz.draw(y, names={name: x}).svg()))


# --- English counts ----------------------------------------------------------

def test_captions_say_one_node_not_one_nodes():
    x = torch.ones(1, requires_grad=True)
    b = x
    for _ in range(30):
        b = b * 2
    words = texts(viz.draw(b, max_nodes=10).svg())
    assert "30 Functions in one repeated run drawn as one node." in words
    y = (torch.ones(2, requires_grad=True) * 2).exp().sum()
    d = viz.draw(y, max_nodes=3)
    words = texts(d.svg())
    assert "1 more node" in words and "1 node hidden beyond max_nodes=3." in words, words
    assert "1 node hidden beyond max_nodes=3" in repr(d)


# --- misuse: what draw() is given ---------------------------------------------

@pytest.mark.parametrize("bad, kind", [(3, "int"), ("loss", "str"), (None, "NoneType"),
                                       (np.ones(3), "ndarray"), (2.5, "float")])
def test_draw_of_a_non_tensor_is_a_type_error(bad, kind):
    with pytest.raises(TypeError, match=rf"^draw\(\): argument 'outputs' must be a Tensor or a list of "
                                        rf"Tensors, not {kind}$"):
        viz.draw(bad)


def test_draw_of_a_list_with_a_non_tensor_names_its_position():
    y, _ = small_graph()
    with pytest.raises(TypeError, match=r"^draw\(\): argument 'outputs' \(item 1\) must be a Tensor, not int$"):
        viz.draw([y, 3])
    with pytest.raises(ValueError, match=r"^draw\(\): argument 'outputs' is an empty list"):
        viz.draw([])


def test_draw_with_wrong_names_or_recording_is_a_type_error():
    y, x = small_graph()
    with pytest.raises(TypeError, match=r"^draw\(\): argument 'names' must be a dict"):
        viz.draw(y, names=[x])
    with pytest.raises(TypeError, match=r"^draw\(\): argument 'recording' must be"):
        viz.draw(y, recording=5)


def test_show_outside_jupyter_checks_its_argument_too():
    with pytest.raises(TypeError, match=r"argument 'outputs' must be a Tensor"):
        viz.GraphWidget("loss")


# --- the console text -----------------------------------------------------------

def test_text_repr_of_a_long_chain_stays_short():
    x = torch.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(5000):
        y = y * 1.0001
    with viz.record() as rec:
        y.backward()
    text = repr(viz.draw(y, recording=rec))
    order = [line for line in text.splitlines() if line.startswith("engine order:")]
    assert len(order) == 1 and len(order[0]) < 400, len(order[0])
    assert "4989 more" in order[0] and order[0].endswith("MulBackward0 -> AccumulateGrad")
    assert len(text) < 5000


def test_text_repr_keeps_values_as_print_shows_them():
    x = torch.tensor([0.0, 2.0, 10.0], requires_grad=True)
    text = repr(viz.draw(x * 1, names={"x": x}))
    assert str(x.detach()) in text                   # tensor([ 0.,  2., 10.]): padding kept
    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    assert "tensor([[1., 2.], [3., 4.]])" in repr(viz.draw(m * 1, names={"m": m}))


def test_a_one_step_run_is_one_step():
    # a backward that stopped after its first node: "backward ran 1 steps" before
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).exp().sum()
    y.backward()
    with viz.record() as rec, pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()
    d = viz.draw(y, recording=rec)
    assert "backward ran 1 step;" in repr(d) or repr(d).splitlines()[0].endswith("backward ran 1 step")
    assert "Gradients from one backward pass: 1 step." in texts(d.svg())


def test_a_long_saved_number_list_is_shortened_in_its_node():
    # a note as long as what was saved made a diagram as wide as it (torchviz cuts
    # these at 50 characters, max_attr_chars); sum() of a 30-d tensor saves 30 sizes
    x = torch.ones([1] * 30, requires_grad=True)
    d = viz.draw(x.sum(), show_saved=True)
    notes = [note for n in d.graph.nodes for note in n.notes if isinstance(note, str)]
    assert any(len(note) > 100 for note in notes)             # the model keeps it whole
    long = [w for w in texts(d.svg()) if w.startswith("_saved_self_sym_sizes")]
    assert long and all(len(w) <= 60 and w.endswith("\u2026") for w in long), long


def _png_size(data):
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_png_for_a_slide_takes_a_resolution(tmp_path):
    y, x = small_graph()
    d = viz.draw(y, names={"x": x})
    w, h = _png_size(d.save(tmp_path / "a.png").read_bytes())
    w2, h2 = _png_size(d.save(tmp_path / "b.png", dpi=192).read_bytes())
    assert abs(w2 - 2 * w) <= 2 and abs(h2 - 2 * h) <= 2
    with pytest.raises(ValueError, match=r"dpi= is for \.png only"):
        d.save(tmp_path / "g.svg", dpi=300)
    with pytest.raises(ValueError, match="dpi must be a number from 10 to 1200"):
        d.save(tmp_path / "g.png", dpi="high")


# --- a tensor with no graph behind it -----------------------------------------

def test_a_tensor_that_needs_no_grad_says_so_and_shows_its_value():
    x = torch.tensor([1.0, 2.0, 3.0])
    d = viz.draw(x)
    words = " ".join(texts(d.svg()))
    assert "No gradients yet" not in words and "after backward()" not in words   # none ever will come
    assert "requires_grad=False" in words
    assert "tensor([1., 2., 3.])" in words                                      # its value, as for a leaf
    assert "requires_grad=False" in repr(d).splitlines()[0]
    assert "requires_grad=False" in " ".join(texts(viz.draw(x, lang="zh").svg()))


def test_a_leaf_drawn_alone_shows_its_grad():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    words = " ".join(texts(viz.draw(w).svg()))
    assert "No gradients yet" not in words and ".grad" in words      # says where its .grad comes from
    (w * 3).sum().backward()
    words = " ".join(texts(viz.draw(w).svg()))
    assert ".grad = tensor([3., 3.])" in words                        # said "No gradients yet" before
    assert "No gradients yet" not in words
    assert ".grad = tensor([3., 3.])" not in " ".join(texts(viz.draw(w, show_grads=False).svg()))


def test_a_png_too_large_to_hold_is_refused_with_what_to_do(tmp_path):
    # a 50-step loop at 600 dpi: 4,700 x 41,000 pixels, about 3 GB while drawn
    w = torch.ones(2, 2, requires_grad=True)
    h = torch.ones(2)
    for _ in range(50):
        h = (w @ h).tanh()
    d = viz.draw(h.sum())
    with pytest.raises(ValueError, match=r"at 600 dpi would be \d+ x \d+ pixels .* save it as \.svg or \.pdf"):
        d.save(tmp_path / "g.png", dpi=600)
    assert not (tmp_path / "g.png").exists()


def test_a_step_whose_node_is_gone_keeps_its_name():
    # backward from a temporary (g.sum()) runs its SumBackward0 first; that node is
    # freed with the temporary, and the step was named "NoneType" (type(None))
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    g, = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
    with viz.record() as rec:
        g.sum().backward()
    d = viz.draw(g, recording=rec)
    assert [s.name for s in d.steps][:2] == ["SumBackward0", "MulBackward0"]
    assert "NoneType" not in repr(d) and "engine order: SumBackward0 -> MulBackward0" in repr(d)


@pytest.mark.parametrize("option, bad, error", [("max_nodes", -1, ValueError), ("depth", -2, ValueError),
                                                ("max_nodes", "10", TypeError), ("depth", 1.5, TypeError)])
def test_limits_must_be_whole_numbers_at_least_zero(option, bad, error):
    # max_nodes=-1 drew a graph as if 0; max_nodes="10" failed deep inside with "'>' not supported"
    y, _ = small_graph()
    with pytest.raises(error, match=rf"^draw\(\): argument '{option}' must be None or an int >= 0, not "):
        viz.draw(y, **{option: bad})


def test_drawing_a_model_says_to_draw_its_output():
    model = torch.nn.Linear(2, 1)
    with pytest.raises(TypeError, match=r"not Linear: draw what the model returns, viz\.draw\(model\(x\)\)"):
        viz.draw(model)


def test_the_widgets_status_says_why_there_is_nothing_to_replay():
    # it said "No backward recorded for this graph yet: call viz.autorecord(True)" for both
    x = torch.tensor([1.0, 2.0])
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    assert "requires_grad=False" in viz.GraphWidget(x).status_text()
    assert viz.GraphWidget(w).status_text().startswith("Nothing to replay: a leaf tensor")
    assert viz.GraphWidget(w, lang="zh").data["empty"] == "widget.leaf"
    assert "autorecord" in viz.GraphWidget((w * 2).sum()).status_text()      # not run yet: as before
