"""Record how PyTorch broadcasts random shape pairs into tests/golden/broadcast.json.

Run from the repo root with the pinned oracle (see `make goldens`):

    /work/oracle-venv/bin/python scripts/record_broadcast_goldens.py

Draws seeded random pairs of shapes (1-4 dims, sizes 1-4; about half of them
do not broadcast) and stores, for `torch.ones(a) + torch.ones(b)`, either the
result's shape or the RuntimeError's message. It also checks that torch gives
the same outcome for every op in OPS, so tests/test_broadcast_properties.py
can check each of them against this one record.
"""
import json
import random
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
PATH = ROOT / "tests" / "golden" / "broadcast.json"
SEED = 2024
COUNT = 400
# add is what is recorded; torch is checked to give the same for the others.
OPS = ["add", "mul", "sub", "div", "pow", "lt", "eq"]


def shape(rng):
    return [rng.randint(1, 4) for _ in range(rng.randint(1, 4))]


def pairs(rng):
    """Half fully random (mostly incompatible), half b made from a's trailing
    dims with some set to 1 (compatible unless a size is then changed)."""
    seen = set()
    while len(seen) < COUNT:
        a = shape(rng)
        if rng.random() < 0.5:
            b = shape(rng)
        else:
            b = [1 if rng.random() < 0.3 else s for s in a[-rng.randint(1, len(a)):]]
            b = [rng.randint(1, 4) for _ in range(rng.randint(0, 1))] + b
            if rng.random() < 0.3:
                b[rng.randrange(len(b))] = rng.randint(1, 4)
            if rng.random() < 0.5:
                a, b = b, a
        key = (tuple(a), tuple(b))
        if key not in seen:
            seen.add(key)
            yield a, b


def outcome(op, a, b):
    try:
        return {"shape": list(getattr(torch.ones(a), op)(torch.ones(b)).shape)}
    except RuntimeError as err:
        return {"error": str(err)}


def main():
    cases = []
    for a, b in pairs(random.Random(SEED)):
        got = outcome("add", a, b)
        for op in OPS:
            assert outcome(op, a, b) == got, (op, a, b)
        cases.append({"a": a, "b": b, **got})
    bad = sum("error" in c for c in cases)
    head = json.dumps({"torch": torch.__version__, "seed": SEED, "ops": OPS})[:-1]
    lines = ",\n".join(json.dumps(c, separators=(",", ":")) for c in cases)   # one pair a line
    PATH.write_text(f'{head}, "cases": [\n{lines}\n]}}\n')
    print(f"wrote {PATH}: {len(cases)} pairs, {bad} incompatible (torch {torch.__version__})")


if __name__ == "__main__":
    main()
