#!/usr/bin/env python
"""Instructions per call of the numpy kernels behind exp, mm and relu,
counted by valgrind's callgrind (docs/benchmarks.md, "Per op after 89513a0").

    python benchmarks/kernel_instructions.py

Each kernel runs 1,000 and then 3,000 times in a fresh interpreter on
4-element float32 arrays (2x2 for the products); (count at 3,000 - count at
1,000) / 2,000 is one call. Needs valgrind; no test depends on it.
"""
import os
import re
import subprocess
import sys

CHILD = """
import sys, math, numpy as np
try:
    from numpy._core.multiarray import c_einsum
except ImportError:
    from numpy.core.multiarray import c_einsum
F64, F32 = np.float64, np.float32
a = np.array([0.5, 1.0, 2.0, -3.0], F32)
b = np.array([[1.0, 2.0], [3.0, 4.0]], F32)
zero = np.zeros((), F32)
where = getattr(np.where, "_implementation", np.where)
KERNELS = {
    "np.exp(a)  (float32)": lambda: np.exp(a),
    "np.exp(a.astype(float64)).astype(float32)": lambda: np.exp(a.astype(F64)).astype(F32),
    "np.exp(a, dtype=float64).astype(float32)": lambda: np.exp(a, dtype=F64).astype(F32),
    "np.fromiter(map(math.exp, a.tolist()), float32)": lambda: np.fromiter(map(math.exp, a.tolist()), F32, 4),
    "b @ b": lambda: b @ b,
    "c_einsum('ik,kj->ij', b, b, order='C')": lambda: c_einsum("ik,kj->ij", b, b, order="C"),
    "np.maximum(a, 0)": lambda: np.maximum(a, zero),
    "np.where(a < 0, 0, a)": lambda: where(a < zero, zero, a),
}
name, n = sys.argv[1], int(sys.argv[2])
f = KERNELS[name]
for _ in range(n):
    f()
"""
NAMES = re.findall(r'^    "(.+)": lambda', CHILD, re.M)


def count(name, n):
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    cmd = ["setarch", os.uname().machine, "-R", "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
           sys.executable, "-c", CHILD, name, str(n)]
    out = subprocess.run(cmd, env=env, cwd="/", capture_output=True, text=True, check=True).stderr
    return int(re.search(r"I\s+refs:\s+([\d,]+)", out).group(1).replace(",", ""))


def main():
    print("| kernel | instructions per call |")
    print("|---|---|")
    for name in NAMES:
        print(f"| `{name}` | {(count(name, 3000) - count(name, 1000)) / 2000:,.0f} |")


if __name__ == "__main__":
    main()
