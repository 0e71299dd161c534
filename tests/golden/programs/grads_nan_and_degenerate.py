# Every differentiable op the package has, on inputs off the happy path: NaN,
# +-inf, 0 and -0, constant inputs (zero spread), all -inf, a single element,
# empty dims. Each prints its value and each input's gradient (or the error).
import math
import warnings

import torch
import torch.nn.functional as F

nan, inf = math.nan, math.inf
torch.set_printoptions(precision=4)
warnings.simplefilter("ignore", RuntimeWarning)   # numbers here; numpy's warnings are another test's


def show(name, fn, *inputs, grad_out=None):
    xs = [torch.tensor(v, requires_grad=True) if isinstance(v, list) else v for v in inputs]
    try:
        y = fn(*xs)
        (y if grad_out is None else y * grad_out).sum().backward()
        print(name, y.detach(), *[x.grad for x in xs if isinstance(x, torch.Tensor) and x.requires_grad])
    except Exception as e:
        print(name, type(e).__name__, str(e).splitlines()[0])


SPECIAL = [nan, inf, -inf, 0.0, 1.0, -2.0]
CONST = [2.0, 2.0, 2.0]
MATRIX = [[1.0, nan, 3.0], [2.0, 2.0, 2.0]]
NEG_INF = [-inf, -inf]

unary = {
    "abs": torch.abs, "sign": torch.sign, "sgn": torch.sgn, "neg": torch.neg, "exp": torch.exp,
    "log": torch.log, "sqrt": torch.sqrt, "rsqrt": torch.rsqrt, "reciprocal": torch.reciprocal,
    "sin": torch.sin, "cos": torch.cos, "tan": torch.tan, "tanh": torch.tanh, "sigmoid": torch.sigmoid,
    "relu": torch.relu, "square": torch.square, "log1p": torch.log1p, "expm1": torch.expm1,
    "log2": torch.log2, "log10": torch.log10, "sinh": torch.sinh, "cosh": torch.cosh,
    "asin": torch.asin, "acos": torch.acos, "atan": torch.atan, "erf": torch.erf,
    "floor": torch.floor, "ceil": torch.ceil, "round": torch.round, "trunc": torch.trunc,
    "frac": torch.frac, "pow2": lambda x: x ** 2, "pow0": lambda x: x ** 0, "pow_half": lambda x: x ** 0.5,
    "pow_neg1": lambda x: x ** -1, "pow3": lambda x: x ** 3, "rpow": lambda x: 2 ** x,
    "clamp": lambda x: x.clamp(-1, 1), "clamp_min": lambda x: x.clamp(min=0),
    "clamp_max": lambda x: x.clamp(max=0), "hardtanh": F.hardtanh, "relu6": F.relu6,
    "leaky_relu": F.leaky_relu, "elu": F.elu, "selu": F.selu, "silu": F.silu, "gelu": F.gelu,
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"), "softplus": F.softplus,
    "hardsigmoid": F.hardsigmoid,
}
for name, fn in unary.items():
    show(name, fn, SPECIAL)
for name in ("abs", "sign", "sgn", "sqrt", "reciprocal", "relu", "hardtanh", "pow_half", "exp", "tanh"):
    show(name + " -0", unary[name], [-0.0])

binary = {
    "add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div, "pow": torch.pow,
    "atan2": torch.atan2, "maximum": torch.maximum, "minimum": torch.minimum, "fmod": torch.fmod,
    "remainder": torch.remainder,
}
LEFT = [0.0, nan, 1.0, 0.0, inf, 2.0]
RIGHT = [0.0, 1.0, nan, nan, inf, 2.0]
for name, fn in binary.items():
    show(name, fn, LEFT, RIGHT)
show("where nan", lambda a, b: torch.where(torch.tensor([True, False, True, False, True, False]), a, b),
     LEFT, RIGHT)
show("atan2 -0", torch.atan2, [-0.0, 0.0, -0.0], [0.0, -0.0, -0.0])

reductions = {
    "sum": lambda x: x.sum(), "mean": lambda x: x.mean(), "prod": lambda x: x.prod(),
    "max": lambda x: x.max(), "min": lambda x: x.min(), "amax": lambda x: x.amax(),
    "amin": lambda x: x.amin(), "median": lambda x: x.median(), "std": lambda x: x.std(),
    "var": lambda x: x.var(), "std0": lambda x: x.std(correction=0), "var0": lambda x: x.var(correction=0),
    "norm": lambda x: x.norm(), "norm1": lambda x: x.norm(1), "norm3": lambda x: x.norm(3),
    "norm_inf": lambda x: x.norm(inf), "logsumexp": lambda x: x.logsumexp(0),
    "softmax": lambda x: x.softmax(0), "log_softmax": lambda x: x.log_softmax(0),
    "nansum": lambda x: x.nansum(), "cumsum": lambda x: x.cumsum(0), "cumprod": lambda x: x.cumprod(0),
    "kthvalue": lambda x: x.kthvalue(1)[0], "max_dim": lambda x: x.max(0)[0],
    "min_dim": lambda x: x.min(0)[0], "sort": lambda x: x.sort()[0], "topk": lambda x: x.topk(1)[0],
}
for label, values in (("nan", [1.0, nan, 3.0]), ("two nans", [nan, 1.0, nan]), ("const", CONST),
                      ("one", [2.0]), ("zeros", [0.0, 0.0]), ("-inf", NEG_INF), ("inf", [inf, 1.0]),
                      ("ties", [3.0, 1.0, 3.0])):
    for name, fn in reductions.items():
        if not (name == "kthvalue" and label == "const"):    # which of equal elements: PyTorch's selection order
            show(f"{name} {label}", fn, values)

