# zh.d2l.ai 4.1 plots relu's gradient on torch.arange(-8.0, 8.0, 0.1): its
# value 80 is 4.44e-16 in PyTorch, not 0.0, so the gradient there is 1. The
# values of arange and linspace, bit for bit, over many (start, end, step,
# dtype): negative steps, integer dtypes, float arguments with integer dtypes,
# lengths below, at and above the vector width (8 float32 / 4 float64, taken
# two vectors at a time). Each result is printed as a hash of its bytes and
# its length, a few as values.
import hashlib
import random

import torch

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
print(x[80].item(), x[79].item(), x[-1].item(), len(x))
y = torch.relu(x)
y.backward(torch.ones_like(x))
print(x.grad[76:84])
print(torch.linspace(-1, 1, 7)[3].item(), torch.linspace(0, 1, 11, dtype=torch.float64).tolist())
print(torch.arange(0, 1, 0.1).tolist())
print(torch.arange(0.0, 1.0, 0.1, dtype=torch.float64).tolist())


def digest(t):
    return hashlib.sha1(t.numpy().tobytes()).hexdigest()[:12]


rng = random.Random(8)
dtypes = [torch.float32, torch.float64, torch.int64, torch.int32]
cases = [(-8.0, 8.0, 0.1), (1.0, -2.0, -0.3), (0, 5, 1.5), (0.5, 5.5, 1), (10, 0, -3), (5, 0, -1.5),
         (-2.5, 3.7, 1.2), (2.5, 3.0, 0.0001)]
for n in [1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 65, 100, 1000]:
    s = rng.uniform(-10, 10)
    st = rng.choice([1, -1]) * rng.uniform(1e-3, 2)
    cases.append((s, s + st * n - st * 0.5, st))
cases += [(0.0, 100.0, 1.0), (2.0**24 - 50, 2.0**24 + 50, 1.0), (2.0**24 + 1, 2.0**24 + 80, 1.0),
          (-2.0**24, -2.0**24 + 64, 3.0), (2.0**53 - 40, 2.0**53 + 40, 1.0), (5.0, -300.0, -7.0),
          (0.0, 2.0**24 + 100, 2.0**20)]     # integer values: exact up to 2**24 (float32), 2**53 (float64)
for _ in range(40):
    s = rng.uniform(-100, 100)
    st = rng.choice([1, -1]) * 10 ** rng.uniform(-4, 1)
    cases.append((s, s + st * (rng.randint(0, 300) + rng.random() * 0.99), st))
for start, end, step in cases:
    row = []
    for dt in dtypes:
        try:
            t = torch.arange(start, end, step, dtype=dt)
            row.append(f"{len(t)}:{digest(t)}")
        except ValueError as e:     # int64 and |step| < 1: the step truncates to 0
            row.append(f"ValueError: {e}")
    print("arange", round(start, 4), round(end, 4), round(step, 4), *row)
for _ in range(40):
    a, b = rng.uniform(-100, 100), rng.uniform(-100, 100)
    n = rng.choice([0, 1, 2, 3, 7, 8, 9, 11, 16, 17, 50, rng.randint(0, 500)])
    print("linspace", round(a, 4), round(b, 4), n,
          *(digest(torch.linspace(a, b, n, dtype=dt)) for dt in dtypes))
print(torch.linspace(0, 10, 4, dtype=torch.int64), torch.linspace(-7, 3, 6, dtype=torch.int32))
print(torch.linspace(0, 1, 1), torch.linspace(0, 1, 0), torch.linspace(3, 3, 1))
print(torch.arange(5, 5), torch.arange(0, 5, 1.0).dtype, torch.arange(torch.tensor(3)))
for bad in [lambda: torch.arange(0, 5, -1), lambda: torch.arange(0, 5, 0), lambda: torch.linspace(0, 1, -1),
            lambda: torch.arange(0, float("inf")),
            lambda: torch.arange(0, 5, 0.5, dtype=torch.int32)]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
    else:
        print("no error")
