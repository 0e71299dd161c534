"""Record PyTorch's tiny matrix products, forward and backward, bit for bit, into
tests/golden/small_mm.json.

Run from the repo root with the pinned oracle (see `make goldens`):

    /work/oracle/bin/python scripts/record_small_mm_goldens.py

Every case of tests/golden/small_mm_cases.py (float32, float64 and ints; K
from 0 to 5 around PyTorch's small-K loop; row-major, transposed and strided
operands as the backward makes them) runs ``x @ w`` and its backward; the
inputs and every result are stored as bytes, so tests/test_small_mm_bits.py
needs no torch.
"""
import importlib.util
import json
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
_spec = importlib.util.spec_from_file_location("small_mm_cases", GOLDEN / "small_mm_cases.py")
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)
SEED = 2026


def encode_results(results):
    """Each result encoded, or {"same_as": name} where it has an earlier one's very bytes
    (x.grad is g @ w.t() itself for a row-major x): the golden stays small."""
    out = {}
    for name, a in results.items():
        earlier = [k for k in out if "same_as" not in out[k] and out[k] == C.encode(a)]
        out[name] = {"same_as": earlier[0]} if earlier else C.encode(a)
    return out


def main():
    rng = np.random.default_rng(SEED)
    records = []
    with np.errstate(all="ignore"):
        for case in C.cases():
            dtype, shape, layouts, values = case
            arrays = C.make_arrays(rng, dtype, shape, values)
            results = C.run_case(torch, case, arrays)
            records.append({"case": [dtype, list(shape), layouts, values],
                            "inputs": [C.encode(a) for a in arrays],
                            "results": encode_results(results)})
    head = json.dumps({"torch": torch.__version__, "seed": SEED})[:-1]
    lines = ",\n".join(json.dumps(r, separators=(",", ":")) for r in records)   # one case a line
    path = GOLDEN / "small_mm.json"
    path.write_text(f'{head}, "cases": [\n{lines}\n]}}\n')
    print(f"wrote {path}: {len(records)} cases, {path.stat().st_size // 1024} KB (torch {torch.__version__})")


if __name__ == "__main__":
    main()
