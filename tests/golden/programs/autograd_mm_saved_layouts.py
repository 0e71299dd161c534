# What MmBackward0 shows of its inputs' layouts: the sizes always, the
# strides only of an input that needs a gradient (else ()), and still after backward.
import torch

a = torch.arange(6.0).reshape(2, 3)
b = torch.arange(12.0).reshape(3, 4)
cases = [("both", a.requires_grad_(), b.clone().requires_grad_()),
         ("self only", a, b), ("mat2 only", a.detach(), b.clone().requires_grad_()),
         ("transposes", torch.ones(3, 2, requires_grad=True).t(), torch.ones(4, 3, requires_grad=True).t()),
         ("slices", torch.ones(4, 3, requires_grad=True)[::2], torch.ones(3, 8, requires_grad=True)[:, ::2]),
         ("one row", torch.ones(5, 3, requires_grad=True)[::4][:1], b.clone().requires_grad_()),
         ("float64", a.double(), b.double().requires_grad_())]
for label, x, y in cases:
    fn = (x @ y).grad_fn
    print(label, fn.name(), fn._saved_self_sym_sizes, fn._saved_self_sym_strides,
          fn._saved_mat2_sym_sizes, fn._saved_mat2_sym_strides)
out = a @ b.clone().requires_grad_()
out.sum().backward()
fn = out.grad_fn
print("after backward", fn._saved_self_sym_sizes, fn._saved_self_sym_strides, fn._saved_mat2_sym_sizes,
      fn._saved_mat2_sym_strides, type(fn._saved_self_sym_sizes).__name__)
