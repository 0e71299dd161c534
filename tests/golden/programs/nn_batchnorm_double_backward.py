# Double backward through F.batch_norm (training and eval): the values match
# PyTorch's; the graph of the first backward does not yet (PyTorch records one
# NativeBatchNormBackwardBackward0 node with three outputs; autograd_teach
# records the ops of the rule: tests/test_viz_torch_golden.py KNOWN_DIFFERENCES).
import torch
import torch.nn.functional as F

torch.manual_seed(0)
xd = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
w = torch.tensor([1.5, -0.5, 2.0], dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64, requires_grad=True)
out = F.batch_norm(xd, None, None, w, b, training=True)
g, = torch.autograd.grad(out.pow(3).sum(), xd, create_graph=True)
print(g.detach())
print(torch.autograd.grad(g.pow(2).sum(), (xd, w, b), allow_unused=True))
out = F.batch_norm(xd, None, None, w, b, training=True)
gx, gw = torch.autograd.grad((out * out.detach().exp()).sum(), (xd, w), create_graph=True)
print(gx.detach(), gw.detach())
(gx.pow(2).sum() + gw.sum()).backward()
print(xd.grad, w.grad)
rm, rv = torch.tensor([0.5, -1.0, 0.0], dtype=torch.float64), torch.tensor([2.0, 0.5, 1.0], dtype=torch.float64)
img = torch.randn(2, 3, 2, 2, dtype=torch.float64, requires_grad=True)
e = F.batch_norm(img, rm, rv, w, None, training=False)
g, = torch.autograd.grad(e.pow(2).sum(), img, create_graph=True)
print(torch.autograd.grad(g.sum(), (img, w)))
print("done")
