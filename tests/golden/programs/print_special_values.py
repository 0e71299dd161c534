# inf and nan from ops print as inf / -inf / nan.
import torch

print(torch.tensor([0.0, 1.0]).log())
print(torch.tensor([-1.0, 4.0]).sqrt())
print(torch.tensor([1.0, -1.0, 0.0]) / 0)
print(torch.tensor(float("inf")))
print(torch.tensor([float("nan"), 2.5]))
