"""The seed expressions of issue 3, written once for PyTorch and autograd_teach.

Each function takes the ``torch`` module to use (real PyTorch when recording
goldens, ``autograd_teach`` in the tests) and returns ``(output, names)``.
"""


def dot(torch):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = 2 * torch.dot(x, x)
    return y, {"x": x}


def square_mean(torch):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = (3 * (x + 2) ** 2).mean()
    return out, {"x": x}


def detach(torch):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    u = y.detach()
    z = u * x
    return z.sum(), {"x": x}


def control_flow(torch):
    def f(a):
        b = a * 2
        while b.norm() < 1000:
            b = b * 2
        if b.sum() > 0:
            c = b
        else:
            c = 100 * b
        return c

    a = torch.tensor(-0.3, requires_grad=True)
    return f(a), {"a": a}


SEEDS = {"dot": dot, "square_mean": square_mean, "detach": detach, "control_flow": control_flow}
