#!/usr/bin/env python
"""What PyTorch's float32 bits cost per op: each numpy line an op ran before
(commit 8d73426) beside the line it runs now (autograd_teach/kernels/float32.py),
on 4 float32 elements, in microseconds per call. The two take turns, 15
rounds of 20,000 calls each, and the best round counts, so background load
falls on both alike. Needs numpy and the project only:

    python benchmarks/float32_cost.py
"""
import sys
import timeit
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from autograd_teach.kernels.float32 import (cascade_mean, cascade_sum, log, one_minus_square,  # noqa: E402
                                            power, via_float64)

a = np.array([0.5, -1.25, 2.0, 0.75], np.float32)
g = np.array([1.0, -2.0, 0.5, 3.0], np.float32)
p = np.array([0.5, 1.25, 2.0, 0.75], np.float32)
r = np.tanh(a)

KERNELS = [   # (what, before, now)
    ("exp forward", "np.exp(a)", "via_float64(np.exp, a)"),
    ("log forward", "np.log(p)", "log(p)"),
    ("tanh backward", "g * (1 - r * r)", "g * one_minus_square(r)"),
    ("sigmoid forward", "1 / (1 + np.exp(-a))", "1 / (1 + via_float64(np.exp, -a))"),
    ("relu forward", "np.maximum(a, 0)", "np.where(a < 0, 0, a)"),
    ("relu backward", "g * (a > 0)", "np.where(a <= 0, 0, g)"),
    ("sum forward", "a.sum()", "cascade_sum(a)"),
    ("mean forward", "a.mean()", "cascade_mean(a)"),
    ("x ** 3 forward", "a ** 3", "power(a, 3)"),
]


def best(stmt_pair, rounds=15, number=20000):
    times = [[], []]
    for _ in range(rounds):
        for i, stmt in enumerate(stmt_pair):
            times[i].append(timeit.timeit(stmt, number=number, globals=globals()) / number * 1e6)
    return min(times[0]), min(times[1])


def main():
    print("| kernel (4 float32 elements) | before, us | now, us | added, us |")
    print("| --- | ---: | ---: | ---: |")
    for what, before, now in KERNELS:
        t0, t1 = best((before, now))
        print(f"| {what}: `{before}` -> `{now}` | {t0:.2f} | {t1:.2f} | {t1 - t0:+.2f} |")


if __name__ == "__main__":
    main()
