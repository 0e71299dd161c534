# nn.Module backward hooks: register_full_backward_hook (grad_input, grad_output,
# may replace grad_input) and register_full_backward_pre_hook (may replace
# grad_output), set up as PyTorch's BackwardHookFunctionBackward nodes; modules
# with two inputs and outputs, an input without grad, a module used twice,
# per-layer gradient norms, wrong return lengths, forward hooks beside them.
import torch
from torch import nn
def attempt(f):
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
lin = nn.Linear(3, 2)
log = []
h1 = lin.register_forward_pre_hook(lambda m, inp: log.append(('pre', type(m).__name__, len(inp), inp[0].shape)))
h2 = lin.register_forward_hook(lambda m, inp, out: log.append(('fwd', len(inp), out.shape)))
x = torch.randn(4, 3, requires_grad=True)
y = lin(x); print(y.grad_fn.name(), log)
h3 = lin.register_full_backward_hook(lambda m, gi, go: log.append(('bwd', [None if g is None else tuple(g.shape) for g in gi], [tuple(g.shape) for g in go])))
y = lin(x); print(y.grad_fn.name(), [n.name() if n else None for n, _ in y.grad_fn.next_functions])
y.sum().backward(); print(log[-1])
h4 = lin.register_full_backward_pre_hook(lambda m, go: log.append(('bpre', len(go))))
lin(x).sum().backward(); print(log[-2:])
# modifying
h5 = lin.register_forward_hook(lambda m, inp, out: out * 0)
print(lin(x))
h5.remove()
h6 = lin.register_forward_pre_hook(lambda m, inp: (inp[0] * 0,))
print(lin(x)); h6.remove()
h7 = lin.register_full_backward_hook(lambda m, gi, go: (gi[0] * 0,))
x.grad = None; lin(x).sum().backward(); print(x.grad)
for h in (h1, h2, h3, h4, h7): h.remove()
x.grad = None; log.clear(); lin(x).sum().backward(); print(log, x.grad.sum())

relu = nn.ReLU()
relu.register_full_backward_hook(lambda m, gi, go: print('relu', gi[0].shape, go[0].shape))
z = torch.randn(3, requires_grad=True); relu(z).sum().backward()
seq = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
seq.register_forward_hook(lambda m, i, o: print('seq fwd', o.shape))
seq(x)

lin.register_forward_hook(lambda m, args, kwargs, out: print('kw', kwargs), with_kwargs=True)
lin(x)
torch.manual_seed(0)
class Two(nn.Module):
    def forward(self, a, b, k=2):
        return a * b * k, a + b
two = Two()
two.register_full_backward_hook(lambda m, gi, go: print('two', gi, go))
two.register_full_backward_pre_hook(lambda m, go: print('two pre', go))
a = torch.tensor([1., 2.], requires_grad=True); b = torch.tensor([3., 4.])
p, q = two(a, b)
print(p.grad_fn.name(), q.grad_fn.name(), p.grad_fn is q.grad_fn, [n.name() if n else None for n, _ in p.grad_fn.next_functions])
(p.sum() + 3 * q.sum()).backward(); print(a.grad)
lin = nn.Linear(2, 2)
lin.register_full_backward_hook(lambda m, gi, go: print('nograd-input', gi, go))
x = torch.ones(1, 2)
lin(x).sum().backward()
lin2 = nn.Linear(2, 1)
lin2.register_full_backward_pre_hook(lambda m, go: (go[0] * 100,))
x = torch.ones(1, 2, requires_grad=True)
lin2(x).sum().backward(); print(x.grad, lin2.weight.grad)
net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
norms = {}
for name, m in net.named_children():
    m.register_full_backward_hook(lambda m, gi, go, name=name: norms.__setitem__(name, [None if g is None else round(g.norm().item(), 4) for g in gi + go]))
y = net(torch.randn(4, 2, requires_grad=True)); y.sum().backward(); print(norms)
lin3 = nn.Linear(2, 2)
lin3.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
attempt(lambda: lin3(torch.ones(1, 2, requires_grad=True)).sum().backward())
shared = nn.Linear(2, 2)
calls = []
shared.register_full_backward_hook(lambda m, gi, go: calls.append(go[0].sum().item()))
z = torch.ones(1, 2, requires_grad=True)
shared(shared(z)).sum().backward(); print(calls)
with torch.no_grad():
    print(shared(z))
print(shared(z).grad_fn.name())
