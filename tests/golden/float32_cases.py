"""The float32 ops whose bits are compared with PyTorch's, on fixed input grids.

Shared by scripts/record_float32_goldens.py (real PyTorch writes
tests/golden/float32.json), benchmarks/float32_bits.py (the table in
docs/float32.md) and tests/test_float32_bits.py (autograd_teach), so every side
runs the very same calls: `import autograd_teach as torch` and real torch both
take ``run_case(torch, case, grids)``.

A grid is a 1-D float32 array stored in the golden as bits; a case's input is
``grid[offset:offset + numel].reshape(shape)``. Each case runs the forward,
then ``out.backward(upstream)`` (a slice of the "up" grid), and reports the
output and every input's gradient.
"""

from __future__ import annotations

import numpy as np

N = 256   # elements per grid


def make_grids(seed=2026):
    """The input grids: awkward values first (tiny, huge, negative, near 0,
    near 1, exact halves), the rest seeded normal values. Only the recorder
    calls this; everyone else reads the grids back from the golden."""
    rng = np.random.default_rng(seed)
    special = [0.0, -0.0, 1.0, -1.0, 2.0, 4.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, 1e-45, -1e-45, 1e-38, 1e-30,
               1e-7, -1e-7, 1e-3, 1 - 2 ** -24, 1 + 2 ** -23, -1 + 2 ** -24, 0.1, 0.2, 0.3, -0.1, 1 / 3,
               3.1415927, 2.7182817, 10.0, -10.0, 15.0, -15.0, 20.0, -20.0, 88.0, -88.0, 89.0, -104.0,
               100.0, -100.0, 1e10, -1e10, 1e30, -1e30, 3e38, -3e38, 0.25, 0.75, 1.25, -0.75]
    steps = np.arange(-8, 8.25, 0.25)   # exact quarters: ints and ties
    real = np.concatenate([special, steps, rng.standard_normal(N) * 3])[:N]
    # log, sqrt and fractional powers: the same kinds of values, made positive
    positive = np.abs(np.concatenate([special, steps[steps > 0], rng.standard_normal(N) * 3]))[:N]
    small = np.concatenate([rng.standard_normal(N // 2), rng.uniform(-3, 3, N - N // 2)])   # sums, products
    up = np.concatenate([np.ones(16), rng.standard_normal(N - 16)])    # upstream gradients
    other = np.concatenate([rng.uniform(0.5, 3, N // 2) * rng.choice([-1, 1], N // 2),
                            rng.standard_normal(N - N // 2) * 2])   # second operands (no zeros)
    probs = rng.uniform(0, 1, N)           # targets of the logistic loss
    return {k: np.asarray(v, dtype=np.float32) for k, v in
            dict(real=real, positive=positive, small=small, up=up, other=other, probs=probs).items()}


# -- the cases ---------------------------------------------------------------
# (name, function of (torch, *tensors), [(grid, shape, offset) for each input])
# Inputs of every case require grad, except probs (a loss target).
def _F(torch):
    return torch.nn.functional


UNARY_REAL = {
    "exp": lambda t, x: x.exp(),
    "sin": lambda t, x: x.sin(),
    "cos": lambda t, x: x.cos(),
    "tanh": lambda t, x: x.tanh(),
    "sigmoid": lambda t, x: x.sigmoid(),
    "relu": lambda t, x: x.relu(),
    "abs": lambda t, x: x.abs(),
    "neg": lambda t, x: -x,
    "square": lambda t, x: x ** 2,
    "pow3": lambda t, x: x ** 3,
    "pow-2": lambda t, x: x ** -2,
    "reciprocal": lambda t, x: x.reciprocal(),
    "2/x": lambda t, x: 2 / x,
    "2-x": lambda t, x: 2 - x,
    "2**x": lambda t, x: 2 ** x,
    "x*0.1": lambda t, x: x * 0.1,
    "x/3": lambda t, x: x / 3,
    "x+0.1": lambda t, x: x + 0.1,
    "clamp": lambda t, x: x.clamp(-1, 1),
    "exp().log()": lambda t, x: x.exp().log(),
}
UNARY_POSITIVE = {
    "log": lambda t, x: x.log(),
    "sqrt": lambda t, x: x.sqrt(),
    "pow0.5": lambda t, x: x ** 0.5,
    "pow1.5": lambda t, x: x ** 1.5,
}
BINARY = {
    "add": lambda t, x, y: x + y,
    "sub": lambda t, x, y: x - y,
    "mul": lambda t, x, y: x * y,
    "div": lambda t, x, y: x / y,
    "add alpha": lambda t, x, y: x.add(y, alpha=0.3),
    "sub alpha": lambda t, x, y: x.sub(y, alpha=0.3),
}
# Reductions and products: one case per shape, the sizes a lesson uses and
# the ones where PyTorch's summation order changes (16 lanes, 4 accumulators).
LENGTHS = (1, 2, 3, 4, 5, 7, 8, 9, 10, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 255, 256)
MATRICES = ((2, 3), (3, 2), (4, 5), (8, 8), (5, 17), (17, 5), (16, 16), (10, 20), (3, 64), (64, 3))


def cases():
    out = []
    for name, fn in UNARY_REAL.items():
        out.append((name, fn, [("real", (N,), 0)]))
    for name, fn in UNARY_POSITIVE.items():
        out.append((name, fn, [("positive", (N,), 0)]))
    for name, fn in BINARY.items():
        out.append((name, fn, [("real", (N,), 0), ("other", (N,), 0)]))
    out.append(("pow", lambda t, x, y: x ** y, [("positive", (N - 64,), 64), ("other", (N - 64,), 0)]))
    for n in LENGTHS:
        out.append(("sum", lambda t, x: x.sum(), [("small", (n,), 0)]))
        out.append(("mean", lambda t, x: x.mean(), [("small", (n,), 0)]))
        out.append(("norm", lambda t, x: x.norm(), [("small", (n,), 0)]))
        out.append(("dot", lambda t, x, y: t.dot(x, y), [("small", (n,), 0), ("other", (n,), 0)]))
        out.append(("mse_loss", lambda t, x, y: _F(t).mse_loss(x, y), [("small", (n,), 0), ("other", (n,), 0)]))
        out.append(("bce_with_logits", lambda t, x, y: _F(t).binary_cross_entropy_with_logits(x, y),
                    [("real", (n,), 0), ("probs", (n,), 0)]))
    for r, c in MATRICES:
        out.append(("sum(dim=1)", lambda t, x: x.sum(dim=1), [("small", (r, c), 0)]))
        out.append(("sum(dim=0)", lambda t, x: x.sum(dim=0), [("small", (r, c), 0)]))
        out.append(("mean(dim=1)", lambda t, x: x.mean(dim=1), [("small", (r, c), 0)]))
        out.append(("mean(dim=0)", lambda t, x: x.mean(dim=0), [("small", (r, c), 0)]))
        out.append(("mv", lambda t, m, v: m @ v, [("small", (r, c), 0), ("other", (c,), 0)]))
        out.append(("mm", lambda t, a, b: a @ b, [("small", (r, c), 0), ("other", (c, 3), 0)]))
        out.append(("softmax(dim=1)", lambda t, x: x.softmax(dim=1), [("small", (r, c), 0)]))
        out.append(("softmax(dim=0)", lambda t, x: x.softmax(dim=0), [("small", (r, c), 0)]))
        out.append(("log_softmax(dim=1)", lambda t, x: x.log_softmax(dim=1), [("small", (r, c), 0)]))
        out.append(("log_softmax(dim=0)", lambda t, x: x.log_softmax(dim=0), [("small", (r, c), 0)]))
        out.append(("cross_entropy", lambda t, x: _F(t).cross_entropy(x, t.arange(x.shape[0]) % x.shape[1]),
                    [("small", (r, c), 0)]))
    for n in (10, 25):     # a classifier's batch, 10 classes (25: the loss sum flushes a level at row 16)
        out.append(("cross_entropy", lambda t, x: _F(t).cross_entropy(x, t.arange(x.shape[0]) % x.shape[1]),
                    [("small", (n, 10), 0)]))
    return out


def run_case(torch, case, grids):
    """Run one case; return (output, [gradient of each input]) as numpy float32."""
    _, fn, specs = case
    xs = []
    for grid, shape, offset in specs:
        numel = int(np.prod(shape))
        data = grids[grid][offset:offset + numel].reshape(shape)
        xs.append(torch.tensor(data.tolist(), dtype=torch.float32, requires_grad=grid != "probs"))
    out = fn(torch, *xs)
    up = grids["up"][:out.numel()].reshape(tuple(out.shape))
    out.backward(torch.tensor(up.tolist(), dtype=torch.float32))
    grads = [x.grad.numpy().copy() if x.grad is not None else None for x in xs]
    return out.detach().numpy().copy(), grads


def encode(a):
    """float32 bits as one hex string (8 digits an element, big-endian)."""
    return np.ascontiguousarray(a, dtype=np.float32).reshape(-1).view(np.uint32).astype(">u4").tobytes().hex()


def decode(s, shape=None):
    a = np.frombuffer(bytes.fromhex(s), dtype=">u4").astype(np.uint32).view(np.float32)
    return a if shape is None else a.reshape(shape)


def same_bits(a, b):
    """Elementwise: the very same float32 (any NaN matches any NaN: both print nan)."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    return (a.view(np.uint32) == b.view(np.uint32)) | (np.isnan(a) & np.isnan(b))
