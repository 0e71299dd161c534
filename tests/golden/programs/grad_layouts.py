# The layout of what backward makes, as strides: a leaf's first .grad is laid
# out as the leaf (transposed, permuted) whatever the gradient's layout, and
# row-major for a leaf that is not dense (expanded, strided); later gradients
# add into it. A matrix product is row-major whatever its operands' layouts,
# and its gradients reach leaves used transposed in the leaves' own layout.
import itertools

import torch


def leaves():
    yield "row-major", torch.arange(6.0).reshape(2, 3)
    yield "transposed", torch.arange(6.0).reshape(3, 2).t()
    yield "permuted", torch.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1)
    yield "expanded", torch.arange(3.0).reshape(1, 3).expand(2, 3)
    yield "strided", torch.arange(24.0).reshape(4, 6)[::2, ::3]


def uses(x):
    """Ways to reach x with gradients of several layouts."""
    yield "x * 2", lambda x: x * 2
    yield "x.t() * 2", lambda x: x.t() * 2 if x.dim() == 2 else x * 2
    yield "x.exp() then sum", lambda x: x.exp()
    yield "(x.t() @ ones).t()", lambda x: (x.t() @ torch.ones(x.shape[0], x.shape[0])).t() if x.dim() == 2 else x * 1


for (kind, base), twice in itertools.product(leaves(), (False, True)):
    x = base.detach().requires_grad_()
    for name, f in uses(x):
        x.grad = None
        for _ in range(2 if twice else 1):
            f(x).sum().backward()
        print(kind, "twice" if twice else "once", name, "leaf", x.stride(), "grad", x.grad.stride(),
              x.grad.is_contiguous(), x.grad.sum().item())

for m, k, n in itertools.product((1, 2, 5), (1, 2, 4, 7), (1, 3, 13)):
    for ta, tb in itertools.product((False, True), repeat=2):
        a = torch.arange(float(m * k)).reshape((k, m) if ta else (m, k)).requires_grad_()
        b = torch.arange(float(k * n)).reshape((n, k) if tb else (k, n)).div(7).requires_grad_()
        y = (a.t() if ta else a).mm(b.t() if tb else b)
        z = (a.t() if ta else a) @ (b.t() if tb else b)
        (y * 2).sum().backward()
        print("mm", (m, k, n), ta, tb, y.stride(), z.stride(), a.grad.stride(), b.grad.stride(),
              f"{y.sum().item():.5g} {a.grad.sum().item():.5g} {b.grad.sum().item():.5g}")   # (layouts here; bits: small_mm)
