# backward(gradient) with a gradient of the wrong shape.
import torch

def attempt(label, fn):
    try:
        fn()
        print(label, "-> ok")
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
attempt("grad of shape (2,)", lambda: y.backward(torch.ones(2)))
attempt("grad of shape (3, 1)", lambda: y.backward(torch.ones(3, 1)))
print(x.grad)
attempt("right shape", lambda: y.backward(torch.ones(3)))
print(x.grad)
