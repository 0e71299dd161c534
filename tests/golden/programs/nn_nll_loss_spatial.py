# nll_loss and cross_entropy with one class per position: input (N, C, d1, d2, ...),
# target (N, d1, d2, ...), as a segmentation net or a sequence model computes it.
import torch
import torch.nn.functional as F


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0] if str(e) else "")


torch.manual_seed(0)
x = torch.randn(2, 3, 2, 2, dtype=torch.float64, requires_grad=True)
lp = F.log_softmax(x, 1)
target = torch.tensor([[[0, 2], [1, -100]], [[2, 2], [0, 1]]])
w = torch.tensor([0.5, 2.0, 1.0], dtype=torch.float64)
for reduction in ("mean", "sum", "none"):
    for kw in ({}, {"weight": w}, {"ignore_index": 2}, {"weight": w, "ignore_index": 1}):
        loss = F.nll_loss(lp, target.clamp(min=0) if "ignore_index" in kw else target.abs() % 3, reduction=reduction,
                          **kw)
        g, = torch.autograd.grad(loss.sum(), x, retain_graph=True)
        print(reduction, sorted(kw), loss, loss.grad_fn.name(), g[0, :, 0])
print(F.nll_loss(lp, target, reduction="none"))
loss = F.cross_entropy(x, target.clamp(min=0), weight=w)
print(loss, loss.grad_fn.name(), loss.grad_fn.next_functions)
print(F.cross_entropy(x[:, :, 0], target[:, 0].clamp(min=0)), torch.nn.CrossEntropyLoss(ignore_index=0)(x, target.abs() % 3))
print(F.cross_entropy(x, target.clamp(min=0), label_smoothing=0.1, reduction="sum"))

# 3-D (a sequence) and 5-D inputs are viewed as 4-D first; a 'none' loss is viewed back
x3 = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
l3 = F.nll_loss(x3, torch.tensor([[0, 1, 2, 0], [2, 2, 1, 0]]))
print(l3, l3.grad_fn.name(), l3.grad_fn.next_functions)
l3.backward()
print(x3.grad[1])
n3 = F.nll_loss(x3, torch.tensor([[0, 1, 2, 0], [2, 2, 1, 0]]), reduction="none")
print(n3, n3.grad_fn.name(), n3.grad_fn.next_functions[0][0].next_functions)
x5 = torch.randn(1, 2, 2, 1, 2, dtype=torch.float64, requires_grad=True)
l5 = F.nll_loss(x5, torch.tensor([[[[0, 1]], [[1, 1]]]]), reduction="sum")
print(l5, l5.grad_fn.name())
print(F.nll_loss(x5, torch.tensor([[[[0, 1]], [[1, 1]]]]), reduction="none").shape)
t4 = torch.randn(2, 3, 2, 2, dtype=torch.float64, requires_grad=True)
print(F.nll_loss(t4.transpose(2, 3), torch.zeros(2, 2, 2, dtype=torch.long)).grad_fn.next_functions)
print(F.nll_loss(x3.transpose(0, 2), torch.zeros(4, 2, dtype=torch.long)).grad_fn.next_functions[0][0].next_functions)
print([n for n in dir(loss.grad_fn) if n.startswith("_saved")], loss.grad_fn._saved_total_weight)

