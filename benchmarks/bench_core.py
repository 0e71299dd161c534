#!/usr/bin/env python
"""Core benchmarks: autograd_teach beside PyTorch (CPU), the same math written
by hand in numpy, and micrograd, all in one process run.

    python benchmarks/bench_core.py                 # print the markdown section
    python benchmarks/bench_core.py --write docs/benchmarks.md
                                                    # ... and replace the "## Core" section there
    python benchmarks/bench_core.py --quick         # fewer repeats: a smoke run, not for the docs

Three measurements:

1. Tiny ops (4-element float32 tensors, 2x2 for matmul): the forward and
   backward cost of one op. A chain of N ops then one backward, divided by N
   (the per-op cost once the backward call itself is amortised), and one op
   then one backward (what a call really costs, engine start-up included).
2. A training step of a two-layer 512x512 MLP: forward, MSE loss, backward,
   SGD update under no_grad.
3. Backward through a 100,000-op chain: time and peak memory, each library in
   a child process of its own so that the memory figures do not mix.

autograd_teach and PyTorch run literally the same code (`T` below is either
module). torch and micrograd are optional: a missing one is reported and its
column left empty. Nothing here asserts on time; the gradients of every
participant are compared with the numpy ones, so the figures are of runs that
computed the right thing.
"""
import argparse
import datetime
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
try:
    import autograd_teach
except ImportError:          # run from a plain checkout
    sys.path.insert(0, ROOT)
    import autograd_teach

MISSING = []
try:
    if os.environ.get("BENCH_CORE_NO_TORCH"):    # an MLP child that must not load torch (see MALLOC_KEPT)
        raise ImportError
    import torch
except ImportError:
    torch = None
    MISSING.append("torch")
try:
    from micrograd.engine import Value
except ImportError:
    Value = None
    MISSING.append("micrograd")

AT, PT, NP, MG = "autograd_teach", "PyTorch", "numpy by hand", "micrograd"


def participants():
    return [AT] + ([PT] if torch else []) + [NP] + ([MG] if Value else [])


def tmodule(name):
    return autograd_teach if name == AT else torch


# ---------------------------------------------------------------------------
# 1. Tiny ops
# ---------------------------------------------------------------------------
# Each case builds, per participant, `run()` (one timed sample: N ops forward
# then the backward) and `grads()` (the leaf gradients as numpy arrays, to
# check against numpy's). Leaves are made and gradients reset outside the
# timed region.

X4 = np.array([0.1, -0.2, 0.3, -0.4], np.float32)
W4 = np.array([1.0, -1.0, 1.0, -1.0], np.float32)      # |w| = 1: a long chain neither explodes nor vanishes
R2 = np.array([[0.6, -0.8], [0.8, 0.6]], np.float32)   # a rotation: same reason


class Case:
    """A tensor-library case: the code is written once against `T`."""
    def __init__(self, name, what, tensor_run, numpy_run, micrograd_run=None, mg_note=""):
        self.name, self.what = name, what
        self.tensor_run, self.numpy_run, self.micrograd_run = tensor_run, numpy_run, micrograd_run
        self.mg_note = mg_note

    def make(self, who, n):
        if who in (AT, PT):
            return self.tensor_run(tmodule(who), n)
        if who == NP:
            return self.numpy_run(n)
        return self.micrograd_run(n) if self.micrograd_run else None


def _leaves(T, *arrays):
    return [T.tensor(a.copy(), requires_grad=True) for a in arrays]


def _tensor_grads(*leaves):
    return lambda: [l.grad.numpy().copy() for l in leaves]


def _reset(*leaves):
    def reset():
        for l in leaves:
            l.grad = None
    return reset


def _mg(arr):
    return [Value(float(v)) for v in arr.ravel()]


def _mg_reset(*vals):
    def reset():
        for vs in vals:
            for v in vs:
                v.grad = 0
    return reset


def _mg_grads(*vals, shapes):
    return lambda: [np.array([v.grad for v in vs], np.float32).reshape(s) for vs, s in zip(vals, shapes)]


def _mg_backward_from(outputs):
    """micrograd's backward() starts from one scalar: sum the outputs first
    (their gradient is then 1 each, as the ones the others are given)."""
    root = outputs[0]
    for o in outputs[1:]:
        root = root + o
    root.backward()


# -- chains: y = op(y) N times, one backward ---------------------------------
def chain_tensor(step, x0, w0=None):
    def make(T, n):
        leaves = _leaves(T, x0) if w0 is None else _leaves(T, x0, w0)
        x, w = leaves[0], leaves[-1]
        g = T.ones(x0.shape)

        def run():
            y = x
            for _ in range(n):
                y = step(y, w)
            y.backward(g)
        return run, _reset(*leaves), _tensor_grads(*leaves)
    return make


