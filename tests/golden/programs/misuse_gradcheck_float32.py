# gradcheck on float32 inputs: PyTorch warns and runs it (float32's rounding
# usually fails the default tolerances); with no input that requires grad it
# refuses.
import torch


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


x = torch.tensor([0.5, 1.5], requires_grad=True)
attempt("gradcheck float32 sin", lambda: torch.autograd.gradcheck(torch.sin, (x,)))
attempt("... raise_exception=False", lambda: torch.autograd.gradcheck(torch.sin, (x,), raise_exception=False))
attempt("... eps=1e-3, atol=1e-2", lambda: torch.autograd.gradcheck(torch.sin, (x,), eps=1e-3, atol=1e-2))
attempt("gradgradcheck float32", lambda: torch.autograd.gradgradcheck(torch.sin, (x,), eps=1e-3, atol=1e-2))
attempt("gradcheck float64", lambda: torch.autograd.gradcheck(torch.sin, (x.double().detach().requires_grad_(),)))
attempt("an int input", lambda: torch.autograd.gradcheck(torch.sin, (torch.tensor([1, 2]),)))
attempt("no input requires grad", lambda: torch.autograd.gradcheck(torch.sin, (torch.tensor([1., 2.]).double(),)))
