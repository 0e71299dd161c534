# relu and its gradient on the special values, bit for bit: relu(-0.0) is
# -0.0, relu(NaN) the same NaN (sign, payload, signaling or quiet), relu(-inf)
# is +0.0; the gradient is the incoming one where the result is > 0 or NaN,
# else +0.0 (never -0.0, also for a NaN, infinite or negative gradient). Every
# special value against every other, float16/32/64 and ints, 0-d, empty,
# strided, in place, sizes on both sides of where autograd_teach's kernels
# change method (1024 and 16384 elements), and the double backward
# (ThresholdBackwardBackward0, forward and backward). float32 bits are printed
# as hex words, the rest as a hash of the bytes.
import hashlib

import numpy as np
import torch

WORDS = {np.float16: np.uint16, np.float32: np.uint32, np.float64: np.uint64}


def specials(dt):
    """+-0, NaNs (quiet, signaling, both signs, with a payload), +-inf, +-denormal, normals."""
    bits, mant = np.dtype(dt).itemsize * 8, np.finfo(dt).nmant
    sign, exp, quiet = 1 << (bits - 1), ((1 << (bits - 1)) - 1) ^ ((1 << mant) - 1), 1 << (mant - 1)
    words = [0, sign, exp | quiet, sign | exp | quiet, exp | quiet | 5, exp, sign | exp, 1, sign | 1]
    if dt is not np.float16:    # PyTorch's vectorized float16 relu goes through float32, which quiets them (docs/float32.md)
        words += [exp | 1, sign | exp | 3]
    normals = np.array([1.0, -1.0, 2.5, -3.0, np.finfo(dt).max, -np.finfo(dt).max], dt)
    return np.concatenate([np.array(words, WORDS[dt]).view(dt), normals])


def hexes(t):
    a = t.detach().numpy()
    return " ".join(f"{w:0{2 * a.itemsize}x}" for w in a.reshape(-1).view(WORDS[a.dtype.type]))


def digest(t):
    a = t.detach().numpy()
    return f"{a.dtype} {tuple(a.shape)} {hashlib.sha1(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]}"


def show(t):
    return hexes(t) if t.dtype == torch.float32 and t.numel() <= 20 else digest(t)


def relu_and_grad(a, g, view=lambda t: t):
    """relu(view(x)) and x.grad after backward(g's values in y's shape, transposed: not
    contiguous in 2-d), x from the numpy array a."""
    x = torch.from_numpy(a.copy()).requires_grad_()
    y = view(x).relu()
    y.backward(torch.from_numpy(np.resize(g, tuple(y.shape)[::-1]).T))
    return y, x.grad


for dt in (np.float32, np.float64, np.float16):
    s = specials(dt)
    n = len(s)
    y, grad = relu_and_grad(s, s[::-1].copy())
    print(dt.__name__, "relu", show(y))
    print(dt.__name__, "grad", show(grad))
    results, grads = np.repeat(s, n), np.tile(s, n)      # every value against every gradient
    y, grad = relu_and_grad(results, grads)
    for i in range(0, n * n, n) if dt is np.float32 else ():
        print("grad of", hexes(torch.from_numpy(s[i // n:i // n + 1])), "->", hexes(grad[i:i + n]))
    print(dt.__name__, "all pairs", digest(y), digest(grad))
    y, grad = relu_and_grad(np.resize(s, (6, 2 * n)), grads, lambda t: t[1::2, ::3])
    print(dt.__name__, "strided", digest(y), digest(grad))
    y, grad = relu_and_grad(np.resize(s, (6, 2 * n)), grads[::-1], lambda t: t.t())
    print(dt.__name__, "transposed", digest(y), digest(grad))
    for v in s[:4]:
        y, grad = relu_and_grad(np.array(v), np.array(-1.5, dt))
        print(dt.__name__, "0-d", digest(y), digest(grad))
    y, grad = relu_and_grad(s[:0], s[:0])
    print(dt.__name__, "empty", digest(y), digest(grad))
    rng = np.random.default_rng(3)
    for size in (7, 1023, 1024, 1025, 16383, 16384, 16385, 70001):
        a, g = rng.standard_normal(size).astype(dt), rng.standard_normal(size).astype(dt)
        a[rng.integers(0, size, size // 3 + 1)] = rng.choice(s, size // 3 + 1)
        g[rng.integers(0, size, size // 3 + 1)] = rng.choice(s, size // 3 + 1)
        y, grad = relu_and_grad(a, g)
        z = torch.from_numpy(a.copy()).relu_()
        print(dt.__name__, size, digest(y), digest(grad), digest(z) == digest(y))

for dt in (torch.int8, torch.uint8, torch.int32, torch.int64):
    print(dt, torch.tensor([0, 1, -1, 7, -128, 127]).to(dt).relu().tolist())

# The double backward: ThresholdBackwardBackward0's forward and backward.
s = specials(np.float32)
results, grads = np.repeat(s, len(s)), np.tile(s, len(s))
x = torch.from_numpy(results.copy()).requires_grad_()
v = torch.from_numpy(grads.copy()).requires_grad_()
g, = torch.autograd.grad(x.relu(), x, v, create_graph=True)
print(g.grad_fn.name(), digest(g))
g.backward(torch.from_numpy(grads[::-1].copy()))
print("double backward", digest(v.grad), v.grad[:17:4].tolist())
x = torch.tensor([-1.0, 0.0, 2.0, float("nan"), -0.0], requires_grad=True)
v = torch.ones(5, requires_grad=True)
g, = torch.autograd.grad(x.relu(), x, v, create_graph=True)
g.backward(torch.tensor([-1.0, -1.0, -1.0, -1.0, float("nan")]))
print(hexes(g), "|", hexes(v.grad))