def numpy_chain_mul(n):
    x, w = X4.copy(), W4.copy()
    out = {}

    def run():
        ys, y = [], x
        for _ in range(n):
            ys.append(y)
            y = y * w
        g, gw = np.ones_like(y), np.zeros_like(w)
        for yi in reversed(ys):
            gw += g * yi
            g = g * w
        out["g"] = [g, gw]
    return run, lambda: None, lambda: out["g"]


def numpy_chain_add(n):
    x, w = X4.copy(), W4.copy()
    out = {}

    def run():
        y = x
        for _ in range(n):
            y = y + w
        g, gw = np.ones_like(y), np.zeros_like(w)
        for _ in range(n):
            gw += g
        out["g"] = [g, gw]
    return run, lambda: None, lambda: out["g"]


def numpy_chain_relu(n):
    x = X4.copy()
    out = {}

    def run():
        ys, y = [], x
        for _ in range(n):
            y = np.maximum(y, 0)
            ys.append(y)
        g = np.ones_like(y)
        for yi in reversed(ys):
            g = g * (yi > 0)
        out["g"] = [g]
    return run, lambda: None, lambda: out["g"]


def numpy_chain_mm(n):
    x, w = R2.copy(), R2.copy()
    out = {}

    def run():
        ys, y = [], x
        for _ in range(n):
            ys.append(y)
            y = y @ w
        g, gw = np.ones_like(y), np.zeros_like(w)
        for yi in reversed(ys):
            gw += yi.T @ g
            g = g @ w.T
        out["g"] = [g, gw]
    return run, lambda: None, lambda: out["g"]


def mg_chain(step, x0, w0=None):
    def make(n):
        leaves = [_mg(x0)] if w0 is None else [_mg(x0), _mg(w0)]
        x, w = leaves[0], leaves[-1]

        def run():
            y = x
            for _ in range(n):
                y = step(y, w)
            _mg_backward_from(y)
        return run, _mg_reset(*leaves), _mg_grads(*leaves, shapes=[x0.shape] * len(leaves))
    return make


def mg_matmul2(a, b):
    # 2x2 lists of Values, row-major
    return [sum(a[2 * i + k] * b[2 * k + j] for k in range(2)) for i in range(2) for j in range(2)]


# -- fan-out: N outputs op(x) of one leaf, one backward from all of them ------
def fanout_tensor(op, out_shape):
    def make(T, n):
        (x,) = _leaves(T, X4)
        gs = [T.ones(out_shape) for _ in range(n)]

        def run():
            ys = [op(x) for _ in range(n)]
            T.autograd.backward(ys, gs)
        return run, _reset(x), _tensor_grads(x)
    return make


def numpy_fanout_exp(n):
    x = X4.copy()
    out = {}

    def run():
        ys = [np.exp(x) for _ in range(n)]
        g = np.zeros_like(x)
        for y in ys:
            g += np.ones_like(y) * y
        out["g"] = [g]
    return run, lambda: None, lambda: out["g"]


def numpy_fanout_sum(n):
    x = X4.copy()
    out = {}

    def run():
        ys = [x.sum() for _ in range(n)]
        g = np.zeros_like(x)
        for y in ys:
            g += np.broadcast_to(np.float32(1), x.shape)
        out["g"] = [g]
    return run, lambda: None, lambda: out["g"]


def mg_fanout_sum(n):
    x = _mg(X4)

    def run():
        ys = [sum(x) for _ in range(n)]
        for y in ys:          # micrograd's backward takes one scalar root
            y.backward()
    return run, _mg_reset(x), _mg_grads(x, shapes=[X4.shape])


# -- one op, one backward ------------------------------------------------------
def single_tensor(op, a0, b0, scalar_out=False):
    def make(T, n):
        leaves = _leaves(T, a0, b0) if b0 is not None else _leaves(T, a0)
        g = None if scalar_out else T.ones(a0.shape)

        def run():
            for _ in range(n):
                op(*leaves).backward(g)
                for l in leaves:
                    l.grad = None
        return run, _reset(*leaves), None
    return make


def numpy_single(fwd_bwd):
    def make(n):
        def run():
            for _ in range(n):
                fwd_bwd()
        return run, lambda: None, None
    return make


def _np_mul():
    x, w = X4, W4
    y = x * w
    g = np.ones_like(y)
    return g * w, g * x


def _np_add():
    x, w = X4, W4
    y = x + w
    g = np.ones_like(y)
    return g, g


def _np_exp():
    y = np.exp(X4)
    g = np.ones_like(y)
    return g * y


def _np_sum():
    y = X4.sum()
    return np.broadcast_to(np.ones_like(y), X4.shape).copy()


def _np_mm():
    x, w = R2, R2
    y = x @ w
    g = np.ones_like(y)
    return g @ w.T, x.T @ g


def mg_single(fwd, a0, b0):
    def make(n):
        a, b = _mg(a0), (_mg(b0) if b0 is not None else None)
        reset = _mg_reset(a, b) if b is not None else _mg_reset(a)

        def run():
            for _ in range(n):
                _mg_backward_from(fwd(a, b))
                reset()
        return run, reset, None
    return make


