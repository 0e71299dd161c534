#!/usr/bin/env python
"""d2l's models beside PyTorch, in one process, the two taking turns.

    python benchmarks/bench_d2l.py                  # print the markdown section
    python benchmarks/bench_d2l.py --write docs/benchmarks.md
                                                    # ... and replace its "## d2l training loop" section
    python benchmarks/bench_d2l.py --samples 9      # a quick look
    python benchmarks/bench_d2l.py --only mlp       # one workload (d2l33, mlp, lenet, chains), not for --write

Four measurements, each written once against `T` (autograd_teach or torch):

- d2l 3.3 (concise linear regression): the whole loop as a learner runs it,
  1,000 synthetic examples, a shuffling DataLoader with batch 10,
  nn.Linear(2, 1), MSELoss, SGD(lr=0.03), 3 epochs (300 steps);
- d2l 4.3 (concise MLP): one training step, 784 -> 256 -> 10 with ReLU,
  CrossEntropyLoss(reduction='none') then .mean().backward(), SGD(lr=0.1),
  a batch of 256 28x28 images;
- d2l 6.6 (LeNet): one training step, two sigmoid convolutions with average
  pooling and three linear layers, xavier init, CrossEntropyLoss, SGD(lr=0.9),
  batch 256;
- bench_core.py's chained tiny ops (forward + backward per op, 4 float32
  elements, 2x2 for matmul).

One BLAS/OpenMP thread for both (OPENBLAS_NUM_THREADS, OMP_NUM_THREADS and
MKL_NUM_THREADS set to 1 before numpy or torch load, and
torch.set_num_threads(1)); OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are
reported as found, the same for both (one process). Before timing, both run
each workload and their losses must agree as printed (d2l 3.3: its three
printed lines; the steps: every loss to 5 decimals, and the largest
difference is reported), else the script stops: a figure is never of a run
that computed something else. Samples alternate between the two, so
background load falls on both alike; cells are medians, with wall time and
the thread's CPU time (which other processes' load disturbs less). Nothing
asserts on time.
"""
import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"      # before numpy and torch load their BLAS

import argparse  # noqa: E402
import datetime  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
try:
    import autograd_teach
except ImportError:          # run from a plain checkout
    sys.path.insert(0, ROOT)
    import autograd_teach
import torch  # noqa: E402

torch.set_num_threads(1)
SECTION = "## d2l training loop"


def d2l_concise(T, epochs=3):
    """zh.d2l.ai 3.3, as in tests/golden/programs/d2l_linear_regression_concise.py."""
    T.manual_seed(0)
    true_w, true_b = T.tensor([2, -3.4]), 4.2
    X = T.normal(0, 1, (1000, 2))
    y = T.matmul(X, true_w) + true_b
    y += T.normal(0, 0.01, y.shape)
    features, labels = X, T.reshape(y, (-1, 1))
    data_iter = T.utils.data.DataLoader(T.utils.data.TensorDataset(features, labels), 10, shuffle=True)
    net = T.nn.Sequential(T.nn.Linear(2, 1))
    net[0].weight.data.normal_(0, 0.01)
    net[0].bias.data.fill_(0)
    loss = T.nn.MSELoss()
    trainer = T.optim.SGD(net.parameters(), lr=0.03)
    printed = []
    for epoch in range(epochs):
        for Xb, yb in data_iter:
            l = loss(net(Xb), yb)
            trainer.zero_grad()
            l.backward()
            trainer.step()
        l = loss(net(features), labels)
        printed.append(f"epoch {epoch + 1}, loss {l:f}")
    return printed


def mlp_step(T, batch=256):
    """zh.d2l.ai 4.3's net, loss and trainer; returns one step of train_epoch_ch3."""
    T.manual_seed(0)
    net = T.nn.Sequential(T.nn.Flatten(), T.nn.Linear(784, 256), T.nn.ReLU(), T.nn.Linear(256, 10))

    def init_weights(m):
        if type(m) == T.nn.Linear:
            T.nn.init.normal_(m.weight, std=0.01)
    net.apply(init_weights)
    loss = T.nn.CrossEntropyLoss(reduction="none")
    updater = T.optim.SGD(net.parameters(), lr=0.1)
    X, y = T.rand(batch, 1, 28, 28), T.randint(0, 10, (batch,))

    def step():
        l = loss(net(X), y)
        updater.zero_grad()
        l.mean().backward()
        updater.step()
        return l.mean().item()
    return step


