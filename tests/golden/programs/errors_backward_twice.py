# A second backward through a freed graph fails; retain_graph avoids it.
import torch

def attempt(label, fn):
    try:
        fn()
        print(label, "-> ok")
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
attempt("first", lambda: y.backward())
attempt("second", lambda: y.backward())
print(x.grad)
z = (x.exp() * 2).sum()
attempt("retained", lambda: z.backward(retain_graph=True))
attempt("again", lambda: z.backward())
attempt("third", lambda: z.backward())
