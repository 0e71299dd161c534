#!/usr/bin/env python
"""Per-op cost of two copies of autograd_teach, measured in one process.

    python benchmarks/bench_before_after.py BEFORE_ROOT AFTER_ROOT [--repeats 41]

Each ROOT is a directory that holds an `autograd_teach` package (for
"before", e.g. `git worktree add /tmp/before <commit>`, or a copy of the
package taken before a change). Both copies are imported into this one
process under names of their own (the core imports itself relatively), and
the tiny-op cases of bench_core.py (chains, and one op + backward) run with
the two copies taking turns sample by sample, so that background load falls
on both alike. Prints a markdown table of best (median) microseconds per op.
No test asserts on these numbers.
"""
import argparse
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ["BENCH_CORE_NO_TORCH"] = "1"     # only the two copies take part
import bench_core as B  # noqa: E402


def load_copy(root, alias):
    """Import ROOT/autograd_teach as the package `alias`."""
    init = os.path.join(os.path.abspath(root), "autograd_teach", "__init__.py")
    spec = importlib.util.spec_from_file_location(alias, init, submodule_search_locations=[os.path.dirname(init)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[alias] = module
    spec.loader.exec_module(module)
    return module


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--repeats", type=int, default=41)
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--single-n", type=int, default=200)
    args = ap.parse_args()
    copies = {"before": load_copy(args.before, "autograd_teach_before"),
              "after": load_copy(args.after, "autograd_teach_after")}
    # bench_core's cases run "T" code for its AT and PT participants: make them our two copies.
    B.AT, B.PT = "after", "before"
    B.participants = lambda: ["before", "after"]
    B.tmodule = copies.__getitem__
    rows = []
    for label, cases, n in (("chain", B.CHAINS, args.n), ("one op + backward", B.SINGLES, args.single_n)):
        results = B.time_cases(cases, n, args.repeats, check=False)   # the test suite checks the gradients
        for case in cases:
            (bb, bm), (ab, am) = results[case.name]["before"], results[case.name]["after"]
            rows.append(f"| {label}: {case.name} | {bb:.2f} ({bm:.2f}) | {ab:.2f} ({am:.2f}) | {ab / bb:.2f} |")
    print("| case | before: best (median) µs/op | after: best (median) µs/op | after / before (best) |")
    print("|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
