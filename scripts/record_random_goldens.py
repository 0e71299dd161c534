"""Record PyTorch's random numbers into tests/golden/random.json.

Run from the repo root with the pinned oracle:

    /work/oracle-venv/bin/python scripts/record_random_goldens.py
    /work/oracle-venv/bin/python scripts/record_random_goldens.py --self-check

Each case seeds the generator, then makes a sequence of calls (rand, randn,
uniform_, normal_, randint, randperm, a reseed) whose exact values are stored;
tests/test_random.py replays the same sequences on autograd_teach and
compares bit for bit.  Sequences matter as much as single calls: they check
that every call consumes the generator's state exactly as PyTorch does
(32- vs 64-bit draws, the normal sample cached between randn calls, the
>= 16-element randn path that redraws its last 16 uniforms).

The cases are generated from a fixed Python ``random.Random`` seed, so
re-recording produces the same calls.  --self-check re-runs the recorded
calls with torch and compares, writing nothing.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
OUT = GOLDEN / "random.json"
PINNED = "2.13.0"

# sizes around the edges that matter: the scalar normal path (< 16), the
# vectorized one and its recomputed tail (16, 17, 31, 33, ...), the engine's
# 624-word blocks (312 doubles per block, 623/625 words).
SIZES = [0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 20, 31, 32, 33, 47, 48, 100, 311, 312, 313, 623, 624, 625, 1000, 1003]
SEEDS = [0, 1, 2, 3, 7, 42, 123, 1234, 2023, 31337, 2**31 - 1, 2**32 - 1, 2**32, 2**32 + 5,
         67280421310721, 2**63, 2**64 - 1, -1, -12345]


def load_calls():
    spec = importlib.util.spec_from_file_location("random_calls", GOLDEN / "random_calls.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def shape_of(rng, n):
    """A shape with n elements: (n,), or a 2-D/3-D factorization, or ()."""
    if n == 1 and rng.random() < 0.3:
        return []
    divisors = [d for d in range(1, n + 1) if n % d == 0] if n else [1]
    d = rng.choice(divisors)
    if n and rng.random() < 0.5:
        return [d, n // d]
    return [n] if rng.random() < 0.7 else [1, n]


def random_call(rng):
    n = rng.choice(SIZES)
    dtype = rng.choice(["float32", "float32", "float32", "float64", "float64", "float16"])
    kind = rng.choice(["rand", "rand", "randn", "randn", "randn", "randn_size",
                       "uniform_", "normal_", "randint", "randperm"])
    if kind in ("rand", "randn", "randn_size"):
        return {"fn": kind, "shape": shape_of(rng, n), "dtype": dtype}
    if kind == "uniform_":
        a = rng.choice([-1.0, -0.5, 0.0, 0.1, 2.0, -3.25])
        return {"fn": kind, "shape": shape_of(rng, n), "dtype": dtype,
                "a": a, "b": a + rng.choice([0.3, 1.0, 2.0, 7.7, 1e-3])}
    if kind == "normal_":
        return {"fn": kind, "shape": shape_of(rng, n), "dtype": dtype,
                "mean": rng.choice([0.0, 1.0, -2.5, 0.1, 10.0]),
                "std": rng.choice([1.0, 0.5, 0.01, 3.0, 0.1])}
    if kind == "randint":
        low = rng.choice([0, 0, -5, 3, -(2**40)])
        return {"fn": kind, "low": low,
                # PyTorch 2.13 switches to 64-bit draws at range 2**28
                "high": low + rng.choice([1, 2, 10, 100, 2**28 - 1, 2**28, 2**31, 2**32, 2**33 + 1, 2**62]),
                "shape": shape_of(rng, n)}
    return {"fn": "randperm", "n": n}


def build_cases():
    rng = random.Random(20240613)
    cases = []
    # 1. the tutorial basics, one call per seed
    for seed in SEEDS:
        cases.append({"seed": seed, "calls": [{"fn": "rand", "shape": [2, 2], "dtype": "float32"}]})
        cases.append({"seed": seed, "calls": [{"fn": "randn", "shape": [3], "dtype": "float32"}]})
    # 2. hand-written sequences that stress the state between calls
    basics = [
        [("rand", [2, 2]), ("randn", [3]), ("rand", [1, 3]), ("randn", [2, 1])],
        [("randn", [1]), ("randn", [1]), ("randn", [1]), ("rand", [1])],
        [("randn", [15]), ("randn", [16]), ("randn", [1]), ("randn", [17])],
        [("randn", []), ("rand", []), ("randn", []), ("randn", [4, 4])],
        [("rand", [623]), ("rand", [1]), ("rand", [1]), ("randn", [33])],
    ]
    for seed in (0, 42):
        for seq in basics:
            for dtype in ("float32", "float64"):
                cases.append({"seed": seed, "calls": [
                    {"fn": fn, "shape": shape, "dtype": dtype} for fn, shape in seq]})
    # 3. random sequences, with a reseed now and then
    for i in range(100):
        calls = []
        for _ in range(rng.randint(1, 7)):
            if rng.random() < 0.08:
                calls.append({"fn": "manual_seed", "seed": rng.choice(SEEDS)})
            else:
                calls.append(random_call(rng))
        cases.append({"seed": SEEDS[i % len(SEEDS)], "calls": calls})
    # 4. a few big ones, stored as digests
    for seed, n, dtype in [(0, 100000, "float32"), (1, 10000, "float64"), (2, 65537, "float32"),
                           (4, 1001, "float16")]:
        cases.append({"seed": seed, "calls": [{"fn": "randn", "shape": [n], "dtype": dtype},
                                              {"fn": "rand", "shape": [n], "dtype": dtype}]})
    cases.append({"seed": 3, "calls": [{"fn": "randperm", "n": 5000},
                                       {"fn": "randint", "low": 0, "high": 10, "shape": [5000]}]})
    return cases


def record(torch, calls_mod, cases):
    for case in cases:
        torch.manual_seed(case["seed"])
        for call in case["calls"]:
            call.update(calls_mod.summarize(calls_mod.encode(calls_mod.run_call(torch, call))))
    return cases


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--self-check", action="store_true",
                        help="re-run the recorded calls with torch and compare; write nothing")
    args = parser.parse_args(argv)

    import torch

    if torch.__version__.split("+")[0] != PINNED:
        print(f"refusing: torch {torch.__version__} is not the pinned {PINNED}")
        return 2
    calls_mod = load_calls()

    if args.self_check:
        stored = json.loads(OUT.read_text())["cases"]
        fresh = [{"seed": c["seed"], "calls": [{k: v for k, v in call.items()
                                                 if k not in ("values", "count", "sha256", "head")}
                                                for call in c["calls"]]} for c in stored]
        fresh = record(torch, calls_mod, fresh)
        bad = sum(a != b for a, b in zip(stored, fresh))
        print(f"{len(stored)} cases, {bad} differ")
        return 1 if bad else 0

    cases = record(torch, calls_mod, build_cases())
    data = {"torch_version": torch.__version__,
            "cpu_capability": torch.backends.cpu.get_cpu_capability(),
            "cases": cases}
    OUT.write_text(json.dumps(data, indent=None, separators=(",", ":")).replace('{"seed"', '\n{"seed"') + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(cases)} cases, "
          f"{sum(len(c['calls']) for c in cases)} calls")
    return 0


if __name__ == "__main__":
    sys.exit(main())
