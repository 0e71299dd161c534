"""The graph viz draws, and what its recorder sees, equal what PyTorch builds and runs.

tests/golden/viz/seeds.json was recorded from PyTorch 2.13 by
scripts/record_viz_goldens.py; these tests need no torch.
"""
import json
import os
import sys
from collections import deque

import numpy as np
import pytest

import autograd_teach
from autograd_teach.viz import graph as G
from autograd_teach.viz.recording import Recorder

from autograd_teach import viz

viz.autorecord(False)  # importing viz switched on the background recorder; keep other tests clean

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "golden", "viz"))
from seeds import SEEDS  # noqa: E402

with open(os.path.join(HERE, "golden", "viz", "seeds.json")) as f:
    GOLDEN = json.load(f)


def canonical(graph):
    """Number the model's backward nodes the way the golden script numbers PyTorch's."""
    root = next(e.dst for e in graph.edges if e.kind == "output")
    index, order, queue = {root: 0}, [root], deque([root])
    while queue:
        nid = queue.popleft()
        for e in sorted(graph.out_edges(nid), key=lambda e: (e.slot is None, e.slot)):
            if e.kind == "grad" and e.dst not in index:
                index[e.dst] = len(order)
                order.append(e.dst)
                queue.append(e.dst)
    return order, index


def build(seed, **kw):
    out, names = SEEDS[seed](autograd_teach)
    return out, names, G.build_graph(out, names=names, max_nodes=None, **kw)


@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_nodes_and_edges_match_pytorch(seed):
    gold = GOLDEN[seed]
    _, _, graph = build(seed)
    order, index = canonical(graph)
    assert [graph.node(n).name for n in order] == gold["nodes"]
    edges = sorted([index[e.src], e.slot, index[e.dst]] for e in graph.edges if e.kind == "grad")
    assert edges == sorted(gold["edges"])


@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_none_entries_become_constants(seed):
    gold = GOLDEN[seed]
    _, _, graph = build(seed, show_constants=True)
    _, index = canonical(graph)
    constants = sorted([index[e.src], e.slot] for e in graph.edges if e.kind == "constant")
    assert constants == sorted(gold["none_slots"])
    assert all(graph.node(e.dst).kind == G.CONSTANT for e in graph.edges if e.kind == "constant")


@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_each_accumulategrad_leads_to_its_named_leaf(seed):
    gold = GOLDEN[seed]
    _, names, graph = build(seed)
    _, index = canonical(graph)
    for name, leaf in gold["leaves"].items():
        (acc,) = [n for n, i in index.items() if i == leaf["node"]]
        (edge,) = graph.out_edges(acc)
        assert edge.kind == "variable" and graph.node(edge.dst).name == name


@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_recorder_sees_pytorchs_order_and_gradients(seed):
    gold = GOLDEN[seed]
    out, names, graph = build(seed)
    _, index = canonical(graph)
    with viz.record() as rec:
        out.backward()
    steps = G.grad_steps(graph, rec.last)
    assert [index[s.node_id] for s in steps] == gold["engine_order"]
    sent = []
    for s in steps:
        for e in graph.out_edges(s.node_id):
            if e.id in s.edge_grads and e.kind == "grad":
                sent.append((index[e.src], e.slot, s.edge_grads[e.id]))
    assert [(i, slot) for i, slot, _ in sent] == [(i, slot) for i, slot, _ in gold["edge_grads"]]
    for (_, _, got), (_, _, want) in zip(sent, gold["edge_grads"]):
        np.testing.assert_allclose(got, want, rtol=1e-5)
    for name, leaf in gold["leaves"].items():
        np.testing.assert_allclose(names[name].grad.numpy(), leaf["grad"], rtol=1e-5)


# The golden "saved" lists are dir(grad_fn)'s _saved_* names: every attribute the
# node exposes, including those PyTorch leaves None because no gradient needs
# them (MulBackward0 keeps self only if other needs a gradient, and the other
# way round; see tests/golden/expected/autograd_saved_tensors.txt).  These are
# the ones left None in the seeds, by PyTorch's rule: canonical node -> names.
NOT_SAVED = {
    "dot": {0: {"_saved_self"}},                       # 2 * dot(x, x)
    "square_mean": {1: {"_saved_self"}},               # 3 * (x + 2) ** 2
    "detach": {1: {"_saved_other"}},                   # x.detach() * x
    "control_flow": {i: {"_saved_self"} for i in range(13)},   # b * 2, 100 * b
}


@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_saved_names_are_pytorchs(seed):
    gold = GOLDEN[seed]
    out, _, graph = build(seed, show_saved=True)
    order, _ = canonical(graph)
    for i, nid in enumerate(order):
        node = graph.node(nid)
        drawn = {graph.node(e.dst).name for e in graph.out_edges(nid) if e.kind == "saved"}
        drawn |= {note.split(" = ")[0] for note in node.notes if note.startswith("_saved_")}
        want = set(gold["saved"][str(i)]) - NOT_SAVED[seed].get(i, set())
        assert drawn == want, (i, node.name)


@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_drawing_gives_the_bytes_drawn_from_pytorchs_graph(seed):
    out, names = SEEDS[seed](autograd_teach)
    with open(os.path.join(HERE, "golden", "viz", f"{seed}.svg")) as f:
        assert viz.draw(out, names=names).svg() == f.read()
