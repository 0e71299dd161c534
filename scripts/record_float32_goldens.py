"""Record PyTorch's float32 results, bit for bit, into tests/golden/float32.json.

Run from the repo root with the pinned oracle (see `make goldens`):

    /work/oracle/bin/python scripts/record_float32_goldens.py

Every case of tests/golden/float32_cases.py (elementwise ops, reductions,
products, losses) runs forward and backward on fixed float32 grids; the grids,
each output and each input's gradient are stored as float32 bit patterns.
benchmarks/float32_bits.py and tests/test_float32_bits.py compare
autograd_teach's bits with these.
"""
import importlib.util
import json
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
_spec = importlib.util.spec_from_file_location("float32_cases", GOLDEN / "float32_cases.py")
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)


def main():
    grids = C.make_grids()
    cases = []
    for case in C.cases():
        out, grads = C.run_case(torch, case, grids)
        cases.append({"name": case[0], "shape": list(out.shape), "out": C.encode(out),
                      "grads": [None if g is None else C.encode(g) for g in grads]})
    head = {"torch": torch.__version__, "cpu_capability": torch.backends.cpu.get_cpu_capability(),
            "grids": {k: C.encode(v) for k, v in grids.items()}}
    lines = ",\n".join(json.dumps(c, separators=(",", ":")) for c in cases)   # one case a line
    path = GOLDEN / "float32.json"
    path.write_text(json.dumps(head)[:-1] + f', "cases": [\n{lines}\n]}}\n')
    print(f"wrote {path}: {len(cases)} cases, {path.stat().st_size // 1024} KB (torch {torch.__version__})")


if __name__ == "__main__":
    main()