CHAINS = [
    Case("mul", "chain `y = y * w`", chain_tensor(lambda y, w: y * w, X4, W4), numpy_chain_mul,
         mg_chain(lambda y, w: [a * b for a, b in zip(y, w)], X4, W4)),
    Case("add", "chain `y = y + w`", chain_tensor(lambda y, w: y + w, X4, W4), numpy_chain_add,
         mg_chain(lambda y, w: [a + b for a, b in zip(y, w)], X4, W4)),
    Case("relu", "chain `y = y.relu()`", chain_tensor(lambda y, w: y.relu(), X4), numpy_chain_relu,
         mg_chain(lambda y, w: [a.relu() for a in y], X4)),
    Case("matmul 2x2", "chain `y = y @ w`", chain_tensor(lambda y, w: y @ w, R2, R2), numpy_chain_mm,
         mg_chain(mg_matmul2, R2, R2)),
    Case("exp", "fan-out: N x `x.exp()`, one backward from all", fanout_tensor(lambda x: x.exp(), (4,)),
         numpy_fanout_exp, None, mg_note="micrograd 0.1.0 has no exp"),
    Case("sum", "fan-out: N x `x.sum()`, one backward from all", fanout_tensor(lambda x: x.sum(), ()),
         numpy_fanout_sum, mg_fanout_sum),
]

SINGLES = [
    Case("mul", "`(x * w).backward(g)`", single_tensor(lambda x, w: x * w, X4, W4), numpy_single(_np_mul),
         mg_single(lambda a, b: [p * q for p, q in zip(a, b)], X4, W4)),
    Case("add", "`(x + w).backward(g)`", single_tensor(lambda x, w: x + w, X4, W4), numpy_single(_np_add),
         mg_single(lambda a, b: [p + q for p, q in zip(a, b)], X4, W4)),
    Case("exp", "`x.exp().backward(g)`", single_tensor(lambda x: x.exp(), X4, None), numpy_single(_np_exp),
         None, mg_note="micrograd 0.1.0 has no exp"),
    Case("sum", "`x.sum().backward()`", single_tensor(lambda x: x.sum(), X4, None, scalar_out=True),
         numpy_single(_np_sum), mg_single(lambda a, b: [sum(a)], X4, None)),
    Case("matmul 2x2", "`(x @ w).backward(g)`", single_tensor(lambda x, w: x @ w, R2, R2),
         numpy_single(_np_mm), mg_single(mg_matmul2, R2, R2)),
]


def summary(samples):
    """(best, median): the best is the least disturbed by other processes
    (as timeit advises); the median shows how much they disturbed."""
    return min(samples), statistics.median(samples)


def time_cases(cases, n, repeats, check):
    """(best, median) microseconds per op for each (case, participant). The
    participants take turns sample by sample, so background load hits all."""
    results = {}
    for case in cases:
        runs = {}
        for who in participants():
            made = case.make(who, n)
            if made is not None:
                runs[who] = made
        for who, (run, reset, _) in runs.items():     # warm up
            run()
            reset()
        if check:
            _check(case, runs)
        samples = {who: [] for who in runs}
        for _ in range(repeats):
            for who, (run, reset, _) in runs.items():
                gc.collect()
                t0 = time.perf_counter()
                run()
                t1 = time.perf_counter()
                reset()
                samples[who].append((t1 - t0) / n * 1e6)
        results[case.name] = {who: summary(s) for who, s in samples.items()}
    return results


def time_viz_recorder(n_chain, n_single, repeats):
    """viz.autorecord(True) subscribes a background recorder that the engine
    calls for every node (an engine observer); importing viz does not. Its
    cost, on the mul chain and the single mul: samples alternate with the
    recorder on and off. None if viz will not import."""
    try:
        import autograd_teach.viz as viz    # records nothing until autorecord(True)
    except Exception as e:          # viz has dependencies of its own
        return f"{type(e).__name__}: {e}"
    out = {}
    try:
        for case, n in ((CHAINS[0], n_chain), (SINGLES[0], n_single)):
            run, reset, _ = case.make(AT, n)
            samples = {"off": [], "on": []}
            for _ in range(repeats):
                for state in samples:
                    viz.autorecord(state == "on")
                    gc.collect()
                    t0 = time.perf_counter()
                    run()
                    t1 = time.perf_counter()
                    reset()
                    samples[state].append((t1 - t0) / n * 1e6)
            out[case.what] = {state: summary(v) for state, v in samples.items()}
    finally:
        viz.autorecord(False)
    return out


def _check(case, runs):
    """Every participant's gradients must equal numpy's (else its time means nothing)."""
    run, reset, grads = runs[NP]
    reset()
    run()
    want = grads()
    for who, (run, reset, grads) in runs.items():
        if who == NP:
            continue
        reset()
        run()
        got = grads()
        for g, w in zip(got, want):
            if not np.allclose(g, w, rtol=1e-4, atol=1e-5):
                raise SystemExit(f"{who} computed a wrong gradient in case {case.name!r}:\n{g}\nwant\n{w}")
        reset()


