# Double backward through F.batch_norm (training and eval, with and without a
# weight): the backward with create_graph=True is one node with three outputs,
# NativeBatchNormBackwardBackward0, with five edges; its gradients.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
xd = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
w = torch.tensor([1.5, -0.5, 2.0], dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64, requires_grad=True)
out = F.batch_norm(xd, None, None, w, b, training=True)
g, = torch.autograd.grad(out.pow(3).sum(), xd, create_graph=True)
print(g)
print(g.grad_fn.next_functions, g.output_nr)
print(torch.autograd.grad(g.pow(2).sum(), (xd, w, b), allow_unused=True))
out = F.batch_norm(xd, None, None, w, b, training=True)
gx, gw = torch.autograd.grad((out * out.detach().exp()).sum(), (xd, w), create_graph=True)
print(gx, gw, gx.grad_fn is gw.grad_fn, gw.output_nr)
(gx.pow(2).sum() + gw.sum()).backward()
print(xd.grad, w.grad)
rm, rv = torch.tensor([0.5, -1.0, 0.0], dtype=torch.float64), torch.tensor([2.0, 0.5, 1.0], dtype=torch.float64)
img = torch.randn(2, 3, 2, 2, dtype=torch.float64, requires_grad=True)
e = F.batch_norm(img, rm, rv, w, None, training=False)
g, = torch.autograd.grad(e.pow(2).sum(), img, create_graph=True)
print(g.grad_fn.name(), torch.autograd.grad(g.pow(2).sum(), (img, w)))
e = F.batch_norm(img, None, None, training=True)
g, = torch.autograd.grad(e.pow(3).sum(), img, create_graph=True)
print(g.grad_fn.next_functions)
print(torch.autograd.grad(g.pow(2).sum(), img))
print("done")
