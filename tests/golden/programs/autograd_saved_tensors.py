# What a node saves for backward: only what some input's gradient needs.
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([3.0, 4.0])
for label, out in [("w * c", w * c), ("c * w", c * w), ("w * w", w * w), ("w * 2", w * 2),
                   ("w / c", w / c), ("c / w", c / w), ("dot(w, c)", torch.dot(w, c))]:
    fn = out.grad_fn
    names = [n for n in ("_saved_self", "_saved_other", "_saved_tensor") if hasattr(fn, n)]
    print(label, fn.name(), [(n, getattr(fn, n)) for n in names])
W = torch.ones(2, 2, requires_grad=True)
C = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print((C @ W).grad_fn._saved_self, (C @ W).grad_fn._saved_mat2)
print((W @ C).grad_fn._saved_self, (W @ C).grad_fn._saved_mat2)
e = w.exp()
print(e.grad_fn._saved_result)
