#!/usr/bin/env python
"""The d2l concise training loop (zh.d2l.ai 3.3): autograd_teach beside
PyTorch, in one run.

    python benchmarks/bench_d2l.py                  # print the markdown section
    python benchmarks/bench_d2l.py --write docs/benchmarks.md
                                                    # ... and replace its "## d2l training loop" section

One sample is the whole loop, as a learner runs it: 1,000 synthetic examples,
a TensorDataset and a shuffling DataLoader with batch 10, nn.Sequential(
nn.Linear(2, 1)), MSELoss, optim.SGD(lr=0.03), 3 epochs (300 steps), and the
loss over all examples after each epoch. The two libraries run literally the
same code (`T` is either module) and take turns sample by sample, so
background load falls on both alike. Before timing, both runs' printed losses
are compared: a figure is never of a run that computed something else.
Nothing asserts on time.
"""
import argparse
import datetime
import os
import platform
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
try:
    import autograd_teach
except ImportError:          # run from a plain checkout
    sys.path.insert(0, ROOT)
    import autograd_teach
try:
    import torch
except ImportError:
    torch = None

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


def measure(repeats):
    libs = [("autograd_teach", autograd_teach)] + ([("PyTorch", torch)] if torch else [])
    outputs = {name: d2l_concise(T) for name, T in libs}
    if torch and outputs["autograd_teach"] != outputs["PyTorch"]:
        raise SystemExit(f"the runs differ, nothing timed:\n{outputs}")
    times = {name: [] for name, _ in libs}
    for _ in range(repeats):
        for name, T in libs:
            t0 = time.perf_counter()
            d2l_concise(T)
            times[name].append(time.perf_counter() - t0)
    return outputs["autograd_teach"], times


def section(printed, times, repeats, took, command):
    import numpy
    cell = {name: f"{min(ts) * 1e3:.0f} ({statistics.median(ts) * 1e3:.0f})" for name, ts in times.items()}
    lines = [SECTION, "",
             "Written by `benchmarks/bench_d2l.py`; every figure below comes from the one run described here.", "",
             f"- command: `{command}`, from the repository root",
             f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; the run took {took:.0f} s",
             f"- machine: {os.cpu_count()} CPUs; Python {platform.python_version()}, numpy {numpy.__version__}"
             + (f", torch {torch.__version__}" if torch else ", torch not installed"), "",
             "The whole of zh.d2l.ai 3.3 as a learner runs it: 1,000 synthetic examples, a shuffling "
             "DataLoader with batch 10, `nn.Sequential(nn.Linear(2, 1))`, `MSELoss`, `optim.SGD(lr=0.03)`, "
             "3 epochs (300 steps) and the loss over all examples after each epoch. Both print the same "
             f"losses ({'; '.join(printed)}), checked before timing. Cells: milliseconds per whole loop, "
             f"**best (median)** of {repeats} samples, the two taking turns.", "",
             "| | " + " | ".join(times) + (" | autograd_teach / PyTorch |" if torch else " |"),
             "|---|" + "---:|" * (len(times) + (1 if torch else 0)),
             "| d2l 3.3 training loop | " + " | ".join(cell.values())
             + (f" | {min(times['autograd_teach']) / min(times['PyTorch']):.2f}x |" if torch else " |"), ""]
    if torch:
        ratio = min(times["autograd_teach"]) / min(times["PyTorch"])
        lines.append(f"The goal of issue 8, at most 1.5x PyTorch's time for the whole loop: "
                     f"{'met' if ratio <= 1.5 else 'not met'} ({ratio:.2f}x).")
        lines.append("")
    return "\n".join(lines)


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
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    t0 = time.perf_counter()
    printed, times = measure(args.repeats)
    interpreter = os.path.relpath(sys.executable, ROOT) if sys.executable.startswith(ROOT) else sys.executable
    command = f"{interpreter} benchmarks/bench_d2l.py" + (f" --write {args.write}" if args.write else "")
    text = section(printed, times, args.repeats, time.perf_counter() - t0, command)
    print(text)
    if args.write:
        write_section(args.write, text)


if __name__ == "__main__":
    main()
