"""The differential fuzz: random small programs over the op surface, run by
real PyTorch (scripts/record_fuzz_goldens.py records their output into
tests/golden/fuzz_cases.json) and by autograd_teach (tests/test_fuzz.py).

Each program makes a few leaves (float32, float64 and int64; some require
grad; shapes chosen to broadcast), applies random ops to random earlier
results (unary, binary with broadcasting and type promotion, reductions,
views and indexing, in-place ops, two custom Functions), then backward from
a sum of the last float result that requires grad, and prints every
result's dtype, shape, requires_grad, grad_fn name and values, then every
leaf's .grad. An op that fails prints its exception type and first line,
so refusals are compared too.

After them come the programs of tests/golden/fuzz_degenerate.py (NaN and
degenerate inputs, empty dims, dim=(), float16, .data and requires_grad_
between forward and backward, in-place writes into the base of expands and
splits, broadcasting masks, nn modules and losses), made from SEED + 1, and
those of tests/golden/fuzz_forward.py (forward-mode AD: every result's
tangent beside its primal), made from SEED + 2.

The programs are made from SEED alone (random.Random(SEED)); the recorder
stores each one's source beside its output, and the test checks the
generator still makes exactly those sources, so a failure names a case
that can be re-run by hand.
"""
import random

SEED = 20261201
N_CASES = 300

PRELUDE = '''\
import numpy as np
import torch


def show(name, t):
    if not isinstance(t, torch.Tensor):
        print(name, "value", repr(t))
        return
    fn = None if t.grad_fn is None else type(t.grad_fn).__name__
    print(name, "R", str(t.dtype), list(t.shape), t.requires_grad, fn, t.detach().tolist())


def attempt(name, fn, *uses):
    if any(u is None for u in uses):    # an earlier step failed: nothing to run
        print(name, "skipped")
        return None
    try:
        t = fn()
    except Exception as e:
        print(name, "raised", type(e).__name__ + ":", str(e).splitlines()[0] if str(e) else "")
        return None
    show(name, t)
    return t


class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        y, = ctx.saved_tensors
        return grad * y


class Reverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.k, None

'''

SHAPES = [(), (1,), (3,), (2, 3), (1, 3), (2, 1), (4,), (3, 2), (2, 3, 1), (1, 2, 3)]
UNARY = ["exp", "tanh", "sigmoid", "sin", "cos", "abs", "relu", "neg", "square", "clone",
         "log_abs1", "sqrt_abs1", "reciprocal_shift", "clamp", "pow2", "pow_half_abs1",
         "myexp", "scale", "reverse", "long_float", "np_scalar_left", "double_float"]
BINARY = ["+", "-", "*", "/", "rsub_scalar", "rmul_scalar", "radd_scalar", "rdiv_scalar", "matmul"]
REDUCE = ["sum", "mean", "sum_dim", "mean_dim_keep", "max", "max_dim", "min_dim"]
VIEWS = ["view_flat", "reshape", "t", "transpose", "permute", "unsqueeze", "squeeze", "expand",
         "index_int", "index_slice", "index_list", "detach"]
INPLACE = ["add_", "mul_", "clone_mul_", "setitem"]


def _values(rng, shape, dtype):
    n = 1
    for s in shape:
        n *= s
    if dtype == "int64":
        flat = [rng.randint(-3, 4) for _ in range(n)]
    else:
        flat = [round(rng.uniform(-2.0, 2.0), 2) for _ in range(n)]
    return _nest(flat, shape)


