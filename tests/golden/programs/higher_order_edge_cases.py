# create_graph off the happy path: empty tensors, shared weights in a loop,
# backward(inputs=...), an in-place change between the two passes, retain_grad.
import warnings

import torch

# PyTorch warns about backward(create_graph=True) once per process: hidden here (see higher_order_backward_create_graph).
warnings.filterwarnings("ignore", message="Using backward\\(\\) with create_graph=True")

e = torch.zeros(0, requires_grad=True)
(ge,) = torch.autograd.grad((e ** 3).sum(), e, create_graph=True)
print(ge, ge.shape)
print(torch.autograd.grad(ge.sum(), e, allow_unused=True))

# a weight shared by every step of a loop
w = torch.tensor(0.5, requires_grad=True)
h = torch.tensor([1.0, -1.0])
for _ in range(4):
    h = (h * w).tanh() + h
loss = (h ** 2).sum()
(gw,) = torch.autograd.grad(loss, w, create_graph=True)
print(gw)
(hw,) = torch.autograd.grad(gw, w)
print(hw)

# backward(inputs=...) with create_graph
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0], requires_grad=True)
(x * x * y).sum().backward(inputs=[x], create_graph=True)
print(x.grad, y.grad)

# an in-place change between the first and the second pass
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 1
c = (b ** 3).sum()
(gb,) = torch.autograd.grad(c, a, create_graph=True)
b.mul_(2)
try:
    torch.autograd.grad(gb.sum(), a)
except RuntimeError as err:
    print(str(err)[:120])

# retain_grad on an intermediate keeps a gradient with history
p = torch.tensor([1.0, 2.0], requires_grad=True)
q = p ** 2
q.retain_grad()
(q ** 2).sum().backward(create_graph=True)
print(q.grad)
print(p.grad)

# float64 and float32 mixed: the gradient comes back in each input's dtype
d = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
f = torch.tensor([3.0, 4.0], requires_grad=True)
gd, gf = torch.autograd.grad((d * f * f).sum(), (d, f), create_graph=True)
print(gd, gf)
print(torch.autograd.grad(gf.sum(), (d, f)))

# broadcasting: the gradient of the broadcast input is summed back with Tensor ops
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
r = torch.tensor([0.5, -1.0], requires_grad=True)
(gr,) = torch.autograd.grad((m * r * r).sum(), r, create_graph=True)
print(gr)
print(torch.autograd.grad(gr.sum(), (m, r)))