def with_recursion_limit(limit, fn):
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        return fn()
    finally:
        sys.setrecursionlimit(old)


# ---------------------------------------------------------------------------
# 2. MLP training step
# ---------------------------------------------------------------------------
def mlp_setup(batch, width, seed=0):
    rng = np.random.default_rng(seed)
    s = 1 / np.sqrt(width)
    return dict(
        x=rng.standard_normal((batch, width), dtype=np.float32),
        y=rng.standard_normal((batch, width), dtype=np.float32),
        w1=(rng.uniform(-s, s, (width, width))).astype(np.float32),
        b1=(rng.uniform(-s, s, width)).astype(np.float32),
        w2=(rng.uniform(-s, s, (width, width))).astype(np.float32),
        b2=(rng.uniform(-s, s, width)).astype(np.float32),
    )


LR = 0.01


def mlp_tensor(T, d):
    """The same code for PyTorch and autograd_teach."""
    F = T.nn.functional
    x, y = T.tensor(d["x"]), T.tensor(d["y"])
    params = [T.tensor(d[k].copy(), requires_grad=True) for k in ("w1", "b1", "w2", "b2")]
    w1, b1, w2, b2 = params

    def step():
        h = (x @ w1 + b1).relu()
        loss = F.mse_loss(h @ w2 + b2, y)
        loss.backward()
        with T.no_grad():
            for p in params:
                p -= LR * p.grad
                p.grad = None
        return loss.item()
    return step, lambda: [p.detach().numpy() for p in params]


def mlp_numpy(d):
    x, y = d["x"], d["y"]
    params = [d[k].copy() for k in ("w1", "b1", "w2", "b2")]
    w1, b1, w2, b2 = params

    def step():
        z1 = x @ w1 + b1
        h = np.maximum(z1, 0)
        out = h @ w2 + b2
        diff = out - y
        loss = (diff * diff).mean()
        g_out = diff * np.float32(2 / diff.size)
        g_w2 = h.T @ g_out
        g_b2 = g_out.sum(axis=0)
        g_z1 = (g_out @ w2.T) * (z1 > 0)
        g_w1 = x.T @ g_z1
        g_b1 = g_z1.sum(axis=0)
        for p, g in zip(params, (g_w1, g_b1, g_w2, g_b2)):
            p -= LR * g
        return float(loss)
    return step, lambda: params


