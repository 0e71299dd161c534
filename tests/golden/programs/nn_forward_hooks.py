# nn.Module forward hooks: a pre-hook that sees (and may replace) the inputs,
# a hook that sees (and may replace) the output, with_kwargs, prepend,
# remove() and the handle as a with block; reading activations by name.
import torch
from torch import nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
log = []
h1 = lin.register_forward_pre_hook(lambda m, inp: log.append(('pre', type(m).__name__, len(inp), inp[0].shape)))
h2 = lin.register_forward_hook(lambda m, inp, out: log.append(('fwd', len(inp), out.shape)))
x = torch.randn(4, 3, requires_grad=True)
y = lin(x); print(y.grad_fn.name(), log)
h5 = lin.register_forward_hook(lambda m, inp, out: out * 0)
print(lin(x))
h5.remove()
h6 = lin.register_forward_pre_hook(lambda m, inp: (inp[0] * 0,))
print(lin(x)); h6.remove()
h7 = lin.register_forward_pre_hook(lambda m, inp: inp[0] * 2)
print(lin(x)); h7.remove()
h1.remove(); h2.remove(); log.clear(); lin(x); print(log)
seq = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
seq.register_forward_hook(lambda m, i, o: print('seq fwd', o.shape))
seq[0].register_forward_hook(lambda m, i, o: print('inner', o.shape))
seq[1].register_forward_hook(lambda m, i, o: print('first'), prepend=False)
seq[1].register_forward_hook(lambda m, i, o: print('prepended'), prepend=True)
seq(x)
lin.register_forward_hook(lambda m, args, kwargs, out: print('kw', kwargs, len(args)), with_kwargs=True)
lin(x)
lin.register_forward_pre_hook(lambda m, args, kwargs: ((args[0] + 1,), kwargs), with_kwargs=True)
print(lin(x))
acts = {}
def save(name):
    def hook(m, i, o): acts[name] = o.detach()
    return hook
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
for n, m in net.named_children(): m.register_forward_hook(save(n))
net(x); print({k: tuple(v.shape) for k, v in acts.items()})
with lin.register_forward_hook(lambda m, i, o: print('ctx')):
    lin(x)
lin(x)