def _nest(flat, shape):
    if not shape:
        return flat[0]
    step = len(flat) // shape[0]
    return [_nest(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


class _Case:
    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.pool = []          # (name, shape or None when unknown, dtype)
        self.leaves = []

    def leaf(self, i):
        rng = self.rng
        shape = rng.choice(SHAPES)
        dtype = rng.choice(["float32"] * 5 + ["float64"] * 2 + ["int64"])
        grad = dtype != "int64" and rng.random() < 0.8
        name = f"x{i}"
        self.lines.append(f"{name} = torch.tensor({_values(rng, shape, dtype)!r}, dtype=torch.{dtype}"
                          f"{', requires_grad=True' if grad else ''})")
        self.pool.append((name, shape, dtype))
        if grad:
            self.leaves.append(name)

    def step(self, k):
        rng = self.rng
        name = f"y{k}"
        a, shape, dtype = rng.choice(self.pool[-4:] if rng.random() < 0.7 else self.pool)
        kind = rng.random()
        if kind < 0.3:
            expr, out_shape = self.unary(a, shape), shape
        elif kind < 0.6:
            b, bshape, _ = rng.choice(self.pool)
            expr, out_shape = self.binary(a, shape, b, bshape)
        elif kind < 0.72:
            expr, out_shape = self.reduce(a, shape)
        elif kind < 0.9:
            expr, out_shape = self.view(a, shape)
        else:
            self.inplace(a, shape, name)
            return
        used = sorted({n for n, _, _ in self.pool if _mentions(expr, n)})
        self.lines.append(f"{name} = attempt({name!r}, lambda: {expr}, {', '.join(used)})")
        if dtype != "int64" or "/" in expr or "exp" in expr:
            dtype = "float"
        self.pool.append((name, out_shape, dtype))

    def unary(self, a, shape):
        op = self.rng.choice(UNARY)
        return {
            "log_abs1": f"({a}.abs() + 1).log()",
            "sqrt_abs1": f"({a}.abs() + 1).sqrt()",
            "reciprocal_shift": f"({a}.abs() + 0.5).reciprocal()",
            "clamp": f"{a}.clamp(-0.5, 0.75)",
            "pow2": f"{a} ** 2",
            "pow_half_abs1": f"({a}.abs() + 1) ** 0.5",
            "myexp": f"MyExp.apply({a})",
            "scale": f"Scale.apply({a}, 1.5)",
            "reverse": f"Reverse.apply({a})",
            "long_float": f"{a}.long().float() * {a}",
            "np_scalar_left": f"np.float32(1.5) * {a} - np.sqrt(2.0)",
            "double_float": f"{a}.double().float()",
        }.get(op, f"{a}.{op}()")

    def binary(self, a, shape, b, bshape):
        op = self.rng.choice(BINARY)
        if op == "rsub_scalar":
            return f"2.5 - {a}", shape
        if op == "rmul_scalar":
            return f"3 * {a}", shape
        if op == "radd_scalar":
            return f"0.5 + {a}", shape
        if op == "rdiv_scalar":
            return f"1.0 / ({a}.abs() + 1)", shape
        if op == "matmul":
            return f"{a} @ {b}", None
        if op == "/":
            return f"{a} / ({b}.abs() + 1)", _broadcast(shape, bshape)
        return f"{a} {op} {b}", _broadcast(shape, bshape)

    def reduce(self, a, shape):
        op = self.rng.choice(REDUCE)
        nd = len(shape) if shape is not None else 0
        d = self.rng.randrange(-nd, nd) if nd else 0
        if op == "sum":
            return f"{a}.sum()", ()
        if op == "mean":
            return f"{a}.mean()", ()
        if op == "max":
            return f"{a}.max()", ()
        if op == "sum_dim":
            return f"{a}.sum({d})", _drop(shape, d)
        if op == "mean_dim_keep":
            return f"{a}.mean({d}, keepdim=True)", _keep(shape, d)
        return f"{a}.{op[:3]}({d})[0]", _drop(shape, d)

    def view(self, a, shape):
        op = self.rng.choice(VIEWS)
        nd = len(shape) if shape is not None else 0
        if op == "view_flat":
            return f"{a}.view(-1)", None
        if op == "reshape":
            return f"{a}.reshape(-1, 1)", None
        if op == "t":
            return f"{a}.t()", None
        if op == "transpose":
            return f"{a}.transpose(0, -1)", None
        if op == "permute":
            dims = list(range(nd))
            self.rng.shuffle(dims)
            return f"{a}.permute({', '.join(map(str, dims))})" if dims else f"{a}.permute()", None
        if op == "unsqueeze":
            return f"{a}.unsqueeze({self.rng.randrange(-nd - 1, nd + 1)})", None
        if op == "squeeze":
            return f"{a}.squeeze()", None
        if op == "expand":
            return f"{a}.expand(2, *{a}.shape)", None
        if op == "index_int":
            return f"{a}[{self.rng.randrange(-2, 3)}]", None
        if op == "index_slice":
            return f"{a}[{self.rng.choice(['1:', ':-1', '::2', '...,:1', ':, 0'])}]", None
        if op == "index_list":
            return f"{a}[[0, -1, 0]]", None
        return f"{a}.detach()", shape

    def inplace(self, a, shape, name):
        op = self.rng.choice(INPLACE)
        if op == "clone_mul_":
            expr = f"{a}.clone().mul_(2)"
        elif op == "setitem":
            self.lines.append(f"{name} = attempt({name!r}, lambda: {a}.clone(), {a})")
            self.lines.append(f"attempt({name + '[0]'!r}, lambda: {name}.__setitem__(0, 1.5), {name})")
            self.lines.append(f"show({name!r}, {name})")
            self.pool.append((name, shape, "float"))
            return
        else:
            expr = f"{a}.{op}(2)"
        self.lines.append(f"{name} = attempt({name!r}, lambda: {expr}, {a})")
        self.pool.append((name, shape, "float"))

    def finish(self):
        self.lines.append("roots = [t for t in (%s,) if isinstance(t, torch.Tensor) and t.requires_grad]"
                          % ", ".join(n for n, _, _ in reversed(self.pool)))
        self.lines.append("if roots:")
        self.lines.append("    attempt('backward', lambda: roots[0].sum().backward())")
        for leaf in self.leaves:
            self.lines.append(f"show({leaf + '.grad'!r}, {leaf}.grad)")


def _mentions(expr, name):
    import re
    return re.search(rf"\b{name}\b", expr) is not None


def _broadcast(a, b):
    if a is None or b is None:
        return None
    out = []
    for k in range(1, max(len(a), len(b)) + 1):
        x = a[-k] if k <= len(a) else 1
        y = b[-k] if k <= len(b) else 1
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y))
    return tuple(reversed(out))


