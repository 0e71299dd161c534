# BCEWithLogitsLoss with pos_weight (a rare positive class counted more) and
# weight: the loss and its gradients wrt the logits and the targets, for each
# reduction and broadcast shape; a small multi-label classifier trained with
# it; the node PyTorch records, the module's buffers, and the errors.
import torch
import torch.nn.functional as F
from torch import nn


def attempt(f):
    try:
        print(f())
    except Exception as e:  # noqa: BLE001 - the error is what is printed
        print(type(e).__name__, str(e).splitlines()[0])


torch.manual_seed(0)
logits = torch.randn(4, 3) * 3
targets = (torch.rand(4, 3) > 0.6).float()
soft = torch.rand(4, 3)
for kwargs in [dict(pos_weight=torch.tensor([1.0, 3.0, 0.5])),
               dict(pos_weight=torch.tensor(4.0)),
               dict(pos_weight=torch.rand(4, 3) * 5),
               dict(weight=torch.tensor([0.2, 1.0, 2.0])),
               dict(weight=torch.rand(4, 1), pos_weight=torch.tensor([2.0, 1.0, 0.0])),
               dict(weight=torch.tensor([1.0, 2.0, 3.0]), pos_weight=torch.tensor([1, 2, 3]))]:
    for t in (targets, soft):
        for reduction in ("mean", "sum", "none"):
            x = logits.clone().requires_grad_()
            y = t.clone().requires_grad_()
            loss = F.binary_cross_entropy_with_logits(x, y, reduction=reduction, **kwargs)
            loss.backward(torch.ones_like(loss) if reduction == "none" else None)
            print(sorted(kwargs), reduction, loss, x.grad, y.grad, sep="\n")
            # the gradient wrt the logits takes no transcendental function but
            # sigmoid: to the bit
            print(x.grad.reshape(-1).tolist())

print("-- the node")
loss = F.binary_cross_entropy_with_logits(logits.requires_grad_(), targets, weight=torch.ones(3),
                                          pos_weight=torch.full((3,), 2.0))
print(loss.grad_fn, len(loss.grad_fn.next_functions), loss.grad_fn._saved_weight, loss.grad_fn._saved_pos_weight)
loss = F.binary_cross_entropy_with_logits(logits, targets)
print(loss.grad_fn._saved_weight, loss.grad_fn._saved_pos_weight)
g, = torch.autograd.grad(F.binary_cross_entropy_with_logits(logits, targets, pos_weight=torch.full((3,), 2.0)),
                         logits, create_graph=True)
print(g.grad_fn, g.grad_fn.next_functions[0][0], g.grad_fn.next_functions[0][0].next_functions[0][0])
gg, = torch.autograd.grad(g.sum(), logits)
print(gg)
logits.requires_grad_(False)

print("-- a multi-label classifier, positives 4x rarer, counted 4x more")
torch.manual_seed(1)
X = torch.randn(64, 5)
Y = (X[:, :3] + 0.3 * torch.randn(64, 3) > 1.0).float()
print("positives per class", Y.sum(0))
for pos_weight in [None, torch.tensor([4.0, 4.0, 4.0])]:
    torch.manual_seed(2)
    net = nn.Linear(5, 3)
    loss_fn = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
    opt = torch.optim.SGD(net.parameters(), lr=0.5)
    for step in range(30):
        loss = loss_fn(net(X), Y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0 or step == 29:
            print(step, f"{loss.item():.5f}")
    with torch.no_grad():
        predicted = (net(X) > 0).float()
    print("recall", ((predicted * Y).sum(0) / Y.sum(0)).tolist(), "predicted positives", predicted.sum(0).tolist())

print("-- the module")
m = nn.BCEWithLogitsLoss(weight=torch.ones(3), pos_weight=torch.tensor([1.0, 2.0, 3.0]), reduction="sum")
print(m, m.state_dict(), [n for n, _ in m.named_buffers()], m.reduction)
print(nn.BCEWithLogitsLoss().state_dict())
print(m(torch.zeros(2, 3), torch.ones(2, 3)))

print("-- errors")
x, y = torch.zeros(4, 3), torch.zeros(4, 3)
attempt(lambda: F.binary_cross_entropy_with_logits(x, y, pos_weight=torch.ones(3, requires_grad=True)))
attempt(lambda: F.binary_cross_entropy_with_logits(x, y, weight=torch.ones(3, requires_grad=True)))
attempt(lambda: F.binary_cross_entropy_with_logits(x, y, weight=torch.ones(3, requires_grad=True),
                                                   pos_weight=torch.ones(3, requires_grad=True)))
with torch.no_grad():
    attempt(lambda: F.binary_cross_entropy_with_logits(x, y, pos_weight=torch.ones(3, requires_grad=True)))
attempt(lambda: F.binary_cross_entropy_with_logits(x, y, pos_weight=torch.ones(4)))
attempt(lambda: F.binary_cross_entropy_with_logits(x, y, weight=torch.ones(2)))
attempt(lambda: F.binary_cross_entropy_with_logits(x, y, pos_weight=torch.ones(2, 4, 3)))
attempt(lambda: F.binary_cross_entropy_with_logits(x, y, weight=torch.ones(2, 1, 3)))
attempt(lambda: F.binary_cross_entropy_with_logits(x, torch.zeros(4, 2), pos_weight=torch.ones(3)))
attempt(lambda: F.binary_cross_entropy_with_logits(x, y, pos_weight=torch.ones(3), reduction="avg"))
attempt(lambda: nn.BCEWithLogitsLoss(pos_weight=torch.ones(2))(x, y))
