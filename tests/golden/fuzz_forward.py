"""The differential fuzz's third family (tests/golden/fuzz.py runs it after
the second): forward-mode AD on random programs. Leaves are dual tensors
(float64 or float32, random primal and tangent, one of them a constant with
no tangent); each step applies an op to earlier results: pointwise functions,
broadcasting arithmetic, reductions (over a dim, all dims, dim=()), norms of
every order, softmax and its kin, views and joins, matmul, in-place ops on a
clone and writes through an index, losses, and small networks (conv2d, max
and avg pooling, padding, batch and layer norm, cross_entropy per pixel).
Each result prints its primal and then its tangent, so PyTorch's forward
rules are compared, value by value, with the package's, refusals included.
Each program is made from its seed alone."""
import random

N_CASES = 100
HEADER = "import torch.autograd.forward_ad as fwAD\nimport torch.nn.functional as F\n"

SHAPES = [(3,), (2, 3), (1, 3), (2, 1)]
UNARY = ["x.exp()", "x.tanh()", "x.sigmoid()", "x.sin()", "x.cos()", "x.abs()", "x.relu()", "-x", "x * x",
         "(x.abs() + 0.5).sqrt()", "(x.abs() + 0.5).log()", "1 / (x.abs() + 0.5)", "x.asinh()", "x.atan()",
         "F.softplus(x)", "F.gelu(x)", "F.elu(x)", "F.leaky_relu(x, 0.1)", "F.hardtanh(x)", "x.clamp(-0.5, 0.5)",
         "x ** 3", "2 ** x", "x.erf()", "(x / 4).atanh()", "F.silu(x)", "x.sgn() * x", "x.frac()"]
BINARY = ["x + y", "x - y", "x * y", "x / (y.abs() + 0.5)", "torch.maximum(x, y)", "torch.atan2(x, y)",
          "torch.where(x > y, x, y)", "x.lerp(y, 0.3)", "torch.addcmul(x, x, y, value=0.5)", "torch.fmax(x, y)",
          "x.masked_fill(y > 0, 1.5)", "x * 2 - y / 3"]
REDUCE = ["x.sum()", "x.mean()", "x.sum(-1)", "x.mean(0, keepdim=True)", "x.var()", "x.std(-1)", "x.norm()",
          "x.norm(1)", "torch.linalg.vector_norm(x, 3, -1)", "torch.linalg.vector_norm(x, float('inf'))",
          "x.amax(-1)", "x.max(-1).values", "x.min()", "x.logsumexp(-1)", "x.prod(-1)", "x.softmax(-1)",
          "x.log_softmax(0)", "x.cumsum(-1)", "x.cumprod(-1)", "x.sum(())", "x.median(-1).values",
          "x.sort(-1).values", "x.logcumsumexp(-1)", "x.var(-1, correction=0)", "x.nansum()"]
VIEWS = ["x.t() if x.dim() == 2 else x", "x.reshape(-1)", "x.flip(-1)", "x.unsqueeze(0)", "x[..., :2]",
         "x[..., [0, 0]]", "x.expand(2, 3)", "torch.cat([x, x], -1)", "torch.stack([x, x])", "x.clone()",
         "x.transpose(0, -1)", "x.repeat(2, 1)", "x.roll(1, -1)", "x.tril() if x.dim() == 2 else x"]
INPLACE = ["z = x.clone(); z.mul_(y); z", "z = x.clone(); z.add_(y, alpha=2); z", "z = x.clone(); z[..., 0] = 1.0; z",
           "z = x.clone(); z.exp_(); z", "z = x.clone(); z[..., :1].mul_(3); z", "z = x * 1; z.clamp_(min=0.0); z"]
OTHER = ["x.reshape(-1, 1) @ y.reshape(1, -1)", "F.mse_loss(x, y.expand_as(x))", "F.smooth_l1_loss(x, y.expand_as(x))",
         "F.binary_cross_entropy(x.sigmoid(), torch.ones_like(x) * 0.3)", "F.cross_entropy(x.reshape(-1, x.shape[-1]), "
         "torch.zeros(x.numel() // x.shape[-1], dtype=torch.long))", "F.pad(x, (1, 2), value=0.5)",
         "F.layer_norm(x, x.shape[-1:])", "F.normalize(x, dim=-1)", "torch.dot(x.reshape(-1), x.reshape(-1))"]
