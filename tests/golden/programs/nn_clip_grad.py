# torch.nn.utils: clip_grad_norm_ on a small MLP's gradients with several
# max_norms and norm types (the total norm is the norm of the per-tensor
# norms, in float32, so its last digits and the clipped gradients show
# PyTorch's order of summation), None grads skipped, a single tensor, inf
# norm, the non-finite error, clip_grad_value_, parameters_to_vector.
# The gradients are drawn with randn (the same bits on both sides) so that
# the clipping's own float32 arithmetic is what the .item() digits compare;
# the 1-norm (its summation order) and the 3.5-norm (float32 pow) are not
# bit-exact here, so they print 4 digits.
import torch
from torch import nn
from torch.nn.utils import (clip_grad_norm_, clip_grad_value_, parameters_to_vector,
                            vector_to_parameters)


def fresh_grads():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 17), nn.Tanh(), nn.Linear(17, 3))
    for p in model.parameters():
        p.grad = torch.randn(p.shape) * 3
    return model


for max_norm in [100.0, 10.0, 1.0, 0.25, 1e-3]:
    for norm_type in [2.0, 1, 3.5, float("inf")]:
        model = fresh_grads()
        total = clip_grad_norm_(model.parameters(), max_norm, norm_type=norm_type)
        print(max_norm, norm_type, total, total.dtype, total.requires_grad)
        print(model[2].weight.grad[0], model[2].bias.grad, model[0].weight.grad[3])
        again = clip_grad_norm_(model.parameters(), max_norm, norm_type)
        exact = norm_type in (2.0, float("inf"))
        print("after", again.item() if exact else f"{again.item():.4f}", total.item() if exact else "")

print("-- None grads are skipped")
model = fresh_grads()
model[0].weight.grad = None
print(clip_grad_norm_(model.parameters(), 1.0), model[0].weight.grad, model[0].bias.grad[:4])
print("-- a single tensor, foreach")
model = fresh_grads()
print(clip_grad_norm_(model[2].weight, 0.5), model[2].weight.grad[1])
model = fresh_grads()
print(clip_grad_norm_(list(model.parameters()), 0.5, foreach=True), model[2].bias.grad)
print(clip_grad_norm_(list(model.parameters()), 0.5, foreach=False), model[2].bias.grad)
print("-- no gradients at all")
model = nn.Linear(2, 2)
print(clip_grad_norm_(model.parameters(), 1.0))
print(clip_grad_norm_([], 1.0))
print(clip_grad_norm_((p for p in []), 1.0))
print("-- float64")
w = torch.tensor([3.0, 4.0], dtype=torch.float64, requires_grad=True)
w.grad = torch.tensor([0.1, -7.25], dtype=torch.float64)
print(clip_grad_norm_([w], 2.0), w.grad)
print("-- non-finite")
w = torch.tensor([1.0, 2.0], requires_grad=True)
w.grad = torch.tensor([float("inf"), 1.0])
print(clip_grad_norm_([w], 1.0), w.grad)
w.grad = torch.tensor([float("nan"), 1.0])
try:
    clip_grad_norm_([w], 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("caught", e)
w.grad = torch.tensor([float("inf"), 1.0])
try:
    clip_grad_norm_([w], 1.0, norm_type=1, error_if_nonfinite=True)
except RuntimeError as e:
    print("caught", e)
print("-- clip_grad_value_")
model = fresh_grads()
print(clip_grad_value_(model.parameters(), 0.5), model[2].weight.grad[0], model[0].bias.grad[:5])
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w.grad = torch.tensor([-3.0, 0.1, 9.0])
clip_grad_value_(w, 1)
print(w.grad)
print("-- parameters_to_vector")
model = fresh_grads()
vec = parameters_to_vector(model.parameters())
print(vec.shape, vec.grad_fn, vec[:5], vec[-3:])
vector_to_parameters(torch.arange(vec.numel(), dtype=torch.float32), model.parameters())
print(model[2].bias, model[0].weight[1], model[0].weight.requires_grad)
try:
    vector_to_parameters([1.0], model.parameters())
except TypeError as e:
    print("caught", e)
