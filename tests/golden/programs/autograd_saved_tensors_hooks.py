# Hooks for saved tensors (PyTorch's tutorial): pack/unpack hooks see every
# tensor an op saves for backward, may keep something else (a scaled copy, a
# key into a store), a custom Function's saved tensors too; errors, disable,
# save_on_cpu, and graph.Node.
import torch
def attempt(f):
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(y.grad_fn._saved_self is x)
def pack_hook(t):
    print("Packing", t)
    return t
def unpack_hook(t):
    print("Unpacking", t)
    return t
a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()
print(a.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 4, lambda t: t / 2):
    z = a.exp()
print(z.grad_fn._saved_result)
a.grad = None; z.sum().backward(); print(a.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: 0, lambda k: 5):
    w = a * b
attempt(lambda: w.sum().backward())
with torch.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t):
    v = a * 3.0
    b2 = a.clone(); u = b2.sin()
b2.mul_(2)
attempt(lambda: u.sum().backward())
stored = {}
def pack_to_store(t):
    k = len(stored); stored[k] = t.detach().clone(); return k
def unpack_from_store(k):
    return stored[k]
with torch.autograd.graph.saved_tensors_hooks(pack_to_store, unpack_from_store):
    q = (a * 2).sin().sum()
print(sorted(stored)); a.grad = None; q.backward(); print(a.grad)
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t); return t * t
    @staticmethod
    def backward(ctx, g):
        t, = ctx.saved_tensors; return 2 * t * g
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    s = Sq.apply(a)
a.grad = None; s.sum().backward(); print(a.grad)
with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    attempt(lambda: torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook).__enter__())
print(isinstance(y.grad_fn, torch.autograd.graph.Node))
with torch.autograd.graph.save_on_cpu():
    r = a * b
attempt(lambda: r.sum().backward())
a.grad = None    # PyTorch keeps what the failed backward accumulated; autograd_teach puts .grad back (test_engine.py)
r2 = a * 3.0
with torch.autograd.graph.save_on_cpu():
    r3 = (a * 1.5).exp()
r3.sum().backward(); print(a.grad)
