# amax/amin/logsumexp/nansum, flip/roll/repeat/tile/tril/triu/index_select,
# sort/topk/argsort: values, grad_fn names, gradients (ties, nan, empty) and
# PyTorch's errors.
import torch


def attempt(f):
    try:
        print(f())
    except Exception as e:  # noqa: BLE001 - the error is what is printed
        print(type(e).__name__, e)


x = torch.tensor([[1., 3., 3.], [4., -5., 6.]], requires_grad=True)
cases = {
    "amax": lambda y: y.amax(1), "amax_all": lambda y: y.amax(), "amin": lambda y: torch.amin(y, 0, keepdim=True),
    "logsumexp": lambda y: y.logsumexp(1), "logsumexp_keep": lambda y: torch.logsumexp(y, dim=0, keepdim=True),
    "nansum": lambda y: y.nansum(0), "flip": lambda y: y.flip(0, 1), "fliplr": lambda y: torch.fliplr(y),
    "roll": lambda y: y.roll(1), "roll_dims": lambda y: torch.roll(y, (1, -1), (0, 1)),
    "repeat": lambda y: y.repeat(2, 1, 2), "tile": lambda y: y.tile(2), "tril": lambda y: y.tril(),
    "triu": lambda y: torch.triu(y, 1), "index_select": lambda y: y.index_select(1, torch.tensor([0, 2, 0])),
    "sort": lambda y: y.sort(1), "sort_desc": lambda y: torch.sort(y, dim=0, descending=True),
    "topk": lambda y: y.topk(2), "topk_smallest": lambda y: torch.topk(y, 1, dim=0, largest=False), "mT": lambda y: y.mT,
}
for name, f in cases.items():
    y = f(x * 1)
    out = y[0] if isinstance(y, tuple) else y
    print(name, y, out.grad_fn.name())
    (out * torch.arange(out.numel()).reshape(out.shape)).sum().backward()
    print(x.grad)
    x.grad = None
print(x.argsort(1, descending=True), torch.argsort(x.detach()))
print(torch.tensor([3., float("nan"), 1.]).sort(descending=True), torch.tensor([3., float("nan"), 1.]).sort())
print(torch.tensor([1, 1, 2]).sort(descending=True), torch.tensor([True, False]).sort(descending=True))
print(torch.tensor([1., 2.]).repeat(0, 2), torch.tensor([1., float("nan")]).nansum(),
      torch.tensor([[-float("inf")] * 2]).logsumexp(1), torch.zeros(0, 3).amax(1), torch.zeros(0, 3).logsumexp(0))
z = torch.tensor([1., 2.], requires_grad=True)
z.repeat(0).sum().backward()
print(z.grad)
d = torch.tensor([[1., 3., 3.], [4., -5., 6.]], dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad(d.amax(1).sum() + d.logsumexp(0).sum(), d, create_graph=True)
print(g, g.grad_fn.name())
m = torch.arange(6.).reshape(2, 3)
attempt(lambda: m.index_select(1, torch.tensor([3])))
attempt(lambda: m.index_select(1, torch.tensor([-1])))
attempt(lambda: m.index_select(1, torch.tensor([[0]])))
attempt(lambda: m.index_select(1, torch.tensor([0.])))
attempt(lambda: m.repeat(2))
attempt(lambda: m.roll((1, 2), (0,)))
attempt(lambda: m.roll((1, 2)))
attempt(lambda: m[0].tril())
attempt(lambda: m.flip(2))
attempt(lambda: m.sort(2))
attempt(lambda: m.topk(4))
attempt(lambda: torch.zeros(0, 3).amax(0))
attempt(lambda: torch.tensor([1., 2.]).mT)
attempt(lambda: (torch.tensor(2.).index_select(0, torch.tensor([0])), torch.tensor(2.).repeat(3), torch.tensor(2.).roll(1),
                 torch.tensor(3.).flip(0), torch.tensor(3.).sort(), torch.tensor(3.).topk(1)))
