# bool(), float() and int() of one-element tensors; if-statements on tensors.
import torch

print(bool(torch.tensor(1.0)), bool(torch.tensor(0.0)))
print(bool(torch.tensor([0])), bool(torch.tensor([[2]])))
print(float(torch.tensor(2.5)), int(torch.tensor(7)))
x = torch.tensor([1.0, -2.0])
if x.sum() > 0:
    print("positive")
else:
    print("not positive")
if (x > 0).sum() == 1:
    print("one positive entry")
try:
    bool(x > 0)
except Exception as e:
    print(type(e).__name__ + ":", str(e).splitlines()[0])
