# unbind, split, chunk: several outputs, ONE node. Each output knows which one
# it is (output_nr), and the edges of later ops say which output they use.
import torch


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", e)


x = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], requires_grad=True)
y = x * 1
a, b = y.chunk(2)
print(a, b)
print(a.grad_fn.name(), a.grad_fn is b.grad_fn, a.output_nr, b.output_nr)
print(a.grad_fn.next_functions)
print(a.grad_fn._saved_dim, a.grad_fn._saved_split_size, a.grad_fn._saved_self_sym_sizes)
print(a._base is y, b._base is y, b._version, y._version)
z = b * 2
print(z.grad_fn.next_functions)
(a.sum() + (b * b).sum()).backward()
print(x.grad)

p, q = y.split([1, 5])
print(p.grad_fn.name(), p.grad_fn._saved_split_sizes, p.grad_fn._saved_dim, q.output_nr)
m = x.view(2, 3) * 1
r0, r1, r2 = m.unbind(1)
print(r0, r2.output_nr, r0.grad_fn.name(), r0.grad_fn._saved_dim)
print((r2 * 3).grad_fn.next_functions)
x.grad = None
(r2 * 3 + r0).sum().backward()
print(x.grad)
print([t.grad_fn.name() for t in y.tensor_split(3)])
print([tuple(t.shape) for t in y.tensor_split([1, 4])])
print([t.output_nr for t in torch.split(y, 4)], len(torch.chunk(y, 4)), len(torch.unbind(m)))
print([tuple(t.shape) for t in m.chunk(4, dim=1)], [tuple(t.shape) for t in m.split(2, -1)])
print(y.split(6)[0].grad_fn.name(), y.split([6])[0].grad_fn.name(), y.chunk(1)[0].grad_fn.name())
print([tuple(t.shape) for t in torch.zeros(0, 3).chunk(2)], [tuple(t.shape) for t in torch.zeros(0, 3).split(2)])

attempt("a.mul_(2)", lambda: a.mul_(2))
attempt("b.add_(1)", lambda: b.add_(1))
attempt("r1.zero_()", lambda: r1.zero_())
attempt("a[0].mul_(2)", lambda: a[0].mul_(2))
attempt("a.view(3).mul_(2)", lambda: a.view(3).mul_(2))
attempt("leaf chunk", lambda: x.chunk(2)[0].mul_(2))
attempt("no grad", lambda: torch.ones(4).chunk(2)[1].mul_(2))
attempt("split(0)", lambda: x.split(0))
attempt("split sizes", lambda: x.split([1, 2]))
attempt("chunk(0)", lambda: x.chunk(0))
attempt("chunk(-1)", lambda: x.chunk(-1))
attempt("unbind 0-d", lambda: torch.tensor(1.0).unbind())
attempt("unbind(1)", lambda: x.unbind(1))
attempt("split(-1)", lambda: x.split(-1))
attempt("split 0-d", lambda: torch.tensor(1.0).split(1))
attempt("chunk 0-d", lambda: torch.tensor(1.0).chunk(1))
attempt("tensor_split(0)", lambda: x.tensor_split(0))
attempt("tensor_split 0-d", lambda: torch.tensor(1.0).tensor_split(1))
attempt("tensor_split past the end", lambda: [tuple(t.shape) for t in x.tensor_split([4, 2, 9])])
attempt("torch.split keyword", lambda: [t.output_nr for t in torch.split(x, split_size_or_sections=4, dim=0)])
