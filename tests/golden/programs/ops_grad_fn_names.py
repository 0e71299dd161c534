# grad_fn.name() and type(grad_fn).__name__ across many ops.
import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
ops = {
    "add": x + 1, "sub": x - x, "mul": x * x, "div": x / 2, "pow": x ** 2,
    "neg": -x, "exp": x.exp(), "log": x.log(), "sqrt": x.sqrt(), "abs": x.abs(),
    "sin": x.sin(), "cos": x.cos(), "tanh": x.tanh(), "sigmoid": x.sigmoid(),
    "relu": x.relu(), "mm": x.mm(x), "matmul": x @ x, "sum": x.sum(),
    "mean": x.mean(), "view": x.view(4), "t": x.t(), "unsqueeze": x.unsqueeze(0),
}
for name, t in ops.items():
    print(f"{name:10} {t.grad_fn.name():20} {type(t.grad_fn).__name__}")
