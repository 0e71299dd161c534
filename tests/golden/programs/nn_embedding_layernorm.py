# nn.Embedding / F.embedding and nn.LayerNorm / F.layer_norm: PyTorch's
# initialisation (normal_ from the global generator, the padding row zeroed;
# ones and zeros), reprs, grad_fn names and saved values, gradients (repeated
# indices add up, the padding row gets none), float32 values bit for bit
# (PyTorch's RowwiseMoments), second derivatives, and the errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
emb = nn.Embedding(10, 3)
print(emb)
print(emb.weight)
pad = nn.Embedding(5, 2, padding_idx=0)
print(pad, pad.weight)
print(nn.Embedding(10, 3, padding_idx=-1), nn.Embedding(4, 2, padding_idx=3).padding_idx)

idx = torch.tensor([[1, 2, 4], [4, 3, 9]])
out = emb(idx)
print(out.shape, out)
print(out.grad_fn, out.grad_fn.next_functions[0][0].variable is emb.weight)
print(out.grad_fn._saved_indices, out.grad_fn._saved_padding_idx, out.grad_fn._saved_weight_sym_argsize_0,
      out.grad_fn._saved_scale_grad_by_freq, out.grad_fn._saved_sparse)
(out * torch.arange(3.0)).sum().backward()
print(emb.weight.grad)

w = torch.randn(5, 2, dtype=torch.float64, requires_grad=True)
y = F.embedding(torch.tensor([0, 2, 0, 3, 2, 2]), w, padding_idx=2)
print(y.grad_fn._saved_padding_idx)
y.pow(2).sum().backward()
print(w.grad)
pad(torch.tensor([0, 0, 1])).sum().backward()
print(pad.weight.grad)
print(F.embedding(torch.tensor(3), w), F.embedding(torch.tensor([], dtype=torch.long), w))
print(emb(torch.tensor([1, 2], dtype=torch.int32)).dtype)
g, = torch.autograd.grad(F.embedding(torch.tensor([1, 1, 4]), w).pow(3).sum(), w, create_graph=True)
print(g.grad_fn, g.grad_fn.next_functions[0][0], g.grad_fn._saved_indices, g.grad_fn._saved_padding_idx)
print(torch.autograd.grad(g.sum(), w)[0])
g, = torch.autograd.grad(F.embedding(torch.tensor([[1, 3], [4, 1]]), w, padding_idx=1).pow(2).sum(), w,
                         create_graph=True)
print(g, g.grad_fn._saved_padding_idx)
print(torch.autograd.grad(g.pow(2).sum(), w)[0])
for bad in (lambda: emb(torch.tensor([10])), lambda: emb(torch.tensor([-1])), lambda: emb(torch.tensor([1.0])),
            lambda: nn.Embedding(10, 3, padding_idx=10), lambda: nn.Embedding(10, 3, padding_idx=-11),
            lambda: F.embedding(torch.tensor([0]), w, padding_idx=5)):
    try:
        bad()
    except (IndexError, RuntimeError, AssertionError) as e:
        print(type(e).__name__ + ":", e)

ln = nn.LayerNorm(4)
print(ln, ln.weight, ln.bias)
print(nn.LayerNorm([2, 3], elementwise_affine=False), nn.LayerNorm(4, bias=False), nn.LayerNorm(4, eps=1e-3))
print(nn.LayerNorm((2, 3)).weight.shape, nn.LayerNorm(4, bias=False).bias)
torch.manual_seed(1)
x = torch.randn(3, 4, requires_grad=True)
y = ln(x)
print(y)
print(y.tolist())
print(y.grad_fn, y.grad_fn._saved_normalized_shape, y.grad_fn._saved_input is x)
print(y.grad_fn._saved_result1, y.grad_fn._saved_result2)
(y * torch.arange(4.0)).sum().backward()
print(x.grad, ln.weight.grad, ln.bias.grad)

torch.manual_seed(2)
big = torch.randn(6, 37) * 3 + 5
wt, bs = torch.randn(37), torch.randn(37)
out = F.layer_norm(big, (37,), wt, bs)
print(out.tolist())
print(F.layer_norm(torch.randn(2, 2, 40) * 100, (2, 40)).tolist())
print(F.layer_norm(x, (4,)).grad_fn.next_functions)

torch.manual_seed(3)
xd = torch.randn(2, 5, dtype=torch.float64, requires_grad=True)
wd = torch.randn(5, dtype=torch.float64, requires_grad=True)
o = F.layer_norm(xd, (5,), wd, eps=0.1)
print(o)
# (its double backward is not run here: PyTorch records one NativeLayerNormBackwardBackward0 node,
# autograd_teach the ops of its rule; tests/test_gradcheck_nn.py checks its values by finite differences)
gx, gw = torch.autograd.grad(o.pow(2).sum(), (xd, wd))
print(gx, gw)
print(F.layer_norm(torch.ones(0, 4), (4,)))
for bad in (lambda: F.layer_norm(x, (3,)), lambda: F.layer_norm(x, (2, 5)),
            lambda: F.layer_norm(x, (4,), torch.ones(3)), lambda: F.layer_norm(x, (4,), None, torch.ones(2))):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)

torch.manual_seed(5)
x64 = torch.randn(3, 37, dtype=torch.float64) * 2 + 1
print(F.layer_norm(x64, (37,), torch.randn(37, dtype=torch.float64), torch.randn(37, dtype=torch.float64)).tolist())
print(F.layer_norm((torch.randn(2, 9) * 3).to(torch.float16), (9,)))
print(F.layer_norm(torch.ones(3, 0), (0,)), F.layer_norm(torch.full((2, 5), 7.0), (5,)))
print(F.layer_norm(torch.tensor([1.0, float("inf"), 2.0]), (3,)))
for bad in (lambda: F.layer_norm(torch.ones(2, 3), ()), lambda: F.layer_norm(torch.ones(3), 3),
            lambda: F.embedding(torch.tensor([1]), torch.ones(3))):
    try:
        bad()
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__ + ":", e)
