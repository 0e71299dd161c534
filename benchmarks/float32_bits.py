#!/usr/bin/env python
"""How many float32 results of autograd_teach are PyTorch's, bit for bit.

    python benchmarks/float32_bits.py                   # print the table
    python benchmarks/float32_bits.py --before 8d73426 --write docs/float32.md
                                                        # ... beside the figures of an older commit,
                                                        # and replace the table in docs/float32.md

Runs every case of tests/golden/float32_cases.py (forward, then backward with
a fixed upstream gradient) and compares each float32 element with the bits
PyTorch 2.13 gave (tests/golden/float32.json, from
scripts/record_float32_goldens.py). Per op: the share of output elements and
of gradient elements that are identical (any NaN matches any NaN), and how
many of the arrays print exactly as PyTorch prints them (repr at the default
precision). `--before REV` measures the package as it was at commit REV
(extracted with `git archive`, run in a child process) on today's cases.
Needs numpy and the project only; no torch.
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
_spec = importlib.util.spec_from_file_location("float32_cases", GOLDEN / "float32_cases.py")
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)

BEGIN, END = "<!-- float32 table: begin -->", "<!-- float32 table: end -->"


def load_golden():
    data = json.loads((GOLDEN / "float32.json").read_text())
    grids = {k: C.decode(v) for k, v in data["grids"].items()}
    return grids, data["cases"]


def compare(torch, case, want, grids):
    """For one case: (output same, output total, grads same, grads total,
    arrays printed as PyTorch prints them, arrays)."""
    out, grads = C.run_case(torch, case, grids)
    pairs = [(out, C.decode(want["out"], want["shape"]))]
    pairs += [(g, C.decode(w, g.shape)) for g, w in zip(grads, want["grads"]) if w is not None]
    same = [int(C.same_bits(got, exp).sum()) for got, exp in pairs]
    sizes = [exp.size for _, exp in pairs]
    printed = sum(repr(torch.from_numpy(got)) == repr(torch.from_numpy(exp)) for got, exp in pairs)
    return [same[0], sizes[0], sum(same[1:]), sum(sizes[1:]), printed, len(pairs)]


def measure():
    """{op name: [fwd same, fwd total, bwd same, bwd total, printed ok, arrays]}, summed over its cases."""
    import autograd_teach as torch
    grids, wanted = load_golden()
    table = {}
    for case, want in zip(C.cases(), wanted):
        assert case[0] == want["name"], "tests/golden/float32.json is stale: run make goldens"
        row = table.setdefault(case[0], [0] * 6)
        try:
            counts = compare(torch, case, want, grids)
        except Exception:   # an op an older package (--before) did not have: shown as "-"
            counts = [0] * 6
        for i, v in enumerate(counts):
            row[i] += v
    return table


def measure_at(rev):
    """measure() on the package as committed at rev, in a child process."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "autograd_teach"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        env = dict(os.environ, PYTHONPATH=tmp)
        out = subprocess.run([sys.executable, __file__, "--json"], env=env, check=True,
                             capture_output=True, text=True, cwd=tmp).stdout
        return json.loads(out)


def pct(same, total):
    return "-" if total == 0 else f"{100 * same / total:.1f}%"


def markdown(now, before=None, rev=None):
    lines = []
    if before is not None:
        lines.append(f"| op | output elements | forward, before | forward, now | gradient elements | gradients, "
                     f"before | gradients, now | arrays printed as PyTorch, before | ..., now |")
        lines.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    else:
        lines.append("| op | output elements | forward | gradient elements | gradients | arrays printed as PyTorch |")
        lines.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    totals, totals_before = [0] * 6, [0] * 6
    for name, row in now.items():
        totals = [a + b for a, b in zip(totals, row)]
        cells = [f"`{name}`", str(row[1])]
        if before is not None:
            b = before[name]
            totals_before = [a + x for a, x in zip(totals_before, b)]
            cells += [pct(b[0], b[1]), pct(row[0], row[1]), str(row[3]), pct(b[2], b[3]), pct(row[2], row[3]),
                      f"{b[4]}/{b[5]}", f"{row[4]}/{row[5]}"]
        else:
            cells += [pct(row[0], row[1]), str(row[3]), pct(row[2], row[3]), f"{row[4]}/{row[5]}"]
        lines.append("| " + " | ".join(cells) + " |")
    t, tb = totals, totals_before
    cells = ["**all**", str(t[1])]
    if before is not None:
        cells += [pct(tb[0], tb[1]), pct(t[0], t[1]), str(t[3]), pct(tb[2], tb[3]), pct(t[2], t[3]),
                  f"{tb[4]}/{tb[5]}", f"{t[4]}/{t[5]}"]
    else:
        cells += [pct(t[0], t[1]), str(t[3]), pct(t[2], t[3]), f"{t[4]}/{t[5]}"]
    lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write(path, text):
    doc = Path(path).read_text()
    head, rest = doc.split(BEGIN)
    _, tail = rest.split(END)
    Path(path).write_text(f"{head}{BEGIN}\n{text}\n{END}{tail}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", metavar="REV", help="also measure the package at this git revision")
    ap.add_argument("--write", metavar="MD", help="replace the table between the float32 markers of this file")
    ap.add_argument("--json", action="store_true", help="print the raw counts as JSON (used by --before)")
    args = ap.parse_args()
    now = measure()
    if args.json:
        print(json.dumps(now))
        return
    before = measure_at(args.before) if args.before else None
    text = markdown(now, before, args.before)
    print(text)
    if args.write:
        write(args.write, text)


if __name__ == "__main__":
    main()
