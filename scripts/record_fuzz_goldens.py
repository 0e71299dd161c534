"""Record the differential fuzz: run the random programs of tests/golden/fuzz.py
(made from its SEED) with real PyTorch and store each program's source and
output in tests/golden/fuzz_cases.json, which tests/test_fuzz.py replays with
autograd_teach.

    python scripts/record_fuzz_goldens.py      # with the pinned torch (make goldens)
"""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
OUT = GOLDEN / "fuzz_cases.json"
PINNED = "2.13.0"  # keep in step with the Makefile's .venv-oracle pin


def load(name):
    spec = importlib.util.spec_from_file_location(f"golden_{name}", GOLDEN / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    import torch

    if torch.__version__.split("+")[0] != PINNED:
        print(f"refusing: torch {torch.__version__} is not the pinned {PINNED}")
        return 2
    runner, fuzz = load("runner"), load("fuzz")
    cases = []
    for name, body in fuzz.programs():
        lines = runner.normalize(runner.run_program(fuzz.PRELUDE + body, torch, filename=name))
        cases.append({"name": name, "body": body, "expected": lines})
    OUT.write_text(json.dumps({"seed": fuzz.SEED, "torch": PINNED, "prelude": fuzz.PRELUDE, "cases": cases},
                              indent=1) + "\n", encoding="utf-8")
    raised = sum(1 for c in cases for line in c["expected"] if " raised " in line)
    print(f"recorded {len(cases)} fuzz programs (seed {fuzz.SEED}) with torch {torch.__version__}: "
          f"{sum(len(c['expected']) for c in cases)} lines, {raised} refusals")
    return 0


if __name__ == "__main__":
    sys.exit(main())
