# A view made before its base changes in place must see the change: PyTorch re-derives
# the view's grad_fn from the base (AsStridedBackward0). The gradient through the view
# used to miss the in-place op.
import torch
def run(label, f):
    try: print(label, f())
    except Exception as e: print(label, type(e).__name__, str(e)[:80])
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([5.0, 7.0], requires_grad=True)
def c1():
    a = x * 1; b = a[0]; a.mul_(3); b.backward(); g = x.grad; x.grad = None; return b.grad_fn.name(), g
def c2():
    a = x * 1; v = a.view(2); a[1] = 10.0; (v * torch.tensor([1., 2.])).sum().backward(); g = x.grad; x.grad = None; return v.grad_fn.name(), g
def c3():
    a = torch.zeros(2); v = a[0]; a.copy_(w); print(v.requires_grad); v.backward(); g = w.grad; w.grad = None; return v.grad_fn.name(), g
def c4():
    a = x * 1; v1 = a[0]; v2 = a[1:]; v2.mul_(5); (v1 + v2.sum()).backward(); g = x.grad; x.grad = None; return v1.grad_fn.name(), v2.grad_fn.name(), g
def c5():
    a = x * 1; t = a.t() if False else a.unsqueeze(0); s = t[0]; a.add_(w); (s * torch.tensor([3., 4.])).sum().backward(); g = (x.grad, w.grad); x.grad = None; w.grad = None; return s.grad_fn.name(), g
    a = x * 1; b = a[0]
def c7():
    a = x * 1; b = a[:1]; c = b[0]; a.mul_(2); c.backward(); g = x.grad; x.grad = None; return c.grad_fn.name(), b.grad_fn.name(), g
for i, f in enumerate([c1, c2, c3, c4, c5, c7]): run(f"c{i+1}", f)
