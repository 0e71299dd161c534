"""Record the golden outputs of tests/golden/programs with real PyTorch.

Run from the repo root with the pinned oracle (see `make goldens`):

    python scripts/record_goldens.py              # (re)record every golden
    python scripts/record_goldens.py NAME ...     # only these programs
    python scripts/record_goldens.py --self-check # compare, write nothing

--self-check runs the programs with real torch in reverse order and compares
them with the committed goldens, which checks the harness and that no state
leaks from one program into the next.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
PROGRAMS = GOLDEN / "programs"
EXPECTED = GOLDEN / "expected"
PINNED = "2.13.0"  # keep in step with the Makefile's .venv-oracle pin


def load_runner():
    spec = importlib.util.spec_from_file_location("golden_runner", GOLDEN / "runner.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="program names (default: all)")
    parser.add_argument("--self-check", action="store_true",
                        help="compare real torch with the goldens; write nothing")
    args = parser.parse_args(argv)

    import torch
    import torch._dynamo  # noqa: F401  (loaded now: the runner unloads what a program imports, and torch cannot load it twice)

    if torch.__version__.split("+")[0] != PINNED:
        print(f"refusing: torch {torch.__version__} is not the pinned {PINNED}")
        return 2
    # PyTorch splits a few sums between its threads (BatchNorm's channels-last
    # statistics); kernels/batch_norm_order.py adds in the order of 2 threads,
    # so record with 2 on any machine.
    torch.set_num_threads(2)
    runner = load_runner()

    programs = sorted(PROGRAMS.glob("*.py"))
    if args.names:
        wanted = {n.removesuffix(".py") for n in args.names}
        programs = [p for p in programs if p.stem in wanted]
        missing = wanted - {p.stem for p in programs}
        if missing:
            print("no such program:", ", ".join(sorted(missing)))
            return 2

    if args.self_check:
        bad = []
        for path in reversed(programs):
            golden = EXPECTED / f"{path.stem}.txt"
            expected = golden.read_text(encoding="utf-8").splitlines() if golden.exists() else None
            if runner.run_file(path, torch) != expected:
                bad.append(path.stem)
        print(f"self-check: {len(programs) - len(bad)} of {len(programs)} programs "
              f"match their goldens with torch {torch.__version__}")
        for name in bad:
            print(f"  MISMATCH {name}")
        return 1 if bad else 0

    EXPECTED.mkdir(parents=True, exist_ok=True)
    changed, errored, masked = [], [], []
    for path in programs:
        lines = runner.run_file(path, torch)
        text = "".join(line + "\n" for line in lines)
        golden = EXPECTED / f"{path.stem}.txt"
        if not golden.exists() or golden.read_text(encoding="utf-8") != text:
            changed.append(path.stem)
            golden.write_text(text, encoding="utf-8")
        if runner.parse_masks(path.read_text(encoding="utf-8")):
            masked.append(path.stem)
        # Not wrong in itself (some programs end on purpose with an error),
        # but worth a look when a new program ends this way.
        if lines and re.match(r"[\w.]+(Error|Exception): ", lines[-1]):
            errored.append(f"{path.stem} ({lines[-1]})")

    stale = sorted({p.stem for p in EXPECTED.glob("*.txt")} - {p.stem for p in PROGRAMS.glob("*.py")})
    print(f"recorded {len(programs)} programs with torch {torch.__version__}: "
          f"{len(changed)} golden(s) written or changed")
    for name in changed:
        print(f"  changed {name}")
    print(f"programs with extra masks ({len(masked)}): {', '.join(masked) or '-'}")
    print(f"programs ending on an uncaught error ({len(errored)}):")
    for item in errored:
        print(f"  {item}")
    if stale:
        print("goldens without a program (delete them):", ", ".join(stale))
    return 0


if __name__ == "__main__":
    sys.exit(main())
