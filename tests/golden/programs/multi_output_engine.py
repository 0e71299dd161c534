# How the engine treats a node with several outputs: one gradient slot per
# output, the node runs once with all of them; hooks, retain_grad and
# autograd.grad on output k see slot k.
import torch

x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
y = x * 1
a, b = y.chunk(2)
b.register_hook(lambda g: print("hook b", g))
a.register_hook(lambda g: print("hook a", g))
(a.sum() * 3).backward(retain_graph=True)
print(x.grad)

y = x * 1
a, b = y.chunk(2)
a.retain_grad()
b.retain_grad()
(a.sum() * 3 + (b * a).sum()).backward()
print(a.grad, b.grad, x.grad)

# a hook may change the gradient of its own output only
y = x * 1
a, b = y.chunk(2)
b.register_hook(lambda g: g * 10)
(a.sum() + b.sum()).backward()
print(x.grad)

# the root can be output k of a multi-output node
x.grad = None
u = (x * 1).unbind()
torch.autograd.backward(u[1], torch.tensor(5.0), retain_graph=True)
print(x.grad)
torch.autograd.backward([u[0], u[3]], [torch.tensor(1.0), torch.tensor(2.0)])
print(x.grad)

# autograd.grad w.r.t. an output of unbind captures that output's slot
q = (x * 1).unbind()
f = q[1] * q[2] * 3
print(torch.autograd.grad(f, [q[1], x], retain_graph=True))
print(torch.autograd.grad(f, [q[2], q[0]], allow_unused=True, retain_graph=True))

# create_graph: the double backward of unbind is a stack, of split a cat
xd = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], requires_grad=True)
u = (xd * 1).view(2, 3).unbind(0)
g, = torch.autograd.grad((u[0].exp() + u[1].exp()).sum(), xd, create_graph=True)
print(g)
print(g.grad_fn.next_functions[0][0].next_functions)
g.sum().backward()
print(xd.grad)
s = (xd * 1).split(2)
g, = torch.autograd.grad(s[1].exp().sum() + s[2].exp().sum(), xd, create_graph=True)
print(g, g.grad_fn.name(), g.grad_fn.next_functions[0][0].next_functions)
s = (xd * 1).split([1, 5])
g, = torch.autograd.grad((s[1] * s[0]).sum(), xd, create_graph=True)
print(g, g.grad_fn.next_functions[0][0].name())
