"""Forward and backward apart, per op of a 500-op chain: the best of 40 chains.

    PYTHONPATH=<dir holding autograd_teach> python benchmarks/bench_fwd_bwd.py

A quick check used for issue 10 (docs/benchmarks.md); no test asserts on it."""
import sys, time, gc
import numpy as np
import autograd_teach as T
x0 = np.array([0.1, -0.2, 0.3, -0.4], np.float32); w0 = np.array([1., -1., 1., -1.], np.float32)
def run(op, n=500):
    x = T.tensor(x0, requires_grad=True); w = T.tensor(w0, requires_grad=True)
    t0 = time.perf_counter()
    y = x
    for _ in range(n): y = op(y, w)
    t1 = time.perf_counter()
    y.backward(T.ones(4))
    t2 = time.perf_counter()
    return (t1-t0)/n*1e6, (t2-t1)/n*1e6
for name, op in [("mul", lambda y,w: y*w), ("add", lambda y,w: y+w), ("relu", lambda y,w: y.relu())]:
    f, b = zip(*[run(op) for _ in range(40)])
    print(name, "fwd %.2f bwd %.2f" % (min(f), min(b)))
