"""The graph model: what build_graph walks into nodes and edges."""
import autograd_teach as torch
from autograd_teach.viz import graph as G

from autograd_teach import viz

viz.autorecord(False)  # importing viz switched on the background recorder; keep other tests clean


def kinds(graph):
    return [(n.kind, n.name) for n in graph.nodes]


def test_x_times_x_has_two_edges_into_one_accumulategrad():
    x = torch.ones(2, requires_grad=True)
    g = G.build_graph(x * x, names={"x": x})
    assert kinds(g) == [("output", "output"), ("function", "MulBackward0"),
                        ("accumulate", "AccumulateGrad"), ("leaf", "x")]
    grad_edges = [(e.src, e.slot, e.dst, e.multi) for e in g.edges if e.kind == "grad"]
    assert grad_edges == [("n1", 0, "n2", True), ("n1", 1, "n2", True)]


def test_ids_come_from_a_counter_in_graph_order():
    x = torch.ones(2, requires_grad=True)
    g = G.build_graph((x * 2).sum())
    assert [n.id for n in g.nodes] == [f"n{i}" for i in range(len(g.nodes))]
    assert [e.id for e in g.edges] == [f"e{i}" for i in range(len(g.edges))]


def test_leaves_without_names_get_deterministic_labels():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    g = G.build_graph((a * b).sum(), names={"b": b}, name="loss")
    assert [n.name for n in g.nodes if n.kind in ("leaf", "output")] == ["loss", "leaf0", "b"]


def test_several_outputs_share_their_common_subgraph():
    x = torch.ones(2, requires_grad=True)
    h = x * 3
    g = G.build_graph([h.sum(), h.mean()])
    names = [n.name for n in g.nodes]
    assert names.count("MulBackward0") == 1 and names.count("AccumulateGrad") == 1
    assert [n.name for n in g.nodes if n.kind == "output"] == ["output0", "output1"]


def test_none_entries_are_drawn_only_when_asked():
    x = torch.ones(2, requires_grad=True)
    out = (x * torch.ones(2)).sum()
    assert not any(n.kind == "constant" for n in G.build_graph(out).nodes)
    g = G.build_graph(out, show_constants=True)
    (const,) = [e for e in g.edges if e.kind == "constant"]
    assert const.slot == 1 and g.node(const.dst).name == "constant"


def test_saved_tensors_and_scalars_are_shown_with_show_saved():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    out = (x ** 3).sum()
    g = G.build_graph(out, show_saved=True)
    pow_node = next(n for n in g.nodes if n.name == "PowBackward0")
    saved = [g.node(e.dst).name for e in g.out_edges(pow_node.id) if e.kind == "saved"]
    assert saved == ["_saved_self"]
    assert "_saved_exponent = 3" in pow_node.notes


def test_a_saved_tensor_modified_in_place_is_marked_stale():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    z = (y * y).sum()
    y.add_(1)
    g = G.build_graph(z, show_saved=True)
    stale = [n for n in g.nodes if n.kind == "saved" and n.stale]
    assert stale and all(n.current_version == n.saved_version + 1 for n in stale)


def test_freed_saved_tensors_are_noted_after_backward():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    out = (x * x).sum()
    out.backward()
    g = G.build_graph(out, show_saved=True)
    mul = next(n for n in g.nodes if n.name == "MulBackward0")
    assert ("label.freed", {}) in mul.notes
    assert not any(n.kind == "saved" for n in g.nodes)


def test_a_leaf_output_is_drawn_alone():
    x = torch.ones(2, requires_grad=True)
    assert kinds(G.build_graph(x, name="x")) == [("leaf", "x")]


class Fn:
    """A duck-typed autograd Node: the walk needs nothing more."""

    def __init__(self, label, children):
        self._label, self.next_functions = label, tuple((c, 0) for c in children)

    def name(self):
        return self._label


class T:
    def __init__(self, fn):
        self.grad_fn, self.requires_grad, self.shape, self.dtype = fn, True, (), "torch.float32"


def chain(n, label="MulBackward0"):
    fn = None
    for _ in range(n):
        fn = Fn(label, [fn])
    return T(fn)


def test_a_100000_node_chain_is_walked_without_recursion():
    g = G.build_graph(chain(100_000), max_nodes=None)
    assert len(g.nodes) == 100_001 and len(g.edges) == 100_000


def test_repeated_runs_collapse_past_max_nodes():
    g = G.build_graph(chain(1000), max_nodes=50)
    assert kinds(g) == [("output", "output"), ("repeat", "MulBackward0")]
    assert g.nodes[1].count == 1000
    assert g.hidden == [("caption.repeated", {"total": 1000, "runs": 1})]


def test_depth_limit_hides_the_rest_and_says_so():
    top = Fn("AddBackward0", [Fn("A", [Fn("B", [])]), Fn("C", [Fn("D", [Fn("E", [])])])])
    g = G.build_graph(T(top), depth=1)
    assert [n.name for n in g.nodes] == ["output", "AddBackward0", "A", "C", "3 more nodes"]
    hidden = g.nodes[-1]
    assert hidden.kind == "hidden" and hidden.count == 3
    assert sorted(e.src for e in g.in_edges(hidden.id)) == ["n2", "n3"]
    assert g.hidden == [("caption.hidden", {"n": 3, "why": "depth=1 / max_nodes=400"})]


def test_max_nodes_hides_the_rest_and_says_so():
    top = Fn("AddBackward0", [Fn(f"F{i}", []) for i in range(10)])
    g = G.build_graph(T(top), max_nodes=4)
    assert sum(n.kind == "function" for n in g.nodes) == 4
    assert g.nodes[-1].name == "7 more nodes"
