# autograd.grad(..., is_grads_batched=True): the first dim of each grad_output
# is a batch; the result stacks one vector-Jacobian product per row.
import torch


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", e)


w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
print(torch.autograd.grad(w * w, w, grad_outputs=torch.eye(3), is_grads_batched=True))
print(torch.autograd.grad((w * w).sum(), w, grad_outputs=torch.tensor([1.0, 2.0]), is_grads_batched=True))
a, b = torch.autograd.grad(w * 2, [w, torch.ones(1, requires_grad=True)], grad_outputs=torch.ones(2, 3),
                           is_grads_batched=True, allow_unused=True)
print(a, b)
attempt("batched, a grad_output without the batch dim", lambda: torch.autograd.grad(w * 2, w, grad_outputs=torch.ones(3),
                                                                                       is_grads_batched=True))
attempt("batched, wrong row shape", lambda: torch.autograd.grad(w * 2, w, grad_outputs=torch.ones(2, 2),
                                                                 is_grads_batched=True))
attempt("batched, no grad_outputs", lambda: torch.autograd.grad(w * 2, w, is_grads_batched=True))
