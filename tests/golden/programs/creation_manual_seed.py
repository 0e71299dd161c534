# manual_seed makes the generator repeat itself: compare draws, not values.
import torch

torch.manual_seed(42)
a = torch.rand(5)
b = torch.randn(2, 2)
torch.manual_seed(42)
c = torch.rand(5)
d = torch.randn(2, 2)
print((a == c).tolist())
print((b == d).tolist())
e = torch.rand(5)
print((a == e).tolist())
