# What a hook may return in place of a gradient: grad_fn.register_prehook,
# grad_fn.register_hook and Tensor.register_hook each check it as PyTorch's
# check_single_result does (a Tensor of the same type, then of the same
# size; no None replaced), so a hook cannot send a gradient of another shape
# or dtype into the graph (where it would broadcast silently).
import numpy as np
import torch
def attempt(f):
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
def run(kind, change):
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    w = torch.tensor([0.5, -0.5, 2.0], requires_grad=True)
    c = torch.tensor([2., 2., 2.])
    z = (x * w) * c
    def hook(*args):
        gs = args[0]
        return (change(gs[0]),) + tuple(gs[1:])
    if kind == "pre":
        z.grad_fn.register_prehook(hook)
    elif kind == "post":
        z.grad_fn.register_hook(hook)
    else:
        z.register_hook(lambda g: hook((g,))[0])
    z.sum().backward()
    return kind, x.grad, w.grad
changes = {"fewer elements": lambda g: g[:1], "one more dim": lambda g: g[None], "float64": lambda g: g.double(),
           "float16": lambda g: g.to(torch.float16), "int64": lambda g: g.long(), "a number": lambda g: 3.0,
           "a numpy array": lambda g: np.ones(3, np.float32), "a list": lambda g: [1., 2., 3.],
           "None": lambda g: None, "twice": lambda g: g * 2, "a view": lambda g: g.expand(3)}
for kind in ("pre", "post", "tensor"):
    for name, change in changes.items():
        print(kind, name)
        attempt(lambda: run(kind, change))
x = torch.tensor([1., 2.], requires_grad=True)
y = x * torch.tensor([3., 4.])          # MulBackward0's other input needs no gradient: None goes there
y.grad_fn.register_hook(lambda gi, go: (gi[0], torch.ones(2)))
attempt(lambda: y.sum().backward())
y = x * torch.tensor([3., 4.])
y.grad_fn.register_hook(lambda gi, go: (gi[0], None))
attempt(lambda: (y.sum().backward(), x.grad))
y = x * torch.tensor([3., 4.])
y.grad_fn.register_prehook(lambda go: [go[0]])
attempt(lambda: y.sum().backward())
g = torch.autograd.grad((x * x).sum(), x, create_graph=True)[0]     # under create_graph: the same checks
g.grad_fn.register_prehook(lambda go: (go[0].double(),))
attempt(lambda: g.sum().backward())
g = torch.autograd.grad((x * x).sum(), x, create_graph=True)[0]
g.grad_fn.register_prehook(lambda go: (go[0] * 3,))
attempt(lambda: (g.sum().backward(), x.grad))