# what PyTorch refuses
attempt("target size", lambda: F.nll_loss(lp, target[:, :1]))
attempt("target dims", lambda: F.nll_loss(lp, target[0]))
attempt("target dims 4", lambda: F.nll_loss(lp, target.unsqueeze(-1)))
attempt("target out of range", lambda: F.nll_loss(lp, target.abs() + 1))
attempt("negative target", lambda: F.nll_loss(lp, torch.full((2, 2, 2), -1)))
attempt("all ignored", lambda: F.nll_loss(lp, torch.full((2, 2, 2), -100)))
attempt("all ignored, gradient", lambda: torch.autograd.grad(F.nll_loss(lp, torch.full((2, 2, 2), -100)), x)[0].abs().sum())
attempt("empty", lambda: F.nll_loss(torch.zeros(0, 3, 2, 2), torch.zeros(0, 2, 2, dtype=torch.int64)))
attempt("empty sum", lambda: F.nll_loss(torch.zeros(0, 3, 2, 2), torch.zeros(0, 2, 2, dtype=torch.int64), reduction="sum"))
attempt("empty none", lambda: F.nll_loss(torch.zeros(0, 3, 2, 2), torch.zeros(0, 2, 2, dtype=torch.int64), reduction="none"))
attempt("empty 3-d", lambda: F.nll_loss(torch.zeros(2, 3, 0), torch.zeros(2, 0, dtype=torch.int64), reduction="none"))
attempt("weight size", lambda: F.nll_loss(lp, target.abs() % 3, weight=torch.ones(2, dtype=torch.float64)))
attempt("batch", lambda: F.nll_loss(x3, torch.zeros(3, 4, dtype=torch.long)))
attempt("3-d target size", lambda: F.nll_loss(x3, torch.zeros(2, 5, dtype=torch.long)))
attempt("3-d target dims", lambda: F.nll_loss(x3, torch.zeros(2, 4, 1, dtype=torch.long)))
attempt("float target", lambda: F.nll_loss(x3, torch.zeros(2, 4)))
attempt("4-d float target", lambda: F.nll_loss(torch.randn(2, 3, 2, 2), torch.zeros(2, 2, 2)))
attempt("integer input", lambda: F.nll_loss(torch.zeros(2, 3, 2, 2, dtype=torch.long), torch.zeros(2, 2, 2, dtype=torch.long)))
attempt("weight dtype", lambda: F.nll_loss(torch.zeros(2, 3, 2, 2), torch.zeros(2, 2, 2, dtype=torch.long),
                                          weight=torch.ones(3, dtype=torch.float64)))
attempt("reduction", lambda: F.nll_loss(lp, target.abs() % 3, reduction="avg"))

# float32, as a training step computes it
torch.manual_seed(1)
logits = torch.randn(4, 5, 3, 3, requires_grad=True)
labels = torch.randint(0, 5, (4, 3, 3))
loss = F.cross_entropy(logits, labels)
loss.backward()
print(loss.item(), logits.grad[0, :, 0, 0])

# differentiated twice: with create_graph=True the gradient is NllLoss2DBackwardBackward0, linear in the
# upstream gradient and flat in the input (its gradient w.r.t. the input is zeros)
x = torch.randn(2, 3, 2, 2, dtype=torch.float64, requires_grad=True)
for reduction in ("mean", "sum", "none"):
    for kw in ({}, {"weight": w, "ignore_index": 1}):
        tgt = target.clamp(min=0) if "ignore_index" in kw else target
        loss = F.nll_loss(x, tgt, reduction=reduction, **kw)
        v = torch.randn(loss.shape, dtype=torch.float64, requires_grad=True)
        gx, = torch.autograd.grad(loss, x, v, create_graph=True)
        node = gx.grad_fn
        print(reduction, sorted(kw), node.name(), node.next_functions, node._saved_reduction, node._saved_ignore_index,
              node._saved_weight, node._saved_target.shape)
        print(torch.autograd.grad(gx.sum(), x, retain_graph=True)[0].abs().sum())
        gv, = torch.autograd.grad((gx * gx).sum(), v, create_graph=True)
        print(gv, gv.grad_fn.name(), torch.autograd.grad(gv.sum(), v)[0])
        ce = F.cross_entropy(x, tgt, reduction=reduction, **kw)
        g, = torch.autograd.grad(ce.sum(), x, create_graph=True)
        h, = torch.autograd.grad((g * g).sum(), x)
        print(g.grad_fn.name(), g.grad_fn.next_functions[0][0].name(), h[1, :, 0])
g3, = torch.autograd.grad(F.nll_loss(x3, torch.tensor([[0, 1, 2, -100], [2, 2, 1, 0]]), reduction="sum"), x3,
                          create_graph=True)
print(g3.grad_fn.name(), g3.grad_fn.next_functions[0][0].name(), torch.autograd.grad((g3 * x3).sum(), x3)[0][0])
g5, = torch.autograd.grad(F.cross_entropy(x5, torch.tensor([[[[0, 1]], [[1, 1]]]])), x5, create_graph=True)
print(g5.grad_fn.name(), torch.autograd.grad((g5 * g5).sum(), x5)[0])
all_ignored = F.nll_loss(x, torch.full((2, 2, 2), -100))
ga, = torch.autograd.grad(all_ignored, x, create_graph=True)
print(all_ignored, ga.grad_fn.name(), ga.abs().sum(), torch.autograd.grad(ga.sum(), x)[0].abs().sum())
