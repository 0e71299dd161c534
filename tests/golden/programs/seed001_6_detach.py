# Seed 001, 六、detach vs data: the same change through .detach() bumps the
# shared version counter, and backward refuses (the program ends on it).
import torch
a = torch.tensor([1., 2., 3.], requires_grad=True)
out = a.sigmoid()
c = out.detach()
c.zero_()
print(out)
print(out._version)
out.sum().backward()
