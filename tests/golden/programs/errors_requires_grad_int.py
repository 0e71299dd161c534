# Only floating point tensors can require gradients.
import torch

def attempt(label, fn):
    try:
        fn()
        print(label, "-> ok")
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])

attempt("tensor(int list)", lambda: torch.tensor([1, 2], requires_grad=True))
attempt("arange().requires_grad_()", lambda: torch.arange(3).requires_grad_())
attempt("bool tensor", lambda: torch.tensor([True]).requires_grad_())
attempt("float is fine", lambda: torch.tensor([1, 2], dtype=torch.float32, requires_grad=True))
attempt("zeros int64", lambda: torch.zeros(2, dtype=torch.int64, requires_grad=True))
