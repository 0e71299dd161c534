"""Graphs whose backward run order is compared with PyTorch's.

Each builder takes the torch-like module and returns a scalar output. Used by
scripts/record_engine_order.py (with real PyTorch) and tests/test_engine_order.py."""


def seed000(torch):
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    return z.mean()


def seed002_dot(torch):
    x = torch.arange(4.0, requires_grad=True)
    return 2 * torch.dot(x, x)


def diamond(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    a = x * w
    return (a.exp() + a.sin() * x).sum()


def mlp(torch):
    w1 = torch.ones(3, 2, requires_grad=True)
    b1 = torch.zeros(2, requires_grad=True)
    w2 = torch.ones(2, 1, requires_grad=True)
    X = torch.ones(4, 3)
    h = (X @ w1 + b1).relu()
    return ((h @ w2 - 1) ** 2).mean()


def shared_leaf_many_paths(torch):
    x = torch.tensor([0.5, 1.5], requires_grad=True)
    y = x * x
    z = y.tanh() + y.sigmoid() - x.exp()
    return (z * y).sum() + x.sum()


def detach_branch(torch):
    x = torch.arange(4.0, requires_grad=True)
    y = x * x
    u = y.detach()
    return (u * x).sum()


def control_flow(torch):
    a = torch.tensor(0.7, requires_grad=True)
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    return b if b.sum() > 0 else 100 * b


def long_chain_with_fanout(torch):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
    h = x
    for _ in range(5):
        h = (h * w + x).sigmoid()
    return torch.nn.functional.mse_loss(h, torch.zeros(3))


GRAPHS = [seed000, seed002_dot, diamond, mlp, shared_leaf_many_paths, detach_branch, control_flow,
          long_chain_with_fanout]


def run_order_torch(torch, build):
    """PyTorch: a pre-hook on every node records the order the engine runs them."""
    out = build(torch)
    order, seen, stack = [], set(), [out.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        node.register_prehook(lambda grads, node=node: order.append(node.name()))
        stack.extend(n for n, _ in node.next_functions)
    out.backward()
    return order
