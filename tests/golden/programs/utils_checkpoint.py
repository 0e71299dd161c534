# torch.utils.checkpoint: the saved tensors are recomputed in backward.
import torch
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

calls = []


def block(x, w):
    calls.append(1)
    return (x * w).sin() * w


x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([0.5, -1.0], requires_grad=True)
y = checkpoint(block, x, w, use_reentrant=False)
print(y, y.grad_fn.name(), [type(f).__name__ for f, _ in y.grad_fn.next_functions], len(calls))
print(y.grad_fn.next_functions[0][0].next_functions[0][0].name())
y.sum().backward()
print(x.grad, w.grad, "forward ran", len(calls), "times")
try:
    y.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:70])
z = checkpoint(block, x, w, use_reentrant=False)
print(z.grad_fn._saved_other)                 # asking for a saved tensor reruns the block
print(len(calls))
g, = torch.autograd.grad(checkpoint(block, x, w, use_reentrant=False).sum(), x, create_graph=True)
print(g, torch.autograd.grad(g.sum(), x))
with torch.no_grad():
    print(checkpoint(block, x, w, use_reentrant=False))
try:
    checkpoint(block, x, w, use_reentrant=False, foo=1)
except TypeError as e:
    print("TypeError:", e)

# the older reentrant variant: one node, and the default (with PyTorch's warning)
y = checkpoint(block, x, w, use_reentrant=True)
print(y, y.grad_fn.name())
y.sum().backward()
print(x.grad, w.grad)
y = checkpoint(block, x, w)
print(y.grad_fn.name())
try:
    checkpoint(block, x, w, use_reentrant=True, foo=1)
except ValueError as e:
    print("ValueError:", e)
print(checkpoint(block, torch.ones(2), torch.ones(2), use_reentrant=True))


# random ops see the same random numbers again
def noisy(t):
    return t * torch.rand(2)


torch.manual_seed(0)
x.grad = None
r = checkpoint(noisy, x, use_reentrant=False)
r.sum().backward()
print(r, x.grad, torch.rand(1))


# a rerun that saves something else is caught
def changes(t):
    calls.append(1)
    return t[:len(calls) % 2 + 1].exp()


try:
    checkpoint(changes, x, use_reentrant=False).sum().backward()
except RuntimeError as e:
    print(type(e).__name__ + ":", str(e).splitlines()[0])

model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 3), torch.nn.Tanh(),
                            torch.nn.Linear(3, 1))
inp = torch.ones(4, 2)
out = checkpoint_sequential(model, 2, inp, use_reentrant=False)
print(out.grad_fn.name())
out.sum().backward()
print([p.grad.sum().item() for p in model.parameters()][:2])