def lenet_step(T, batch=256):
    """zh.d2l.ai 6.6's LeNet, init and trainer; returns one step of train_ch6."""
    T.manual_seed(0)
    nn = T.nn
    net = nn.Sequential(
        nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
        nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
        nn.Flatten(), nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(), nn.Linear(120, 84), nn.Sigmoid(), nn.Linear(84, 10))

    def init_weights(m):
        if type(m) == nn.Linear or type(m) == nn.Conv2d:
            nn.init.xavier_uniform_(m.weight)
    net.apply(init_weights)
    optimizer = T.optim.SGD(net.parameters(), lr=0.9)
    loss = nn.CrossEntropyLoss()
    X, y = T.rand(batch, 1, 28, 28), T.randint(0, 10, (batch,))

    def step():
        optimizer.zero_grad()
        l = loss(net(X), y)
        l.backward()
        optimizer.step()
        return l.item()
    return step


LIBS = (("autograd_teach", autograd_teach), ("PyTorch", torch))


def check_steps(name, make, steps=5):
    """Both run `steps` steps from the same start; their losses must agree to 5 decimals."""
    runs = {lib: make(T) for lib, T in LIBS}
    losses = {lib: [run() for _ in range(steps)] for lib, run in runs.items()}
    a, p = losses["autograd_teach"], losses["PyTorch"]
    if [f"{v:.5f}" for v in a] != [f"{v:.5f}" for v in p]:
        raise SystemExit(f"{name}: the losses differ, nothing timed:\n{losses}")
    return max(abs(x - y) for x, y in zip(a, p)), a


def alternate(runs, samples):
    """{lib: (wall times, CPU times)}: one call of each run per sample, taking turns."""
    out = {lib: ([], []) for lib in runs}
    for _ in range(samples):
        for lib, run in runs.items():
            w, c = time.perf_counter(), time.thread_time()
            run()
            out[lib][1].append(time.thread_time() - c)
            out[lib][0].append(time.perf_counter() - w)
    return out


def chain_runs(n):
    """bench_core.py's chained tiny ops, per op: (case, {lib: run}), the gradients checked alike."""
    sys.path.insert(0, HERE)
    import bench_core as B
    import numpy as np
    cases = []
    for case in B.CHAINS:
        made = {lib: case.tensor_run(T, n) for lib, T in LIBS}
        for run, reset, _ in made.values():
            run()
        grads = {lib: m[2]() for lib, m in made.items()}
        if not all(np.allclose(a, b, rtol=1e-5, equal_nan=True)
                   for a, b in zip(grads["autograd_teach"], grads["PyTorch"])):
            raise SystemExit(f"chain {case.name}: the gradients differ, nothing timed")

        def runner(run, reset):
            def go():
                run()
                reset()
            return go
        cases.append((case, {lib: runner(run, reset) for lib, (run, reset, _) in made.items()}))
    return cases


def median_ms(ts, per=1):
    return statistics.median(ts) * 1e3 / per


def measure(samples, chain_samples, chain_n, only=None):
    """only: None for all, else one of "d2l33", "mlp", "lenet", "chains" (a quick look at one workload)."""
    rows = []
    if only in (None, "d2l33"):
        rows.append(_d2l33_row(samples))
    for key, label, make in (("mlp", "d2l 4.3 MLP step (784-256-10, batch 256, SGD)", mlp_step),
                             ("lenet", "d2l 6.6 LeNet step (batch 256, SGD)", lenet_step)):
        if only in (None, key):
            diff, losses = check_steps(label, make)
            runs = {lib: make(T) for lib, T in LIBS}
            rows.append((label, "ms", alternate(runs, samples * 4), 1,
                         f"5 losses agree to 5 decimals (largest difference {diff:.1e}; first {losses[0]:.6f})"))
    chains = []
    if only in (None, "chains"):
        for case, runs in chain_runs(chain_n):
            chains.append((case, alternate(runs, chain_samples)))
    return rows, chains


def _d2l33_row(samples):
    printed = {lib: d2l_concise(T) for lib, T in LIBS}
    if printed["autograd_teach"] != printed["PyTorch"]:
        raise SystemExit(f"d2l 3.3: the runs differ, nothing timed:\n{printed}")
    return ("d2l 3.3 concise linear regression, whole loop (300 steps, batch 10)", "ms",
            alternate({lib: (lambda T=T: d2l_concise(T)) for lib, T in LIBS}, samples), 1,
            "printed losses identical: " + "; ".join(printed["PyTorch"]))


def ratio(times, k):
    return statistics.median(times["autograd_teach"][k]) / statistics.median(times["PyTorch"][k])


