#!/usr/bin/env python
"""Instructions per op of two copies of autograd_teach, counted by valgrind.

    python benchmarks/bench_instructions.py BEFORE_ROOT AFTER_ROOT [--jobs 2] [--pytorch]

Time on a shared machine moves by 10-20% from one run to the next; the
number of instructions a run executes does not (valgrind's callgrind counts
them; OpenBLAS kept to one thread, hash seed and address layout fixed). Each
of bench_core.py's tiny-op cases (the chains, and one op + backward) runs 5
and then 15 times 200 ops in a fresh interpreter; (count at 15 - count at 5)
/ 2000 is the cost of one op, imports and first-call caches left out.

Each ROOT holds an `autograd_teach` package (e.g. `git worktree add /tmp/old
c1045cd`). --pytorch adds a column: the same chains run by PyTorch (the
installed torch, one thread), counted the same way. Put both at paths of the same length: the path is hashed into
the interpreter's dicts, which moves the counts by about 1%. Needs valgrind;
no test depends on it.
"""
import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
CHILD = """
import os, sys
os.environ["BENCH_CORE_NO_TORCH"] = "1"
sys.path.insert(0, {here!r})
import bench_core as B
import importlib
T = importlib.import_module(os.environ.get("BENCH_LIBRARY", "autograd_teach"))
if T.__name__ == "torch":
    T.set_num_threads(1)
kind, name, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
case = next(c for c in (B.CHAINS if kind == "chain" else B.SINGLES) if c.name == name)
run, reset, _ = case.tensor_run(T, 200)
for _ in range(2 + reps):
    run(); reset()
"""


def count(root, kind, name, reps):
    library = "torch" if root == "torch" else "autograd_teach"
    env = dict(os.environ, PYTHONPATH=HERE if root == "torch" else os.path.abspath(root), PYTHONHASHSEED="0",
               OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", BENCH_LIBRARY=library)
    cmd = ["setarch", os.uname().machine, "-R", "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
           sys.executable, "-c", CHILD.format(here=HERE), kind, name, str(reps)]
    # cwd "/": `python -c` puts the working directory first on sys.path, before PYTHONPATH
    out = subprocess.run(cmd, env=env, cwd="/", capture_output=True, text=True, check=True).stderr
    return int(re.search(r"I\s+refs:\s+([\d,]+)", out).group(1).replace(",", ""))


def per_op(root, kind, name):
    return (count(root, kind, name, 15) - count(root, kind, name, 5)) / 2000


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--pytorch", action="store_true", help="also count PyTorch's chains")
    args = ap.parse_args()
    sys.path.insert(0, HERE)
    os.environ["BENCH_CORE_NO_TORCH"] = "1"
    import bench_core as B
    cases = [("chain", c.name) for c in B.CHAINS] + [("single", c.name) for c in B.SINGLES]
    jobs = [(root, kind, name) for kind, name in cases for root in (args.before, args.after)]
    if args.pytorch:
        jobs += [("torch", "chain", c.name) for c in B.CHAINS]
    with ThreadPoolExecutor(args.jobs) as pool:
        counts = dict(zip(jobs, pool.map(lambda job: per_op(*job), jobs)))
    torch = " PyTorch | after / PyTorch |" if args.pytorch else ""
    print("| case | before, instructions per op | after | after / before |" + torch)
    print("|---|---|---|---|" + ("---|---|" if args.pytorch else ""))
    for kind, name in cases:
        b, a = counts[(args.before, kind, name)], counts[(args.after, kind, name)]
        label = "chain" if kind == "chain" else "one op + backward"
        p = counts.get(("torch", kind, name))
        extra = f" {p:,.0f} | {a / p:.2f} |" if p else (" | |" if args.pytorch else "")
        print(f"| {label}: {name} | {b:,.0f} | {a:,.0f} | {a / b:.3f} |" + extra)


if __name__ == "__main__":
    main()
