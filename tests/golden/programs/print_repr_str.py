# repr, str and f-string formatting of tensors.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
print(repr(x))
print(str(x))
print(f"x = {x}")
print("value:", x.sum())
print(f"{torch.tensor(2.5).item():.2f}", f"{x.sum().item()}")
print([torch.tensor(1.0), torch.tensor([2, 3])])
print((torch.tensor(1), torch.tensor(2.0)))
