"""show_saved=True on a real PyTorch graph: the tensors each node saved, as
torchviz's make_dot(show_saved=True) reads them (the node's ``_saved_*``
attributes), and "freed" once backward freed them.  Before, nothing was drawn."""
import re

from viz_torch_helpers import import_torch

torch = import_torch()
from autograd_teach import viz  # noqa: E402
from autograd_teach.viz import graph as G  # noqa: E402
from autograd_teach.viz import inspector  # noqa: E402


def test_a_pytorch_nodes_saved_tensors_are_drawn_as_autograd_teachs_are():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    y = (x * w).exp().sum()
    d = viz.draw(y, names={"x": x, "w": w}, show_saved=True)
    saved = {(n.name, tuple(n.tensor.tolist())) for n in d.graph.nodes if n.kind == G.SAVED}
    assert saved == {("_saved_self", (1.0, 2.0)), ("_saved_other", (3.0, 4.0)),
                     ("_saved_result", tuple(torch.exp(x * w).tolist()))}
    svg = d.svg()
    assert svg.count('class="node at-saved"') == 3 and "_saved_other" in svg
    steps = re.findall(r'class="node at-saved"', viz.draw(y, show_saved=False).svg())
    assert steps == []                                       # only when asked


def test_a_pytorch_nodes_saved_numbers_are_notes_and_freed_ones_say_so():
    x = torch.ones(2, 3, requires_grad=True)
    y = x.pow(3).sum(dim=1).sum()
    d = viz.draw(y, show_saved=True)
    pow_node = next(n for n in d.graph.nodes if n.name == "PowBackward0")
    assert "_saved_exponent = 3" in pow_node.notes
    rows = dict(inspector.rows(d.graph, d.steps or [], 0, pow_node.id))
    assert any("_saved_self" in h for h in rows)             # the inspector lists them too
    y.backward()
    d = viz.draw(y, show_saved=True)
    assert not any(n.kind == G.SAVED for n in d.graph.nodes)
    assert "saved tensors freed by backward" in d.svg()


def test_bfloat16_gradients_print_their_dtype_as_pytorch_does():
    # numpy has no bfloat16: the recorder keeps them as float32, which printed
    # as tensor([2., 2.]), a float32 tensor, where PyTorch prints dtype=torch.bfloat16
    x = torch.ones(2, dtype=torch.bfloat16, requires_grad=True)
    y = (x * 2).sum()
    with viz.record() as rec:
        y.backward()
    text = repr(viz.draw(y, names={"x": x}, recording=rec))
    assert f"grad {x.grad}" in text, text                  # tensor([2., 2.], dtype=torch.bfloat16)
    assert "grad tensor(1., dtype=torch.bfloat16)" in text


def test_a_pytorch_nodes_long_saved_list_is_shortened_in_its_box():
    # split into 300 pieces saves split_sizes: a 920-character note, 3,700 pt wide
    x = torch.randn(300, requires_grad=True)
    y = torch.cat(torch.split(x, [1] * 300)[:3]).sum()
    svg = viz.draw(y, show_saved=True).svg()
    assert "_saved_split_sizes = (1, 1," in svg
    assert float(re.search(r'<svg[^>]*width="([\d.]+)pt"', svg).group(1)) < 800
