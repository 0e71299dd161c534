"""The differential fuzz's second family (tests/golden/fuzz.py runs it after
the first): programs off the happy path, where probes found wrong numbers.
Leaves hold NaN, +-inf, constants (zero spread), all -inf rows, or have an
empty dim; float16 tensors are reduced; steps reduce (over all dims, one dim
or dim=()), apply NaN-sensitive ops (abs, sign, clamp, hardtanh, maximum,
atan2...), mask with a broadcasting mask, change a leaf's `.data` or
`requires_grad` between the forward and the backward, write in place into
the base of an expand or of split's views, and run small nn modules and
losses (ignore_index included). Each program is made from its seed alone."""
import random

N_CASES = 150
PREAMBLE = ("import warnings\n"
            "warnings.simplefilter('ignore', RuntimeWarning)   # the numbers are compared here, not numpy's warnings\n")

VALUES = {
    "normal": lambda rng, n: [round(rng.uniform(-2, 2), 2) for _ in range(n)],
    "const": lambda rng, n: [1.5] * n,
    "zeros": lambda rng, n: [0.0] * n,
    "nan": lambda rng, n: [float("nan") if i == n // 2 else round(rng.uniform(-2, 2), 2) for i in range(n)],
    "inf": lambda rng, n: [rng.choice([float("inf"), -float("inf")]) if i == 0 else 0.5 * i for i in range(n)],
    "neg_inf": lambda rng, n: [-float("inf")] * n,
    "ties": lambda rng, n: [1.0 if i % 2 else 2.0 for i in range(n)],
}
SHAPES = [(3,), (2, 3), (4,), (3, 2), (1, 3), (0,), (2, 0), (1,)]
REDUCE = ["sum", "mean", "std", "var", "norm", "prod", "amax", "amin", "max", "min", "logsumexp", "nansum",
          "softmax", "log_softmax", "cumsum", "median", "norm1", "norm_inf", "var0"]
UNARY = ["abs", "sign", "relu", "clamp(-1, 1)", "sqrt", "exp", "tanh", "sigmoid", "reciprocal",
         "square", "hardtanh", "relu6", "leaky_relu", "elu"]
BINARY = ["maximum", "minimum", "atan2", "mul", "div", "add", "where_broadcast", "masked_fill_broadcast"]


def _literal(values, shape):
    text = repr(values).replace("nan", "float('nan')").replace("inf", "float('inf')")
    return f"torch.tensor({text}).reshape{shape!r}"


class _Case:
    def __init__(self, rng):
        self.rng, self.lines, self.pool, self.leaves = rng, [], [], []

    def leaf(self, i):
        rng = self.rng
        shape = rng.choice(SHAPES)
        n = 1
        for s in shape:
            n *= s
        kind = rng.choice(list(VALUES))
        dtype = rng.choice(["float32"] * 4 + ["float64", "float16"])
        grad = dtype != "float16"
        name = f"x{i}"
        self.lines.append(f"{name} = {_literal(VALUES[kind](rng, n), shape)}.to(torch.{dtype})"
                          f"{'.requires_grad_()' if grad else ''}")
        self.pool.append((name, shape))
        if grad:
            self.leaves.append(name)

    def step(self, k):
        rng = self.rng
        a, shape = rng.choice(self.pool)
        name = f"y{k}"
        roll = rng.random()
        if roll < 0.4:
            expr = self.reduce(a, shape)
        elif roll < 0.6:
            op = rng.choice(UNARY)
            expr = f"F.{op}({a})" if op in ("hardtanh", "relu6", "leaky_relu", "elu") else f"{a}.{op}" + \
                ("" if "(" in op else "()")
        elif roll < 0.8:
            b, _ = rng.choice(self.pool)
            expr = self.binary(a, b, shape)
        else:
            self.mutation(a, shape, name)
            return
        used = sorted({n for n, _ in self.pool if _mentions(expr, n)})
        self.lines.append(f"{name} = attempt({name!r}, lambda: {expr}, {', '.join(used)})")
        self.pool.append((name, None))

    def reduce(self, a, shape):
        rng = self.rng
        op = rng.choice(REDUCE)
        nd = len(shape) if shape else 1
        how = rng.choice(["all", "dim", "empty_dims"] if op not in ("softmax", "log_softmax", "cumsum") else ["dim"])
        d = rng.randrange(-nd, nd)
        if op in ("norm1", "norm_inf"):
            p = "1" if op == "norm1" else "float('inf')"
            return f"{a}.norm({p})" if how == "all" else f"{a}.norm({p}, dim={d})"
        if op == "var0":
            return f"{a}.var(correction=0)" if how == "all" else f"{a}.var({d}, correction=0)"
        if op == "logsumexp":
            return f"{a}.logsumexp({d})" if how != "empty_dims" else f"{a}.logsumexp((), keepdim=True)"
        if op in ("max", "min", "median"):
            return f"{a}.{op}()" if how != "dim" else f"{a}.{op}({d})[0]"
        if how == "all":
            return f"{a}.{op}()" if op not in ("softmax", "log_softmax", "cumsum") else f"{a}.{op}(0)"
        if how == "empty_dims" and op in ("sum", "mean", "std", "var", "nansum", "amax", "amin"):
            return f"{a}.{op}({rng.choice(['()', '[]'])})"
        if how == "empty_dims" and op == "norm":
            return f"{a}.norm(dim=())"
        return f"{a}.{op}({d})"

    def binary(self, a, b, shape):
        op = self.rng.choice(BINARY)
        if op == "where_broadcast":
            return f"torch.where({a} > 0, {a}, torch.zeros(1))"
        if op == "masked_fill_broadcast":
            return f"{a}.masked_fill(torch.tensor([True]), 0.5)"
        if op in ("maximum", "minimum", "atan2"):
            return f"torch.{op}({a}, {b})"
        return f"torch.{op}({a}, {b})"

    def mutation(self, a, shape, name):
        rng = self.rng
        kind = rng.choice(["data", "requires_grad", "expand_base", "split_base", "module", "loss"])
        leaf = rng.choice(self.leaves) if self.leaves else None
        if kind == "data" and leaf:
            self.lines.append(f"attempt('{leaf}.data', lambda: setattr({leaf}, 'data', {leaf}.detach() * 2 + 1))")
        elif kind == "requires_grad" and leaf:
            self.lines.append(f"attempt('{leaf}.requires_grad_', lambda: {leaf}.requires_grad_(False))")
        elif kind == "expand_base":
            self.lines.append(f"{name}_base = torch.tensor([1.0, 2.0])")
            self.lines.append(f"{name} = attempt({name!r}, lambda: {name}_base.expand(3, 2), {name}_base)")
            self.lines.append(f"attempt('{name}_base.add_', lambda: {name}_base.add_(3), {name}_base)")
            self.lines.append(f"show({name!r}, {name})")
        elif kind == "split_base":
            self.lines.append(f"{name}_base = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True).clone()")
            self.lines.append(f"{name}_parts = {name}_base.split(2)")
            self.lines.append(f"attempt('{name}_base.mul_', lambda: {name}_base.mul_(2), {name}_base)")
            self.lines.append(f"{name} = attempt({name!r}, lambda: {name}_parts[0] * 1, {name}_base)")
            self.pool.append((name, None))
        elif kind == "module":
            self.module(name)
        else:
            self.loss(name)

    def module(self, name):
        rng = self.rng
        seed = rng.randrange(1000)
        kind = rng.choice(["linear", "layernorm", "batchnorm", "sequential"])
        make = {"linear": "nn.Linear(3, 2)", "layernorm": "nn.LayerNorm(3)", "batchnorm": "nn.BatchNorm1d(3)",
                "sequential": "nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))"}[kind]
        values = rng.choice(["normal", "const", "nan"])
        x = _literal(VALUES[values](rng, 6), (2, 3))
        self.lines.append(f"torch.manual_seed({seed})")
        self.lines.append(f"{name}_m = {make}")
        self.lines.append(f"{name} = attempt({name!r}, lambda: {name}_m({x}).sum())")
        self.lines.append(f"attempt('{name}.backward', lambda: {name}.backward(), {name})")
        self.lines.append(f"for n_, p_ in {name}_m.named_parameters(): show(n_ + '.grad', p_.grad)")

    def loss(self, name):
        rng = self.rng
        logits = _literal(VALUES[rng.choice(["normal", "const", "nan"])](rng, 6), (2, 3))
        target = rng.choice(["[0, 2]", "[-100, -100]", "[-100, 1]", "[1, 1]"])
        extra = rng.choice(["", ", ignore_index=1", ", reduction='sum'", ", label_smoothing=0.1"])
        self.lines.append(f"{name}_x = {logits}.requires_grad_()")
        self.lines.append(f"{name} = attempt({name!r}, lambda: F.cross_entropy({name}_x, torch.tensor({target}){extra}))")
        self.lines.append(f"attempt('{name}.backward', lambda: {name}.backward(), {name})")
        self.lines.append(f"show('{name}_x.grad', {name}_x.grad)")

    def finish(self):
        self.lines.append("roots = [t for t in (%s,) if isinstance(t, torch.Tensor) and t.requires_grad]"
                          % ", ".join(n for n, _ in reversed(self.pool)))
        self.lines.append("if roots:")
        self.lines.append("    attempt('backward', lambda: roots[0].sum().backward())")
        for leaf in self.leaves:
            self.lines.append(f"show({leaf + '.grad'!r}, {leaf}.grad)")


def _mentions(expr, name):
    import re
    return re.search(rf"\b{name}\b", expr) is not None


def programs(seed, n=N_CASES):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        case = _Case(rng)
        for j in range(rng.randint(1, 3)):
            case.leaf(j)
        case.lines.insert(0, PREAMBLE.rstrip("\n") + "\nimport torch.nn.functional as F\nfrom torch import nn")
        for k in range(rng.randint(2, 6)):
            case.step(k)
        case.finish()
        out.append((f"degenerate_{i:03d}", "\n".join(case.lines) + "\n"))
    return out
