# Views made under no_grad of a tensor that requires grad (PyTorch's
# CreationMeta::NO_GRAD_MODE): they require grad but have no history and no
# edge, an in-place op on them with grad mode on is refused, and once their
# base changes in place their grad_fn is invalid.
import torch


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", e)


x = torch.ones(3, requires_grad=True)
y = x * 2
with torch.no_grad():
    v = y[:2]
    lv = x[:2]
print(v.requires_grad, v.grad_fn, v.is_leaf, v._base is y, lv.requires_grad, lv.is_leaf, lv.grad_fn)
print(v, lv, lv.detach().requires_grad)
r = v * 3
print(r.requires_grad, [fn for fn, _ in r.grad_fn.next_functions])
r.sum().backward()
print(x.grad, v.grad)
attempt("mul_ on a no_grad view", lambda: v.mul_(2))
attempt("mul_ on a no_grad view of a leaf", lambda: lv.mul_(2))
attempt("requires_grad_(False)", lambda: lv.requires_grad_(False))
with torch.no_grad():
    v.mul_(2)               # allowed: view and in-place both under no_grad
print(y.detach(), lv)
attempt("grad_fn after the base changed", lambda: v.grad_fn)
print(v)
print(v.requires_grad)
attempt("an op on it", lambda: v * 1)

q = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    vv = q[:2]
vvv = vv[:1]                # a view of it, made with grad mode on: recorded, with no edge
print(vvv.requires_grad, vvv.grad_fn.name(), vvv.grad_fn.next_functions)
attempt("add_ on a view of a no_grad view", lambda: vvv.add_(1))
attempt("add_ on view() of a no_grad view", lambda: vv.view(2).add_(1))
with torch.no_grad():
    a = vv.unsqueeze(0)
attempt("add_ on a no_grad view of a no_grad view", lambda: a.add_(1))
with torch.no_grad():
    vvv.add_(1)
    vv.mul_(2)
print(q)
with torch.set_grad_enabled(False):
    s = q[1:]
attempt("set_grad_enabled(False) view, add_", lambda: s.add_(1))
w = torch.ones(2, 2, requires_grad=True).clone()
with torch.no_grad():
    t = w.t()
attempt("t() then copy_", lambda: t.copy_(torch.zeros(2, 2)))