def mlp_child(batch, width, steps, threads):
    """One MLP configuration (run in a child process whose environment fixed
    the BLAS thread count before numpy loaded). Prints JSON."""
    if torch:
        torch.set_num_threads(threads)
    d = mlp_setup(batch, width)
    runs = {AT: mlp_tensor(autograd_teach, d), NP: mlp_numpy(d)}
    if torch:
        runs[PT] = mlp_tensor(torch, d)
    losses = {who: [step() for _ in range(3)] for who, (step, _) in runs.items()}   # warm-up, and a check
    for who, ls in losses.items():
        if not np.allclose(ls, losses[NP], rtol=1e-3):
            raise SystemExit(f"MLP: {who} losses {ls} differ from numpy's {losses[NP]}")
    # Rounds of consecutive steps per participant rather than strict turns:
    # a BLAS that just ran keeps its worker threads spinning for a while,
    # which would be charged to whoever runs next.
    samples = {who: [] for who in runs}
    rounds = 3
    for _ in range(rounds):
        for who, (step, _) in runs.items():
            step()
            for _ in range(max(1, steps // rounds)):
                gc.collect()
                t0 = time.perf_counter()
                step()
                samples[who].append((time.perf_counter() - t0) * 1e3)
    print(json.dumps({who: summary(s) for who, s in samples.items()}))


BLAS_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
# glibc malloc hands out a large array (>= 128 KiB, then a threshold it
# adjusts as big blocks are freed) as fresh pages from the OS and gives them
# back on free, so every new 1 MB array costs some 256 page faults. How often
# that happens depends on what the process allocated before (importing torch
# raises the thresholds for good), so the main table fixes both thresholds
# ("kept": freed memory is reused, not returned; setting only one of the two
# variables would pin the other at its small default). The "default" rows run
# glibc as it comes, in a child that does not import torch.
MALLOC_KEPT = {"MALLOC_MMAP_THRESHOLD_": "33554432", "MALLOC_TRIM_THRESHOLD_": "1073741824"}


def time_mlp(batch, width, steps, threads, malloc):
    env = dict(os.environ, **{v: str(threads) for v in BLAS_THREAD_VARS})
    if malloc == "kept":
        env.update(MALLOC_KEPT)
    else:
        env["BENCH_CORE_NO_TORCH"] = "1"
        for k in MALLOC_KEPT:
            env.pop(k, None)
    cmd = [sys.executable, os.path.abspath(__file__), "--mlp-child", f"{batch},{width},{steps},{threads}"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise SystemExit(f"MLP child failed:\n{p.stderr}")
    return {who: tuple(v) for who, v in json.loads(p.stdout.strip().splitlines()[-1]).items()}


# ---------------------------------------------------------------------------
# 3. Deep chain (each participant in a child process: `--deep-child WHO`)
# ---------------------------------------------------------------------------
def _status_kb(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return None


def _reset_peak():
    """Linux: writing 5 to clear_refs resets VmHWM (peak RSS) to the current RSS."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def deep_child(who, n, traced):
    """Build y = y * w n times on 4-element tensors, backward once. Prints JSON."""
    import tracemalloc
    res = {"who": who}
    if who in (AT, PT):
        T = tmodule(who)
        x, w = _leaves(T, X4, W4)
        g = T.ones(4)

        def build(n):
            y = x
            for _ in range(n):
                y = y * w
            return y

        def backward(y):
            y.backward(g)
            check = float(x.grad.sum() + w.grad.sum())
            x.grad = w.grad = None
            return check
    elif who == NP:
        x, w = X4.copy(), W4.copy()

        def build(n):
            ys, y = [], x
            for _ in range(n):
                ys.append(y)
                y = y * w
            return ys, y

        def backward(state):
            ys, y = state
            g, gw = np.ones_like(y), np.zeros_like(w)
            for yi in reversed(ys):
                gw += g * yi
                g = g * w
            return float(g.sum() + gw.sum())
    else:
        if who.startswith(MG + " "):
            sys.setrecursionlimit(10 * n)
        x, w = _mg(X4), _mg(W4)

        def build(n):
            y = x
            for _ in range(n):
                y = [a * b for a, b in zip(y, w)]
            return y

        def backward(y):
            _mg_backward_from(y)
            check = float(sum(v.grad for v in x) + sum(v.grad for v in w))
            _mg_reset(x, w)()
            return check
    res["recursionlimit"] = sys.getrecursionlimit()
    backward(build(10))       # warm-up: first-call costs (PyTorch starts its engine) are not the chain's
    gc.collect()
    gc_time, gc_start = [0.0], [0.0]

    def gc_timer(phase, info):  # how much of the time Python's cyclic garbage collector takes
        if phase == "start":
            gc_start[0] = time.perf_counter()
        else:
            gc_time[0] += time.perf_counter() - gc_start[0]
    gc.callbacks.append(gc_timer)
    if traced:
        tracemalloc.start()
    rss0 = _status_kb("VmRSS")
    res["peak_reset"] = _reset_peak()
    t0 = time.perf_counter()
    state = build(n)
    t1 = time.perf_counter()
    try:
        res["check"] = backward(state)
        res["ok"] = True
    except RecursionError as e:
        res["ok"] = False
        res["error"] = f"RecursionError: {e}"
    t2 = time.perf_counter()
    gc.callbacks.remove(gc_timer)
    res.update(build_s=t1 - t0, backward_s=t2 - t1, gc_s=gc_time[0],
               rss_peak_mb=(_status_kb("VmHWM") - rss0) / 1024)
    if traced:
        res["traced_peak_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    t3 = time.perf_counter()
    del state
    gc.collect()
    res["free_s"] = time.perf_counter() - t3
    print(json.dumps(res))


def time_deep(n):
    whos = [AT] + ([PT] if torch else []) + [NP]
    if Value:
        whos += [MG, MG + " (recursion limit raised)"]
    out = {}
    for who in whos:
        for traced in (False, True):
            if traced and (who == PT or who.startswith(MG + " ")):
                continue              # tracemalloc does not see PyTorch's C++ allocations; one micrograd is enough
            cmd = [sys.executable, os.path.abspath(__file__), "--deep-child", who, "--deep-n", str(n)]
            if traced:
                cmd.append("--traced")
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                res = {"who": who, "ok": False, "error": f"child exited {p.returncode}: "
                                                         f"{p.stderr.strip().splitlines()[-1:]}"}
            else:
                res = json.loads(p.stdout.strip().splitlines()[-1])
            if traced:
                out[who]["traced_peak_mb"] = res.get("traced_peak_mb")
            else:
                out[who] = res
    return out


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------
def machine():
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        from importlib.metadata import version
        mg_version = version("micrograd") if Value else None
    except Exception:
        mg_version = "?"
    info = {
        "nproc": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "cpu": model,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "torch": torch.__version__ if torch else "not installed",
        "torch threads": torch.get_num_threads() if torch else "-",
        "micrograd": mg_version or "not installed",
        "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE", "unset"),
        "OPENBLAS_L2_SIZE": os.environ.get("OPENBLAS_L2_SIZE", "unset"),
        "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS", "unset"),
    }
    return info


def _fmt(v, digits=1):
    return "—" if v is None else f"{v:.{digits}f}"


def _cell(r, digits=1):
    """best (median)"""
    return "—" if r is None else f"{r[0]:.{digits}f} ({r[1]:.{digits}f})"


def _ratio(a, b):
    return None if a is None or b is None else a[0] / b[0]


def _fmt_ratio(x):
    return "—" if x is None else f"{x:.2f}"


def op_table(results, cases):
    cols = [AT, PT, NP, MG]
    lines = ["| op | measured as | " + " | ".join(cols) + " | autograd_teach / PyTorch |",
             "|---|---|" + "---:|" * (len(cols) + 1)]
    for case in cases:
        r = results[case.name]
        cells = []
        for c in cols:
            if c == MG and c not in r and case.mg_note and Value:
                cells.append(f"n/a ({case.mg_note})")
            else:
                cells.append(_cell(r.get(c)))
        lines.append(f"| {case.name} | {case.what} | " + " | ".join(cells) +
                     f" | {_fmt_ratio(_ratio(r.get(AT), r.get(PT)))} |")
    return "\n".join(lines)


def goals(chains, singles, mlp, deep):
    """One line per goal of the issue, from the figures (never asserted)."""
    out = []
    for label, res in (("chain", chains), ("one op + backward", singles)):
        if not res or not torch:
            continue
        ratios = {op: _ratio(r.get(AT), r.get(PT)) for op, r in res.items()}
        met = [op for op, x in ratios.items() if x is not None and x <= 0.5]
        out.append(f"- autograd_teach at most half of PyTorch's per-op time ({label}): "
                   f"{'met' if len(met) == len(ratios) else 'not met'} for "
                   f"{len(ratios) - len(met)} of {len(ratios)} ops (autograd_teach / PyTorch from "
                   f"{min(ratios.values()):.2f} to {max(ratios.values()):.2f}; the goal is 0.50)")
    if mlp:
        for (batch, threads, malloc), r in mlp.items():
            x = _ratio(r.get(AT), r.get(NP))
            out.append(f"- MLP step within 1.3x of numpy by hand (batch {batch}, {threads} BLAS thread"
                       f"{'s' if threads > 1 else ''}, {malloc} malloc): {'met' if x <= 1.3 else 'not met'} "
                       f"({x:.2f}x)")
    if deep:
        at, mg = deep.get(AT, {}), deep.get(MG)
        if at.get("ok"):
            out.append(f"- backward through the deep chain: autograd_teach {at['backward_s']:.2f} s, peak RSS "
                       f"growth {at['rss_peak_mb']:.0f} MB" +
                       (f"; PyTorch {deep[PT]['backward_s']:.2f} s, {deep[PT]['rss_peak_mb']:.0f} MB"
                        if PT in deep and deep[PT].get("ok") else ""))
        if mg is not None:
            out.append("- micrograd at that depth: " + ("dies with RecursionError (default recursion limit)"
                                                      if not mg.get("ok") else "survived"))
    return out


def _short_path(path):
    rel = os.path.relpath(path, ROOT)
    return path if rel.startswith("..") else rel


def report(args, info, chains, singles, mlp, deep, viz, elapsed):
    cmd = " ".join(["python", os.path.relpath(os.path.abspath(sys.argv[0]), ROOT)] + sys.argv[1:])
    out = ["## Core", "",
           "Written by `benchmarks/bench_core.py` (how to run it: `benchmarks/README.md`); every figure below "
           "comes from the one run described here.", "",
           f"- command: `{cmd}` (interpreter: `{_short_path(sys.executable)}`), from the repository root",
           f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; the run took "
           f"{elapsed:.0f} s",
           f"- machine: {info['nproc']} CPUs ({info['cpu']}); Python {info['python']}, numpy {info['numpy']}, "
           f"torch {info['torch']}, micrograd {info['micrograd']}",
           f"- environment: OPENBLAS_CORETYPE={info['OPENBLAS_CORETYPE']}, "
           f"OPENBLAS_L2_SIZE={info['OPENBLAS_L2_SIZE']}, as inherited and the same for every participant; "
           "the MLP children set the BLAS thread count and glibc's malloc thresholds, alike for all (below)"]
    if MISSING:
        out.append(f"- not installed, so left out: {', '.join(MISSING)}")
    out += ["",
            "Before any timing, every participant's gradients (tiny ops) and losses (MLP) are checked "
            "against the numpy ones, so each figure is of a run that computed the right thing. Cells read "
            "**best (median)** over the samples: the participants take turns sample by sample, so background "
            "load falls on all alike; the best is the least disturbed figure, the median shows the disturbance. "
            "Ratios use the best. No test asserts on any of these numbers.", ""]
    lines = goals(chains, singles, mlp, deep)
    if lines:
        out += ["**The goals of the issue, against these figures:**", ""] + lines + [""]
    if chains:
        out += [
            "### Tiny ops: forward + backward, microseconds per op", "",
            f"4-element float32 vectors (2x2 matrices for matmul). **Chain**: N = {args.n} ops, then one "
            f"backward; the time of the whole divided by N; {args.repeats} samples. `w` requires grad too, so "
            "both inputs get a gradient. *numpy by hand* is the same forward and backward written out with "
            "numpy arrays, with no graph: the floor for anything built on numpy. micrograd builds the same "
            "computation from one scalar `Value` per element (so its op is 4 scalar ops; 12 for a 2x2 matmul) "
            "and starts backward from the sum of the outputs, as its `backward()` takes one scalar; its "
            "recursive topological sort needs the recursion limit raised for the matmul chain "
            f"(to {10 * args.n}, for this table only). For exp and sum the N ops all read the one leaf `x` "
            "(their results cannot be chained meaningfully) and one `torch.autograd.backward(outputs, grads)` "
            "runs from all N; micrograd calls `backward()` on each of its N sums.", "",
            op_table(chains, CHAINS), "",
            "**One op, one backward**: the op and `backward()` on leaves that require grad, then `.grad = None` "
            f"on each leaf; {args.single_n} calls per sample, {args.repeats} samples. This is what one call "
            "costs, the engine's start-up included.", "",
            op_table(singles, SINGLES), "",
            "Where the time goes (profiled while optimizing; the commits to `node.py`, once `function.py`, and `engine.py` "
            "give before/after figures): numpy's own multiply of 4 floats takes about 0.3 us; around it "
            "autograd_teach builds a dozen Python objects per op (the output Tensor, the node, its edges, "
            "the saved tensors with their versions) and the engine does its bookkeeping per node, all in "
            "Python: that is the autograd_teach column of the chain table. PyTorch does the same work in C++ "
            "(its chain column), but each `backward()` call costs it some 15 us more to start (its single-op "
            "column less its chain column), which is why one op + backward is cheaper here and a long chain "
            "is not. Halving PyTorch would take removing most of those Python objects, i.e. a different design.",
            ""]
        if isinstance(viz, dict):
            out += ["With `autograd_teach.viz.autorecord(True)` (a background recorder that the engine calls "
                    "after every node, as the lessons switch on in their first cell; importing viz records "
                    "nothing), autograd_teach, best (median), microseconds per op, samples alternating:", ""]
            for what, r in viz.items():
                out.append(f"- {what}: recorder off {_cell(r['off'])}, on {_cell(r['on'])}")
            out.append("")
        elif viz:
            out += [f"(autograd_teach.viz did not import, so its recorder's cost is not measured: {viz})", ""]
    if mlp:
        out += ["### MLP training step, milliseconds", "",
                "Two layers, 512 -> 512 -> 512, float32: `h = (x @ w1 + b1).relu()`, "
                "`loss = mse_loss(h @ w2 + b2, y)`, `loss.backward()`, then under `no_grad` "
                "`p -= lr * p.grad; p.grad = None` for each of the four parameters, the same code for "
                "autograd_teach and PyTorch. *numpy by hand* is the same math with the gradients written out "
                "(five products; like autograd it computes no gradient for the input `x`). Each thread count "
                "runs in a child process with OPENBLAS_NUM_THREADS, OMP_NUM_THREADS and MKL_NUM_THREADS set "
                "to it (and `torch.set_num_threads`), for all three alike. numpy and autograd_teach share "
                f"numpy's OpenBLAS; PyTorch has its own BLAS. {args.mlp_steps} steps per participant, in 3 rounds.",
                "",
                "*malloc*: glibc's malloc maps a large array to fresh pages from the OS and gives them back "
                "when it is freed, so each new 1 MB array can cost some 256 page faults; how often depends on "
                "what the process allocated before (importing torch raises glibc's thresholds for good). So "
                "the `kept` rows fix both thresholds for every participant ("
                + ", ".join(f"`{k}={v}`" for k, v in MALLOC_KEPT.items()) +
                "): freed memory is reused, not returned, and what is left is compute and Python overhead. "
                "The `default` rows run glibc as it comes, in a child that does not import torch (no PyTorch "
                "figure there): that is where autograd_teach pays for making about twice as many 1 MB arrays per "
                "step as the numpy code (AccumulateGrad copies the first gradient into a fresh `.grad`, set to "
                "None every step as `zero_grad()` does; `p -= lr * p.grad` computes out of place, then writes "
                "into `p`).", "",
                "| batch | BLAS threads | malloc | autograd_teach | PyTorch | numpy by hand | "
                "autograd_teach / numpy | autograd_teach / PyTorch |", "|---:|---:|---|---:|---:|---:|---:|---:|"]
        for (batch, threads, malloc), r in mlp.items():
            out.append(f"| {batch} | {threads} | {malloc} | {_cell(r.get(AT), 2)} | {_cell(r.get(PT), 2)} | "
                       f"{_cell(r.get(NP), 2)} | {_fmt_ratio(_ratio(r.get(AT), r.get(NP)))} | "
                       f"{_fmt_ratio(_ratio(r.get(AT), r.get(PT)))} |")
        out.append("")
    if deep:
        out += [f"### Backward through a {args.deep_n:,}-op chain", "",
                f"`y = y * w` {args.deep_n:,} times on 4-element tensors (micrograd: 4 scalar chains), then one "
                "backward. Each participant runs in a fresh child process, after a 10-op warm-up (PyTorch's first "
                "backward starts its engine threads). *GC* is the part of build + backward spent in Python's "
                "cyclic garbage collector (timed with `gc.callbacks`), which scans every live graph object "
                "again and again as the graph grows. *Peak RSS growth*: the process's peak resident memory "
                "(VmHWM, reset just before building) less its resident memory before building, so graph and "
                "backward together. *tracemalloc peak*: a second run under tracemalloc (blind to PyTorch's "
                "C++ allocations, hence no figure there).", "",
                "| participant | build (s) | backward (s) | of which GC (s) | peak RSS growth (MB) | "
                "tracemalloc peak (MB) | result |", "|---|---:|---:|---:|---:|---:|---|"]
        for who, r in deep.items():
            result = "ok" if r.get("ok") else r.get("error", "failed")
            if "recursionlimit" in r and who.startswith(MG):
                result += f" (recursion limit {r['recursionlimit']})"
            gc_s = None if who == PT else r.get("gc_s")
            out.append(f"| {who} | {_fmt(r.get('build_s'), 3)} | {_fmt(r.get('backward_s'), 3)} | "
                       f"{_fmt(gc_s, 3)} | {_fmt(r.get('rss_peak_mb'))} | {_fmt(r.get('traced_peak_mb'))} | "
                       f"{result} |")
        out.append("")
    return "\n".join(out)


def write_section(path, section):
    """Replace the `## Core` section of path (up to the next `## `), or add it."""
    intro = ("# Benchmarks\n\nHow fast autograd_teach is, measured beside PyTorch and others. Each section "
             "says the command that produced it, on which machine and when; re-run it to refresh the "
             "figures.\n")
    text = open(path).read() if os.path.exists(path) else intro
    lines = text.splitlines(keepends=True)
    start = next((i for i, l in enumerate(lines) if l.rstrip() == "## Core"), None)
    if start is None:
        new = text.rstrip("\n") + "\n\n" + section.rstrip("\n") + "\n"
    else:
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        tail = "".join(lines[end:])
        new = "".join(lines[:start]) + section.rstrip("\n") + "\n" + ("\n" + tail if tail else "")
    with open(path, "w") as f:
        f.write(new)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", metavar="MD", help="replace the '## Core' section of this markdown file")
    ap.add_argument("--quick", action="store_true", help="few repeats, small deep chain: a smoke run")
    ap.add_argument("--only", default="ops,mlp,deep", help="comma-separated subset of: ops,mlp,deep")
    ap.add_argument("--n", type=int, default=500, help="ops per chain")
    ap.add_argument("--repeats", type=int, default=41, help="samples per tiny-op figure")
    ap.add_argument("--single-n", type=int, default=200, help="op+backward calls per sample")
    ap.add_argument("--mlp-batch", default="512,32", help="comma-separated batch sizes")
    ap.add_argument("--mlp-threads", default="1,2", help="comma-separated BLAS thread counts")
    ap.add_argument("--no-mlp-default-malloc", dest="mlp_default_malloc", action="store_false",
                    help="leave out the MLP rows with glibc's malloc as it comes")
    ap.add_argument("--mlp-steps", type=int, default=21)
    ap.add_argument("--deep-n", type=int, default=100_000)
    ap.add_argument("--deep-child", help=argparse.SUPPRESS)
    ap.add_argument("--mlp-child", help=argparse.SUPPRESS)
    ap.add_argument("--traced", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.deep_child:
        deep_child(args.deep_child, args.deep_n, args.traced)
        return
    if args.mlp_child:
        mlp_child(*map(int, args.mlp_child.split(",")))
        return
    if args.quick:
        args.repeats, args.mlp_steps, args.deep_n, args.single_n = 5, 6, 10_000, 50
    only = set(args.only.split(","))
    if MISSING:
        print(f"bench_core: not installed, left out: {', '.join(MISSING)}", file=sys.stderr)
    t0 = time.perf_counter()
    info = machine()
    chains = singles = mlp = deep = viz = None
    if "ops" in only:
        chains = with_recursion_limit(10 * args.n, lambda: time_cases(CHAINS, args.n, args.repeats, True))
        singles = time_cases(SINGLES, args.single_n, args.repeats, False)
        viz = time_viz_recorder(args.n, args.single_n, max(5, args.repeats // 2))
    if "mlp" in only:
        configs = [(int(b), int(t), "kept") for b in args.mlp_batch.split(",")
                   for t in args.mlp_threads.split(",")]
        if args.mlp_default_malloc:
            configs += [(int(b), 1, "default") for b in args.mlp_batch.split(",")]
        mlp = {c: time_mlp(c[0], 512, args.mlp_steps, c[1], c[2]) for c in configs}
    if "deep" in only:
        deep = time_deep(args.deep_n)
    section = report(args, info, chains, singles, mlp, deep, viz, time.perf_counter() - t0)
    print(section)
    if args.write:
        write_section(args.write, section)
        print(f"bench_core: wrote the '## Core' section of {args.write}", file=sys.stderr)


if __name__ == "__main__":
    main()
