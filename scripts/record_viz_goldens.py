"""Record what real PyTorch builds and runs for the viz seed expressions.

Run with the pinned PyTorch (never an unpinned one):

    /work/oracle-venv/bin/python scripts/record_viz_goldens.py

It writes tests/golden/viz/seeds.json: for each seed, the graph PyTorch's
own next_functions walk gives (node names in breadth-first order, one edge
per non-None entry with its slot, the None slots), the order the engine ran
the nodes (seen through Node hooks), the gradient sent along each edge, and
the names of the tensors each node saved.  tests/test_viz_goldens.py checks
autograd_teach against it without torch.  The walk here is written
independently of autograd_teach.viz on purpose.

It also draws each seed's PyTorch graph (before backward) with
autograd_teach.viz into tests/golden/viz/<seed>.svg: drawing autograd_teach's
graph of the same code must give these exact bytes.
"""
import json
import os
import sys
from collections import deque

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "..", "tests", "golden", "viz")
sys.path.insert(0, GOLDEN)
sys.path.insert(0, os.path.join(HERE, ".."))
from seeds import SEEDS  # noqa: E402

from autograd_teach import viz  # noqa: E402  (duck-types PyTorch's graph)


def name_of(fn):
    return fn.name().rsplit("::", 1)[-1]   # torch::autograd::AccumulateGrad -> AccumulateGrad


def walk(root):
    """Breadth-first from root, next_functions in slot order: the canonical numbering."""
    index, order, queue = {}, [], deque([root])
    index[root] = 0
    order.append(root)
    while queue:
        fn = queue.popleft()
        for child, _ in fn.next_functions:
            if child is not None and child not in index:
                index[child] = len(order)
                order.append(child)
                queue.append(child)
    return order, index


def as_list(t):
    return t.detach().numpy().tolist()


def draw(seed):
    out, names = SEEDS[seed](torch)
    with open(os.path.join(GOLDEN, f"{seed}.svg"), "w") as f:
        f.write(viz.draw(out, names=names).svg())


def record(seed):
    out, names = SEEDS[seed](torch)
    order, index = walk(out.grad_fn)
    edges, none_slots, saved = [], [], {}
    for i, fn in enumerate(order):
        for slot, (child, _) in enumerate(fn.next_functions):
            if child is None:
                none_slots.append([i, slot])
            else:
                edges.append([i, slot, index[child]])
        saved[i] = sorted(a for a in dir(fn) if a.startswith("_saved_"))
    ran, sent = [], []
    handles = []
    for i, fn in enumerate(order):
        def hook(grad_inputs, grad_outputs, i=i):
            ran.append(i)
            for slot, g in enumerate(grad_inputs):
                if g is not None:
                    sent.append([i, slot, as_list(g)])
        handles.append(fn.register_hook(hook))
    out.backward()
    for h in handles:
        h.remove()
    leaves = {name: {"node": index[t.grad_fn] if t.grad_fn else
                     next(i for i, fn in enumerate(order) if getattr(fn, "variable", None) is t),
                     "grad": as_list(t.grad)} for name, t in names.items()}
    return {"nodes": [name_of(fn) for fn in order], "edges": edges, "none_slots": none_slots,
            "engine_order": ran, "edge_grads": sent, "saved": saved, "leaves": leaves,
            "output": as_list(out)}


def main():
    data = {"torch": torch.__version__.split("+")[0]}
    data.update({seed: record(seed) for seed in SEEDS})
    for seed in SEEDS:
        draw(seed)
    path = os.path.join(GOLDEN, "seeds.json")
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", os.path.relpath(path))


if __name__ == "__main__":
    main()
