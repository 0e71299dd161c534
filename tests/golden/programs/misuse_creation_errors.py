# Creating tensors from bad arguments: PyTorch refuses rather than guess.
import torch


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


attempt("tensor(2**63)", lambda: torch.tensor(2**63))
attempt("tensor(-2**63 - 1)", lambda: torch.tensor(-2**63 - 1))
attempt("tensor([1, 2**63])", lambda: torch.tensor([1, 2**63]))
attempt("tensor(2**63 - 1)", lambda: torch.tensor(2**63 - 1))
attempt("tensor(-2**63)", lambda: torch.tensor(-2**63))
attempt("tensor(2.0**64)", lambda: torch.tensor(2.0**64))
attempt("requires_grad='yes'", lambda: torch.tensor([1.0], requires_grad="yes"))
attempt("ones requires_grad=1", lambda: torch.ones(2, requires_grad=1))
attempt("zeros requires_grad=None", lambda: torch.zeros(2, requires_grad=None))


def set_attr():
    t = torch.ones(2)
    t.requires_grad = "yes"
    return t


attempt("t.requires_grad = 'yes'", set_attr)
attempt("requires_grad_('yes')", lambda: torch.ones(2).requires_grad_("yes"))
attempt("arange(0, 10, -1)", lambda: torch.arange(0, 10, -1))
attempt("arange(10, 0, 1)", lambda: torch.arange(10, 0, 1))
attempt("arange(10, 0, -3)", lambda: torch.arange(10, 0, -3))
attempt("arange(5, 5)", lambda: torch.arange(5, 5))
attempt("arange(0., 1., -0.5)", lambda: torch.arange(0.0, 1.0, -0.5))
attempt("randperm(-1)", lambda: torch.randperm(-1))
attempt("randperm(0)", lambda: torch.randperm(0))
