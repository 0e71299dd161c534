# Walking the graph with next_functions: AccumulateGrad for leaves that need
# grad, None for inputs that do not.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
c = torch.tensor([5.0, 6.0])
y = x * w
z = y + c
out = z.sum()
print(out.grad_fn.next_functions)
print(z.grad_fn.next_functions)
print(y.grad_fn.next_functions)
acc = y.grad_fn.next_functions[0][0]
print(acc)
print(type(acc).__name__, acc.name())
print(acc.variable)
print(acc.variable is x, y.grad_fn.next_functions[1][0].variable is w)
print((x * 2).grad_fn.next_functions)
print(acc.next_functions)
