# The pointwise functions beyond exp/log/sin/cos: values, grad_fn names and
# gradients, in float32 (PyTorch's bits) and float64, with the edge values a
# learner meets (0, -0, 1, negative inputs where the function is undefined).
import torch

x = torch.tensor([0.5, -0.25, 0.75, 0.1, -0.9], requires_grad=True)
pos = torch.tensor([0.5, 1.0, 2.0, 10.0, 1e-3], requires_grad=True)
for name in ["expm1", "sign", "tan", "exp2", "asin", "acos", "atan", "sinh", "cosh", "erf",
             "floor", "ceil", "round", "trunc", "frac"]:
    y = getattr(x, name)()
    y.sum().backward()
    print(name, y, y.grad_fn.name(), x.grad)
    x.grad = None
for name in ["log1p", "rsqrt", "log2", "log10"]:
    y = getattr(torch, name)(pos)
    y.sum().backward()
    print(name, y, y.grad_fn.name(), pos.grad)
    pos.grad = None
print(torch.tensor([-1.0, 0.0, -0.0, 2.0]).rsqrt(), torch.tensor([-2.0, -1.0]).log1p(), torch.tensor([2.0]).asin())
print(torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5]).round(), torch.tensor([-0.0, 0.0]).sign())
print(torch.tensor([3, -2]).floor(), torch.tensor([3, -2]).sign(), torch.tensor([1, 2]).log2(), torch.tensor([1, 2]).erf())
d = torch.tensor([0.3, -1.7], dtype=torch.float64, requires_grad=True)
(d.erf() * d.atan() + d.expm1().log1p()).sum().backward()
print(d.grad)
print(torch.arcsin(torch.tensor([0.5])), torch.fix(torch.tensor([-1.5])), torch.arctan(torch.tensor(1.0)))
