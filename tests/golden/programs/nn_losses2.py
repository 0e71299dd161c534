# nn.SmoothL1Loss / F.smooth_l1_loss (beta; beta=0 is l1_loss's graph),
# nn.HuberLoss / F.huber_loss (delta, weight), nn.KLDivLoss / F.kl_div (every
# reduction, 'batchmean', log_target, a target that requires grad: the ops
# PyTorch records), F.cosine_similarity and F.normalize (composites: their
# nodes), reprs, warnings, errors, gradients and double-backward nodes.
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.simplefilter("always")
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
t = torch.randn(3, 4) * 2


def show(y):
    print(y)
    print(y.grad_fn.name(), [None if f is None else (f.name(), n) for f, n in y.grad_fn.next_functions])


print(nn.SmoothL1Loss(), nn.SmoothL1Loss(beta=0.5).beta, nn.HuberLoss(delta=2.0), nn.HuberLoss().delta)
print(nn.KLDivLoss(reduction="batchmean", log_target=True), nn.KLDivLoss().log_target)
for red in ["mean", "sum", "none"]:
    show(F.smooth_l1_loss(x, t, reduction=red, beta=0.5))
    show(F.huber_loss(x, t, reduction=red, delta=1.5))
y = F.smooth_l1_loss(x, t, beta=0.5)
print(y.grad_fn._saved_beta, y.grad_fn._saved_self is x, y.grad_fn._saved_target.shape)
y = F.huber_loss(x, t, delta=1.5)
print(y.grad_fn._saved_delta)
show(F.smooth_l1_loss(x, t, beta=0.0))
with warnings.catch_warnings(record=True) as caught:
    show(F.smooth_l1_loss(x, t[0]))
    show(F.huber_loss(t[0].requires_grad_(), x))
print([str(w.message) for w in caught])
show(F.huber_loss(x, t, delta=0.5, weight=torch.full((3, 4), 2.0)))

lp = F.log_softmax(x, 1)
tp = F.softmax(t, 1)
with warnings.catch_warnings(record=True) as caught:
    show(F.kl_div(lp, tp))
print([str(w.message) for w in caught])
for red in ["sum", "none", "batchmean"]:
    show(F.kl_div(lp, tp, reduction=red))
show(F.kl_div(lp, tp.log(), reduction="batchmean", log_target=True))
show(nn.KLDivLoss(reduction="batchmean")(lp, tp))
tt = tp.detach().clone().requires_grad_()
y = F.kl_div(lp, tt, reduction="batchmean")
show(y)
sub = y.grad_fn.next_functions[0][0].next_functions[0][0]
print([f.name() for f, _ in sub.next_functions])
y.backward()
print(tt.grad, x.grad)

x.grad = None
t.requires_grad_()
c = F.cosine_similarity(x, t)
show(c)
print(c.grad_fn._saved_dim, c.grad_fn._saved_keepdim)
div = c.grad_fn.next_functions[0][0].next_functions[0][0]
print(div.name(), [f.name() for f, _ in div.next_functions])
print(div.next_functions[1][0].next_functions[0][0].name())
c.sum().backward()
print(x.grad, t.grad)
c = F.cosine_similarity(x, torch.randn(4, requires_grad=True))
show(c)
print([f.name() for f, _ in c.grad_fn.next_functions[0][0].next_functions[0][0].next_functions])
print(F.cosine_similarity(x, t, dim=0), nn.functional.cosine_similarity(torch.zeros(2, 3), torch.ones(2, 3)))

x.grad = None
n = F.normalize(x)
show(n)
clamp = n.grad_fn.next_functions[1][0].next_functions[0][0]
print(clamp.name(), clamp._saved_min, clamp.next_functions[0][0].name(), clamp.next_functions[0][0]._saved_ord)
show(F.normalize(x, p=1, dim=0))
(n * torch.arange(12.0).reshape(3, 4)).sum().backward()
print(x.grad)
z = torch.zeros(2, 3, requires_grad=True)
F.normalize(z).sum().backward()
print(F.normalize(z), z.grad)

x.grad = None
(F.huber_loss(x, t.detach(), delta=0.5) + F.smooth_l1_loss(x, t.detach(), reduction="sum")).backward()
print(x.grad)
g, = torch.autograd.grad(F.smooth_l1_loss(x, t.detach()), x, create_graph=True)
print(g.grad_fn.name(), [None if f is None else f.name() for f, _ in g.grad_fn.next_functions])
print(torch.autograd.grad((g * g).sum(), x))
g, = torch.autograd.grad(F.huber_loss(x, t.detach(), reduction="none").sum(), x, create_graph=True)
print(g.grad_fn.name(), g.grad_fn._saved_delta)
go = torch.ones((), requires_grad=True)
g, = torch.autograd.grad(F.huber_loss(x, t.detach(), delta=0.3), x, go, create_graph=True)
print(torch.autograd.grad(g.sum(), go))

for bad in (lambda: F.smooth_l1_loss(x, t, beta=-1), lambda: F.huber_loss(x, t, delta=0),
            lambda: F.huber_loss(x, t, reduction="foo"), lambda: F.kl_div(lp, tp, reduction="foo"),
            lambda: F.cosine_similarity(torch.randn(3, 4), torch.randn(3, 5)),
            lambda: F.huber_loss(x, t, weight=torch.ones(4)), lambda: nn.HuberLoss(delta="1")):
    try:
        bad()
    except (RuntimeError, ValueError, TypeError) as e:
        print(type(e).__name__ + ":", e)
print("done")
