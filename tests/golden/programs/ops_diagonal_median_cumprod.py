# diagonal (a view), diag, diag_embed, trace, median, kthvalue,
# masked_select, index_add and cumprod (zeros included): values, grad_fn
# names, gradients and errors.
import torch


def attempt(f):
    try:
        print(f())
    except Exception as e:  # noqa: BLE001 - the error is what is printed
        print(type(e).__name__, e)


x = torch.tensor([[1., 2., 3.], [4., 5., 6.], [7., 8., 10.]], requires_grad=True)
cases = {
    "diag2": lambda y: y.diag(), "diag2k": lambda y: y.diag(1), "diag1": lambda y: y[0].diag(),
    "diag1k": lambda y: torch.diag(y[0], -1), "diagonal": lambda y: y.diagonal(),
    "diagonal_off": lambda y: torch.diagonal(y, 1), "diagonal_neg": lambda y: y.diagonal(-1, 1, 0),
    "trace": lambda y: y.trace(), "diag_embed": lambda y: torch.diag_embed(y, 1, 0, 2),
    "rect_diag": lambda y: y[:2].diagonal(), "median": lambda y: y.median(), "median_dim": lambda y: y.median(1),
    "median_keep": lambda y: torch.median(y, 0, keepdim=True), "kth": lambda y: y.kthvalue(2, 0),
    "kth_keep": lambda y: torch.kthvalue(y, 3, keepdim=True), "masked_select": lambda y: y.masked_select(y > 4),
    "masked_select_b": lambda y: y.masked_select(torch.tensor([True, False, True])),
    "index_add": lambda y: y.index_add(0, torch.tensor([0, 0]), torch.ones(2, 3)),
    "index_add_alpha": lambda y: torch.index_add(y, 1, torch.tensor([2]), y[:, :1] * 1, alpha=2.0),
    "cumprod": lambda y: (y * torch.tensor([1., 0., 1.])).cumprod(1), "cumprod0": lambda y: torch.cumprod(y, 0),
}
for name, f in cases.items():
    out = f(x * 1)
    v = out[0] if isinstance(out, tuple) else out
    print(name, out, v.grad_fn.name(), v._base is not None)
    (v * torch.arange(v.numel()).reshape(v.shape).to(v.dtype)).sum().backward()
    print(x.grad)
    x.grad = None
d = (x * 1).diagonal()
print(d.stride(), d.is_contiguous())
with torch.no_grad():
    z = torch.zeros(3, 3)
    z.diagonal().fill_(1)
    print(z)
w = torch.zeros(2, 2, requires_grad=True).clone()
w.diagonal().add_(torch.tensor([1., 2.]))
print(w, w.grad_fn.name())
print(torch.median(torch.tensor([1., 2., 3., 4.])), torch.tensor([[1., 5.], [5., 1.]]).median(1),
      torch.tensor([1., float("nan"), 0.]).median(), torch.tensor([[1., 5.], [5., 1.]]).kthvalue(1))
print(torch.arange(9).reshape(3, 3).trace(), torch.ones(0, 0).trace(), torch.ones(2, 3).diagonal(5),
      torch.tensor([1, 2, 3]).cumprod(0), torch.tensor(2.).cumprod(0))
s = torch.ones(2, 3, requires_grad=True)
z = torch.zeros(3, 3).index_add(0, torch.tensor([1, 1]), s)
z.sum().backward()
print(s.grad, z)
m = torch.tensor([3., 3., 1.], requires_grad=True)
m.median().backward()
print(m.grad)
attempt(lambda: torch.ones(3).trace())
attempt(lambda: torch.ones(2, 2, 2).diag())
attempt(lambda: torch.ones(2, 2).diagonal(0, 1, 1))
attempt(lambda: torch.ones(3).kthvalue(4))
attempt(lambda: torch.ones(3).masked_select(torch.tensor([1, 0, 1])))
attempt(lambda: torch.tensor([]).median())
