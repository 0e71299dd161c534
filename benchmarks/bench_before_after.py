#!/usr/bin/env python
"""Per-op cost of two copies of autograd_teach, measured in one run.

    python benchmarks/bench_before_after.py BEFORE_ROOT AFTER_ROOT [--rounds 8]

Each ROOT is a directory that holds an `autograd_teach` package (for
"before", e.g. `git worktree add /tmp/before <commit>` or a copy of the
package taken before a change). The tiny-op cases of bench_core.py (chains
and single op + backward, autograd_teach only) run in child processes, the
two copies taking turns round by round, so that background load falls on
both alike. Prints a markdown table of best (median) microseconds per op.
No test asserts on these numbers.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def child(n_chain, n_single, repeats):
    import bench_core as B
    assert B.autograd_teach.__file__.startswith(os.environ["PYTHONPATH"].split(os.pathsep)[0])
    B.participants = lambda: [B.AT]
    out = {}
    for label, cases, n in (("chain", B.CHAINS, n_chain), ("single", B.SINGLES, n_single)):
        samples = B.time_cases(cases, n, repeats, check=False)
        for name, by_who in samples.items():
            out[f"{label}: {name}"] = by_who[B.AT][0]      # the best of this child's samples
    print(json.dumps(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--repeats", type=int, default=5, help="samples per case in each child")
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--single-n", type=int, default=200)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(args.n, args.single_n, args.repeats)
    runs = {"before": [], "after": []}
    for _ in range(args.rounds):
        for label, root in (("before", args.before), ("after", args.after)):
            env = dict(os.environ, PYTHONPATH=os.path.abspath(root), BENCH_CORE_NO_TORCH="1")
            cmd = [sys.executable, os.path.abspath(__file__), args.before, args.after, "--child",
                   "--repeats", str(args.repeats), "--n", str(args.n), "--single-n", str(args.single_n)]
            res = subprocess.run(cmd, env=env, cwd=HERE, capture_output=True, text=True, check=True)
            runs[label].append(json.loads(res.stdout.strip().splitlines()[-1]))
    print("| case | before: best (median) µs/op | after: best (median) µs/op | after / before (best) |")
    print("|---|---|---|---|")
    for case in runs["before"][0]:
        b = [r[case] for r in runs["before"]]
        a = [r[case] for r in runs["after"]]
        print(f"| {case} | {min(b):.2f} ({statistics.median(b):.2f}) | {min(a):.2f} ({statistics.median(a):.2f}) "
              f"| {min(a) / min(b):.2f} |")


if __name__ == "__main__":
    main()
