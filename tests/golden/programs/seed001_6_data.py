# Seed 001, 六、detach vs data: changing the saved output through .data is
# invisible to the autograd engine, so backward runs (with a silently wrong
# gradient: sigmoid's backward uses the zeroed output).
import torch
a = torch.tensor([1., 2., 3.], requires_grad=True)
out = a.sigmoid()
c = out.data
c.zero_()
print(out)
print(out._version)
out.sum().backward()
print(a.grad)