def section(rows, chains, samples, chain_samples, chain_n, took, command, load):
    import numpy
    env = ", ".join(f"{v}={os.environ.get(v, 'unset')}" for v in
                    ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                     "MKL_NUM_THREADS"))
    lines = [SECTION, "",
             "Written by `benchmarks/bench_d2l.py` (what it runs: its docstring); every figure below comes from "
             "the one run described here.", "",
             f"- command: `{command}`, from the repository root",
             f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; the run took {took:.0f} s; "
             f"load average {load[0]:.1f} at the start, {load[1]:.1f} at the end "
             f"({os.cpu_count()} CPUs, shared with other jobs)",
             f"- machine: {platform.machine()}, Python {platform.python_version()}, numpy {numpy.__version__}, "
             f"torch {torch.__version__} (torch.set_num_threads(1))",
             f"- environment, the same for both (one process): {env}", "",
             "Cells: **median** milliseconds over the samples, the two taking turns sample by sample; wall time, "
             "and in brackets the thread's CPU time. Ratios: autograd_teach / PyTorch, wall (CPU).", "",
             "| workload | samples | autograd_teach | PyTorch | ratio | same result |",
             "|---|---:|---:|---:|---:|---|"]
    for label, _, times, per, check in rows:
        a, p = times["autograd_teach"], times["PyTorch"]
        lines.append(f"| {label} | {len(a[0])} | {median_ms(a[0]):.2f} ({median_ms(a[1]):.2f}) | "
                     f"{median_ms(p[0]):.2f} ({median_ms(p[1]):.2f}) | **{ratio(times, 0):.2f}x** "
                     f"({ratio(times, 1):.2f}x) | {check} |")
    lines += ["", "Issue 24's targets against these figures (wall / CPU time):", ""]
    for label, _, times, _, _ in rows:
        goal = GOALS[label[:7]]
        lines.append(f"- {label}: at most {goal}x PyTorch: {_verdict(times, goal)}")
    chain_ratios = [(case.name, ratio(times, 0), ratio(times, 1)) for case, times in chains]
    over = [f"{name} {w:.2f}x / {c:.2f}x" for name, w, c in chain_ratios if max(w, c) > 1.0]
    if chains:
        lines.append(f"- chained per-op figures at most 1.0x PyTorch: "
                     f"{'met' if not over else 'not met for ' + ', '.join(over)}")
    lines += ["", f"Chained tiny ops (bench_core.py's cases: a chain of {chain_n} ops then one backward, "
              f"microseconds per op, {chain_samples} samples each, taking turns):", "",
              "| op | measured as | autograd_teach | PyTorch | ratio |", "|---|---|---:|---:|---:|"]
    for case, times in chains:
        a, p = times["autograd_teach"], times["PyTorch"]
        lines.append(f"| {case.name} | {case.what} | {median_ms(a[0], chain_n) * 1e3:.1f} "
                     f"({median_ms(a[1], chain_n) * 1e3:.1f}) | {median_ms(p[0], chain_n) * 1e3:.1f} "
                     f"({median_ms(p[1], chain_n) * 1e3:.1f}) | **{ratio(times, 0):.2f}x** ({ratio(times, 1):.2f}x) |")
    return "\n".join(lines + [""])


GOALS = {"d2l 3.3": 1.3, "d2l 4.3": 1.3, "d2l 6.6": 2.0}   # issue 24, as multiples of PyTorch's time


def _verdict(times, goal):
    wall, cpu = ratio(times, 0), ratio(times, 1)
    state = "met" if max(wall, cpu) <= goal else ("not met" if min(wall, cpu) > goal else "met in one measure only")
    return f"{state} ({wall:.2f}x / {cpu:.2f}x)"


def write_section(path, text):
    """Replace the section of path (up to the next `## `), or add it at the end."""
    lines = open(path).read().splitlines(keepends=True)
    start = next((i for i, l in enumerate(lines) if l.rstrip() == SECTION), None)
    if start is None:
        new = "".join(lines).rstrip("\n") + "\n\n" + text.rstrip("\n") + "\n"
    else:
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        new = "".join(lines[:start]) + text.rstrip("\n") + "\n" + ("\n" + "".join(lines[end:]) if end < len(lines)
                                                                   else "")
    with open(path, "w") as f:
        f.write(new)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", metavar="MD", help=f"replace the '{SECTION}' section of this markdown file")
    ap.add_argument("--samples", type=int, default=31, help="d2l 3.3 loops per library (the steps get 4x)")
    ap.add_argument("--chain-samples", type=int, default=101)
    ap.add_argument("--chain-n", type=int, default=100)
    ap.add_argument("--only", choices=("d2l33", "mlp", "lenet", "chains"),
                    help="run one workload only (a quick look; --write wants them all)")
    args = ap.parse_args()
    t0, load0 = time.perf_counter(), os.getloadavg()[0]
    if args.write and args.only:
        ap.error("--write replaces the whole section: run every workload")
    rows, chains = measure(args.samples, args.chain_samples, args.chain_n, args.only)
    interpreter = os.path.relpath(sys.executable, ROOT) if sys.executable.startswith(ROOT) else sys.executable
    command = " ".join([f"{interpreter} benchmarks/bench_d2l.py"] + sys.argv[1:])
    text = section(rows, chains, args.samples, args.chain_samples, args.chain_n, time.perf_counter() - t0, command,
                   (load0, os.getloadavg()[0]))
    print(text)
    if args.write:
        write_section(args.write, text)


if __name__ == "__main__":
    main()