for name, fn in (("std dim", lambda x: x.std(1)), ("var dim", lambda x: x.var(1)),
                 ("std dim keep", lambda x: x.std(0, keepdim=True)), ("norm dim", lambda x: x.norm(dim=1)),
                 ("amax dim", lambda x: x.amax(1)), ("amin dim", lambda x: x.amin(0)),
                 ("prod dim", lambda x: x.prod(1)), ("logsumexp dim", lambda x: x.logsumexp(1)),
                 ("softmax dim", lambda x: x.softmax(1)), ("median dim", lambda x: x.median(1)[0]),
                 ("mean dim", lambda x: x.mean(1)), ("max dim", lambda x: x.max(1)[0])):
    show(name, fn, MATRIX)
    show(name + " -inf rows", fn, [[-inf, -inf, -inf], [0.0, -inf, 1.0]])
    show(name + " zeros", fn, [[0.0, 0.0, 0.0], [0.0, 0.0, 1.0]])

print("dim=() and dim=[]")
X = [[1.0, 2.0], [3.0, 5.0]]
for d in ((), []):
    for name in ("sum", "mean", "nansum", "amax", "amin", "std", "var", "logsumexp"):
        show(f"{name}(dim={d!r})", lambda x, name=name, d=d: getattr(x, name)(d), X)
        show(f"{name}(dim={d!r}, keepdim)", lambda x, name=name, d=d: getattr(x, name)(d, keepdim=True), X)
    show(f"norm(dim={d!r})", lambda x, d=d: x.norm(dim=d), X)
    show(f"sum(dim={d!r}) of a 0-d", lambda x, d=d: x.sum(d), torch.tensor(3.0, requires_grad=True))

print("losses")
logits = [[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]]
show("ce all ignored", lambda x: F.cross_entropy(x, torch.tensor([-100, -100])), logits)
show("ce all ignored sum", lambda x: F.cross_entropy(x, torch.tensor([-100, -100]), reduction="sum"), logits)
show("ce one ignored", lambda x: F.cross_entropy(x, torch.tensor([-100, 2])), logits)
show("ce ignore_index=1", lambda x: F.cross_entropy(x, torch.tensor([1, 1]), ignore_index=1), logits)
show("nll all ignored", lambda x: F.nll_loss(x, torch.tensor([-100, -100])), logits)
show("ce zero weights", lambda x: F.cross_entropy(x, torch.tensor([0, 1]), weight=torch.tensor([0., 0., 1.])), logits)
show("ce smoothing all ignored", lambda x: F.cross_entropy(x, torch.tensor([-100, -100]), label_smoothing=0.1),
     logits)
show("ce -inf logit", lambda x: F.cross_entropy(x, torch.tensor([0, 1])), [[-inf, 0.0, 1.0], [0.0, 1.0, -inf]])
show("mse nan", lambda x: F.mse_loss(x, torch.tensor([nan, 1.0, 2.0])), [1.0, nan, 2.0])
show("l1 nan", lambda x: F.l1_loss(x, torch.tensor([0.0, 1.0, 2.0])), [nan, 1.0, 2.0])
show("smooth_l1 nan", lambda x: F.smooth_l1_loss(x, torch.zeros(3)), [nan, 0.5, 2.0])
show("huber nan", lambda x: F.huber_loss(x, torch.zeros(3)), [nan, 0.5, 2.0])
show("bce 0 and 1", lambda p: F.binary_cross_entropy(p, torch.tensor([0.0, 1.0, 1.0])), [0.0, 1.0, 0.0])
show("bce_logits inf", lambda x: F.binary_cross_entropy_with_logits(x, torch.tensor([0.0, 1.0, 1.0])),
     [inf, -inf, nan])
show("layer_norm const", lambda x: F.layer_norm(x, (3,)), [CONST])
show("normalize zeros", lambda x: F.normalize(x, dim=0), [0.0, 0.0])
show("cosine zeros", lambda a, b: F.cosine_similarity(a, b, dim=0), [0.0, 0.0], [1.0, 2.0])
show("batch_norm const", lambda x: F.batch_norm(x, None, None, training=True), [[1.0, 2.0], [1.0, 3.0]])
