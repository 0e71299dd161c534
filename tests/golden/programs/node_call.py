# grad_fn(*grads) runs one node's backward, as a learner's own engine calls it
# (lesson 11): a Tensor back for one edge, a tuple for several, None where an
# input needs no gradient; AccumulateGrad adds into .grad and returns ();
# under grad mode the backward is recorded; the argument count is checked;
# a freed node raises PyTorch's message.
import torch

x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = (x * w).sum()
print(repr(y.grad_fn(torch.tensor(1.))))
m = y.grad_fn.next_functions[0][0]
print(repr(m(torch.ones(2))))
with torch.no_grad():
    print(repr(m(torch.ones(2))))
acc = m.next_functions[0][0]
print(type(acc).__name__, repr(acc(torch.ones(2))), x.grad)
print(repr(acc(torch.ones(2))), x.grad)
z = x * 2
print(repr(z.grad_fn(torch.ones(2))))
e = x.exp()
print(repr(e.grad_fn(torch.ones(2))))
for args in [(), (torch.tensor(1.), torch.tensor(1.))]:
    try:
        y.grad_fn(*args)
    except TypeError as ex:
        print(type(ex).__name__, ex)
u = x.unbind(0)
print(type(u[0].grad_fn).__name__, repr(u[0].grad_fn(torch.tensor(1.), torch.tensor(2.))))
print(repr(u[0].grad_fn(torch.tensor(1.), None)))
a = x.sin()
b = a * 2
b.sum().backward()
try:
    print(a.grad_fn(torch.ones(2)))
except RuntimeError as ex:
    print(type(ex).__name__, ex)
print(x.grad, w.grad)
