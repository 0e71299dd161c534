# torch.einsum: values, grad_fn chains (PyTorch builds it from permute, bmm, sum, ...), gradients, errors.
import torch

a = torch.arange(6.0).reshape(2, 3).requires_grad_()
b = torch.arange(12.0).reshape(3, 4).requires_grad_()
v = torch.arange(3.0).requires_grad_()


def chain(t):
    names, todo = [], [t.grad_fn]
    while todo:
        node = todo.pop(0)
        if node is None:
            continue
        names.append(node.name())
        todo.extend(f for f, _ in node.next_functions if f is not None and f.name() != "torch::autograd::AccumulateGrad")
    return names


cases = [("ij,jk->ik", a, b), ("ij,jk", a, b), ("ij->ji", a), ("ij->", a), ("ii->i", torch.eye(3, requires_grad=True)),
         ("ii", torch.eye(3, requires_grad=True)), ("i,i->", v, v), ("i,j->ij", v, v), ("ij,j->i", a, v),
         ("bij,bjk->bik", torch.ones(2, 2, 3, requires_grad=True), torch.ones(2, 3, 4, requires_grad=True)),
         ("...ij,...jk->...ik", torch.ones(5, 2, 3, requires_grad=True), torch.ones(3, 4, requires_grad=True)),
         ("ij->j", a), ("ij,kj->ik", a, a), ("ij,ij->ij", a, a), ("Ab,bA->", b.T.detach().requires_grad_(), b),
         ("bn,anm,bm->ba", torch.ones(2, 3, requires_grad=True), torch.ones(4, 3, 5, requires_grad=True),
          torch.ones(2, 5, requires_grad=True)),
         ("i j , j k -> i k", a, b), ("ij,jk", a), ("ij,jk->ik", a, a), ("i->ii", v), ("ij->k", a), ("i.j", a),
         ("ij,j1->i", a, v), ("iij->", a), ("ij,ij,ij->", a, a, a)]
for eq, *ops in cases:
    try:
        r = torch.einsum(eq, *ops)
        print(repr(eq), r, chain(r))
        grads = torch.autograd.grad(r.sum(), [o for o in ops], allow_unused=True)
        print("  grads:", [None if g is None else g.tolist() for g in grads])
    except RuntimeError as e:
        print(repr(eq), "RuntimeError:", e)
print(torch.einsum("ij,jk->ik", [a, b]))
print(torch.einsum("ij->i", a.double()))
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad(torch.einsum("ij,jk,ki->", x, x, x), x, create_graph=True)
print(g, torch.autograd.grad(g.sum(), x))
