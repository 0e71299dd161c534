"""The engine runs nodes in the same order as PyTorch's (recorded in goldens):
what the widget replays step by step is what PyTorch would have done."""
import json
import pathlib
import sys

import pytest

import autograd_teach as torch
from autograd_teach.core import engine

GOLDEN = pathlib.Path(__file__).parent / "golden"
sys.path.insert(0, str(GOLDEN))
from order_graphs import GRAPHS  # noqa: E402

ORDERS = json.loads((GOLDEN / "engine_order.json").read_text())["orders"]


class Steps:
    """An engine observer that keeps the nodes in run order."""

    def __init__(self):
        self.nodes = []

    def step(self, node, grad_outputs, grad_inputs):
        self.nodes.append(node)

    def end(self):
        pass


@pytest.mark.parametrize("build", GRAPHS, ids=lambda b: b.__name__)
def test_run_order_matches_pytorch(build):
    steps = Steps()
    out = build(torch)
    handle = engine.add_observer(lambda roots: steps)
    try:
        out.backward()
    finally:
        handle.remove()
    assert [n.name() for n in steps.nodes] == ORDERS[build.__name__]


@pytest.mark.parametrize("build", GRAPHS, ids=lambda b: b.__name__)
def test_run_order_is_topological(build):
    """Every node runs after every node that sends it a gradient."""
    out = build(torch)
    order = engine.topological_order([out.grad_fn])
    position = {node: i for i, node in enumerate(order)}
    assert len(position) == len(order), "a node ran twice"
    for node in order:
        for nxt, _ in node.next_functions:
            if nxt is not None:
                assert position[node] < position[nxt]


def test_every_graph_has_a_golden():
    assert sorted(ORDERS) == sorted(b.__name__ for b in GRAPHS)
