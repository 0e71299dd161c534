# The graph a create_graph=True backward builds, op by op: PyTorch records the
# nodes of its C++ derivative formulas (MulBackward1 where a formula multiplies
# by a number, TanhBackwardBackward0, ...); autograd_teach's rules must record
# the same nodes, with the same edges. (Not here yet: softmax, log_softmax and
# cross_entropy, whose double backward PyTorch records as nodes of their own,
# SoftmaxBackwardDataBackward0 and the like; and abs, whose second derivative
# PyTorch gives as a ZeroTensor that viz.torch_record cannot read.)
import torch
import torch.nn.functional as F


def graph(t):
    """The graph behind t, breadth first: 'index name -> children' per node."""
    if t.grad_fn is None:
        return "no grad_fn"
    index, order, lines = {t.grad_fn: 0}, [t.grad_fn], []
    for fn in order:
        children = []
        for child, _ in fn.next_functions:
            if child is None:
                children.append("None")
                continue
            if child not in index:
                index[child] = len(order)
                order.append(child)
            children.append(str(index[child]))
        lines.append(f"{index[fn]} {type(fn).__name__} -> {', '.join(children)}")
    return "; ".join(lines)


def show(name, f, *shapes):
    torch.manual_seed(0)
    inputs = [(torch.rand(s) + 0.5).requires_grad_() for s in shapes]
    out = f(*inputs)
    v = torch.ones_like(out, requires_grad=True)      # a grad_output with history: its nodes show too
    grads = torch.autograd.grad(out, inputs, v, create_graph=True)
    print(name)
    for g in grads:
        print("   ", graph(g))
    second = torch.autograd.grad(sum(g.sum() for g in grads), inputs + [v], allow_unused=True)
    print("   ", [None if s is None else round(s.sum().item(), 4) for s in second])


show("mul", lambda a, b: a * b, (2, 3), (2, 3))
show("mul broadcast", lambda a, b: a * b, (2, 3), (3,))
show("mul number", lambda a: a * 2.5, (3,))
show("square", lambda a: a * a, (3,))
show("div", lambda a, b: a / b, (2, 3), (3,))
show("div number", lambda a: a / 4, (3,))
show("reciprocal", lambda a: 2 / a, (3,))
show("add", lambda a, b: a + b, (2, 3), (2, 3))
show("add alpha", lambda a, b: torch.add(a, b, alpha=2), (3,), (3,))
show("add number", lambda a: a + 1, (3,))
show("sub", lambda a, b: a - b, (3,), (3,))
show("sub alpha", lambda a, b: torch.sub(a, b, alpha=3), (3,), (3,))
show("rsub", lambda a: 2 - a, (3,))
show("neg", lambda a: -a, (3,))
show("pow 3", lambda a: a ** 3, (3,))
show("pow 2", lambda a: a ** 2, (3,))
show("pow 0.5", lambda a: a ** 0.5, (3,))
show("pow -1", lambda a: a.pow(-1), (3,))
show("pow tensor", lambda a, b: a ** b, (3,), (3,))
show("2 ** x", lambda a: 2 ** a, (3,))
show("exp", lambda a: a.exp(), (3,))
show("log", lambda a: a.log(), (3,))
show("sin", lambda a: a.sin(), (3,))
show("cos", lambda a: a.cos(), (3,))
show("sqrt", lambda a: a.sqrt(), (3,))
show("tanh", lambda a: a.tanh(), (3,))
show("sigmoid", lambda a: a.sigmoid(), (3,))
show("relu", lambda a: (a - 1).relu(), (3,))
show("sum", lambda a: a.sum(), (2, 3))
show("sum dim", lambda a: a.sum(1), (2, 3))
show("mean", lambda a: a.mean(), (2, 3))
show("mean dim", lambda a: a.mean(0), (2, 3))
show("mm", lambda a, b: a @ b, (2, 3), (3, 4))
show("x @ w.t()", lambda x, w: x @ w.t(), (4, 3), (2, 3))
show("x.t() @ w", lambda x, w: x.t() @ w, (3, 4), (3, 2))
show("linear", lambda x, w, b: F.linear(x, w, b), (4, 3), (2, 3), (2,))
show("linear alpha", lambda x, w, b: torch.addmm(b, x, w.t(), alpha=0.5), (4, 3), (2, 3), (2,))
show("matmul vector", lambda a, b: a @ b, (2, 3), (3,))
show("dot", lambda a, b: a.dot(b), (3,), (3,))
show("norm", lambda a: a.norm(), (3,))
show("addmm", lambda b, x, w: torch.addmm(b, x, w), (2,), (4, 3), (3, 2))
show("addmm alpha beta", lambda b, x, w: torch.addmm(b, x, w, beta=0.5, alpha=2), (2,), (4, 3), (3, 2))
show("mse_loss", lambda a, b: F.mse_loss(a, b), (2, 3), (2, 3))
show("clamp", lambda a: a.clamp(0.7, 1.2), (3,))
show("where", lambda a, b: torch.where(a > 1, a * a, b), (3,), (3,))
show("maximum", lambda a, b: torch.maximum(a, b), (3,), (3,))
show("clamp min", lambda a: a.clamp(min=1.0), (3,))
