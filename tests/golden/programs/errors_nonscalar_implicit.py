# backward() without a gradient needs a scalar output.
import torch

def attempt(label, fn):
    try:
        fn()
        print(label, "-> ok")
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
attempt("vector", lambda: y.backward())
m = torch.ones(2, 2, requires_grad=True) * 3
attempt("matrix", lambda: m.backward())
print(x.grad)
one = (x * 2)[:1]
attempt("one-element vector", lambda: one.backward())
print(x.grad)
