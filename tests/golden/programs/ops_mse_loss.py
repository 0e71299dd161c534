# nn.MSELoss and nn.functional.mse_loss (mean and sum reductions).
import torch
import torch.nn as nn
import torch.nn.functional as F

pred = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
target = torch.tensor([1.5, 2.0, 3.0])
loss_fn = nn.MSELoss()
print(loss_fn)
loss = loss_fn(pred, target)
print(loss)
print(loss.grad_fn.name())
loss.backward()
print(pred.grad)
print(F.mse_loss(pred, target))
print(torch.nn.MSELoss(reduction="sum")(pred, target))
print(F.mse_loss(pred, target, reduction="sum"))
pred.grad = None
F.mse_loss(pred, target, reduction="sum").backward()
print(pred.grad)