def _drop(shape, d):
    if shape is None or not shape:
        return None
    return tuple(s for i, s in enumerate(shape) if i != d % len(shape))


def _keep(shape, d):
    if shape is None or not shape:
        return None
    return tuple(1 if i == d % len(shape) else s for i, s in enumerate(shape))


def programs(seed=SEED, n=N_CASES):
    """[(name, body)]: the same list for the same seed, on every machine; a
    program's source is PRELUDE + body."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        case = _Case(rng)
        for j in range(rng.randint(1, 3)):
            case.leaf(j)
        for k in range(rng.randint(3, 9)):
            case.step(k)
        case.finish()
        out.append((f"fuzz_{i:03d}", "\n".join(case.lines) + "\n"))
    return out + _family("fuzz_degenerate").programs(seed + 1) + _family("fuzz_forward").programs(seed + 2)


def _family(name):
    """tests/golden/fuzz_degenerate.py or fuzz_forward.py, the second and third
    families, loaded by path as this file is (the recorder and the test load
    tests/golden/ files so)."""
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location(f"golden_{name}", Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_RECORD = None


def same(expected, actual, rtol=1e-4, atol=1e-5):
    """Compare two outputs line by line: the values of a record (name R dtype
    [shape] requires_grad grad_fn values) to float32 tolerance (kernels may
    differ in the last bit), all else exactly."""
    import re
    global _RECORD
    _RECORD = _RECORD or re.compile(r"^(\S+ R \S+ \[[^\]]*\] \S+ \S+) (.*)$")
    if len(expected) != len(actual):
        return False
    for e, a in zip(expected, actual):
        if e == a:
            continue
        me, ma = _RECORD.match(e), _RECORD.match(a)
        if not (me and ma and me.group(1) == ma.group(1)):
            return False
        if not _close(_parse(me.group(2)), _parse(ma.group(2)), rtol, atol):
            return False
    return True


def _parse(text):
    import ast
    try:
        return ast.literal_eval(text.replace("nan", "None").replace("inf", "1e999"))
    except (ValueError, SyntaxError):
        return text


def _close(a, b, rtol, atol):
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y, rtol, atol) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b or abs(a - b) <= atol + rtol * abs(b)
    return a == b
