# Writing into memory that an input reads in another layout: PyTorch refuses
# (the result would depend on the order the elements are written in); the
# same memory in the same layout, or disjoint parts, are fine.
import torch


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


CASES = {
    "b[1:].copy_(b[:4])": lambda b: b[1:].copy_(b[:4]),
    "b.copy_(b)": lambda b: b.copy_(b),
    "b[:2].copy_(b[3:])": lambda b: b[:2].copy_(b[3:]),
    "b.copy_(b.flip(0))": lambda b: b.copy_(b.flip(0)),
    "b[1:].add_(b[:4])": lambda b: b[1:].add_(b[:4]),
    "b.add_(b)": lambda b: b.add_(b),
    "b.add_(b[0])": lambda b: b.add_(b[0]),
    "b[1:].add_(b[0])": lambda b: b[1:].add_(b[0]),
    "b[1:].mul_(b[:4])": lambda b: b[1:].mul_(b[:4]),
    "b[1:].sub_(b[:4])": lambda b: b[1:].sub_(b[:4]),
    "b[1:].pow_(b[:4])": lambda b: b[1:].pow_(b[:4]),
    "b[1:].clamp_(min=b[:4])": lambda b: b[1:].clamp_(min=b[:4]),
    "b[1:] += b[:4]": lambda b: b[1:].__iadd__(b[:4]),
    "b[1:].addcmul_(b[:4], b[:4])": lambda b: b[1:].addcmul_(b[:4], b[:4]),
    "b[1:].lerp_(b[:4], 0.5)": lambda b: b[1:].lerp_(b[:4], 0.5),
    "2x2 copy_ of its transpose": lambda b: b[:4].view(2, 2).copy_(b[:4].view(2, 2).t()),
    "b[1:].copy_(b[:1].expand(4))": lambda b: b[1:].copy_(b[:1].expand(4)),
    "b.fill_(b[0])": lambda b: b.fill_(b[0]),
    "b[1:] = b[:4]": lambda b: b.__setitem__(slice(1, None), b[:4]),
    "b[:2] = b[3:]": lambda b: b.__setitem__(slice(0, 2), b[3:]),
    "b[[0, 1]] = b[3:]": lambda b: b.__setitem__([0, 1], b[3:]),
    "b[b > 2] = b[:2]": lambda b: b.__setitem__(b > 2, b[:2]),
    "b[[0, 1, 2]] = b[:3]": lambda b: b.__setitem__([0, 1, 2], b[:3]),
    "b[:] = b.flip(0)": lambda b: b.__setitem__(slice(None), b.flip(0)),
    "b[:] = b": lambda b: b.__setitem__(slice(None), b),
}
for label, f in CASES.items():
    attempt(label, lambda: (lambda b: (f(b), b)[1])(torch.arange(5.)))

    def in_a_graph():
        x = torch.arange(5.).requires_grad_()
        b = x * 1
        f(b)
        b.sum().backward()
        return b, x.grad
    attempt(label + " (in a graph)", in_a_graph)
