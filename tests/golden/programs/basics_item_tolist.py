# item() and tolist() give Python numbers (exactly representable ones here).
import torch

print(torch.tensor(2.5).item(), type(torch.tensor(2.5).item()).__name__)
print(torch.tensor(7).item(), type(torch.tensor(7).item()).__name__)
print(torch.tensor(True).item())
print(torch.tensor([4.0]).item())
print(torch.tensor([[3]]).item())
print(torch.tensor([1.0, 2.5]).tolist())
print(torch.tensor([[1, 2], [3, 4]]).tolist())
print(torch.tensor(0.5).tolist())
print(torch.tensor([True, False]).tolist())
x = torch.tensor([1.5, 2.0], requires_grad=True)
print(x.sum().item(), x.tolist())