NETS = ["F.conv2d(a, w, b, padding=1)", "F.conv2d(a, w, stride=2)", "F.max_pool2d(a, 2)",
        "F.max_pool2d(a, 3, stride=1, padding=1)", "F.avg_pool2d(a, 2)", "F.adaptive_avg_pool2d(a, 1)",
        "F.pad(a, (1, 0, 0, 1))", "F.batch_norm(a, None, None, training=True)",
        "F.batch_norm(a, torch.zeros(2, dtype=a.dtype), torch.ones(2, dtype=a.dtype), w[:2, 0, 0, 0], b[:2])",
        "F.layer_norm(a, a.shape[1:])", "F.relu(F.conv2d(a, w, b)).sum((2, 3))",
        "F.cross_entropy(F.conv2d(a, w, padding=1), torch.zeros(2, 4, 4, dtype=torch.long))",
        "F.nll_loss(F.log_softmax(a, 1), torch.ones(2, 4, 4, dtype=torch.long))"]


def _values(rng, n):
    return [round(rng.uniform(-2, 2), 2) for _ in range(n)]


def _tensor(rng, shape, dtype):
    n = 1
    for s in shape:
        n *= s
    return f"torch.tensor({_values(rng, n)!r}, dtype=torch.{dtype}).reshape{shape!r}"


class _Case:
    def __init__(self, rng):
        self.rng, self.lines, self.pool = rng, [HEADER + "with fwAD.dual_level():"], []

    def add(self, line):
        self.lines.append("    " + line)

    def leaf(self, i, dtype, shape=None, constant=False):
        rng, name = self.rng, f"x{i}"
        shape = shape or rng.choice(SHAPES)
        primal = _tensor(rng, shape, dtype)
        if constant:
            self.add(f"{name} = {primal}")
        else:
            self.add(f"{name} = fwAD.make_dual({primal}, {_tensor(rng, shape, dtype)})")
        self.pool.append(name)
        return name

    def step(self, k):
        rng = self.rng
        x, y = rng.choice(self.pool), rng.choice(self.pool)
        family = rng.choice([UNARY, UNARY, BINARY, BINARY, REDUCE, REDUCE, VIEWS, INPLACE, OTHER])
        expr = rng.choice(family)
        name = f"v{k}"
        if expr.startswith("z ="):      # statements, then the result
            *stmts, last = expr.split("; ")
            body = "; ".join(_rename(s, x, y) for s in stmts)
            self.add(f"def f{k}():")
            self.add(f"    {body}")
            self.add(f"    return {last}")
            call = f"f{k}"
        else:
            call = f"lambda: {_rename(expr, x, y)}"
        self.add(f"{name} = attempt({name!r}, {call}, {x}, {y})")
        self.add(f"show_tangent({name!r}, {name})")
        self.pool.append(name)

    def net(self, dtype):
        rng = self.rng
        self.add(f"a = fwAD.make_dual({_tensor(rng, (2, 2, 4, 4), dtype)}, {_tensor(rng, (2, 2, 4, 4), dtype)})")
        if rng.random() < 0.7:
            self.add(f"w = fwAD.make_dual({_tensor(rng, (3, 2, 3, 3), dtype)}, {_tensor(rng, (3, 2, 3, 3), dtype)})")
        else:
            self.add(f"w = {_tensor(rng, (3, 2, 3, 3), dtype)}")
        self.add(f"b = fwAD.make_dual({_tensor(rng, (3,), dtype)}, {_tensor(rng, (3,), dtype)})")
        for k, expr in enumerate(rng.sample(NETS, 3)):
            self.add(f"n{k} = attempt('n{k}', lambda: {expr}, a)")
            self.add(f"show_tangent('n{k}', n{k})")


def _rename(expr, x, y):
    """expr with its x and y (whole words) replaced by the pool's names."""
    import re
    return re.sub(r"\by\b", y, re.sub(r"\bx\b", x, expr))


SHOW_TANGENT = '''\
def show_tangent(name, t):
    if t is not None:
        tangent = fwAD.unpack_dual(t).tangent
        show(name + "_t", tangent if tangent is not None else "no tangent")


'''


def programs(seed, n=N_CASES):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        case = _Case(rng)
        dtype = rng.choice(["float64", "float64", "float32"])
        if i % 4 == 3:
            case.net(dtype)
        else:
            for j in range(rng.randint(1, 3)):
                case.leaf(j, dtype)
            if rng.random() < 0.3:
                case.leaf(9, dtype, constant=True)
            for k in range(rng.randint(3, 7)):
                case.step(k)
        out.append((f"forward_{i:03d}", SHOW_TANGENT + "\n".join(case.lines) + "\n"))
    return out
