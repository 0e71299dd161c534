# Empty tensors: the mean of nothing is nan without a warning, its gradient is empty,
# and max/min over an empty dim refuse, as in PyTorch.
import torch

x = torch.ones(0, 3, requires_grad=True)
print(x.mean(0, keepdim=True), x.mean(), x.mean(1), torch.ones(2,3).mean((0,1)), torch.tensor([[1.,2.],[3.,5.]]).mean(1), torch.tensor(3.).mean(0))
x.mean().backward(); print(x.grad)
x.grad = None; x.mean(0).sum().backward(); print(x.grad)
x.grad = None; x.mean(1).sum().backward(); print(x.grad)
try: torch.ones(0).min(0)
except Exception as e: print(type(e).__name__, e)
try: torch.ones(2, 0).max(1)
except Exception as e: print(type(e).__name__, e)
