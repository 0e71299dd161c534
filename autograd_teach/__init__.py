"""autograd_teach: a small autograd that behaves like PyTorch's.

    import autograd_teach as torch

runs the autograd tutorials unchanged. This module is the front door only: it
hands on names from the modules that do the work."""
from . import autograd, cuda, nn  # noqa: F401
from .compat import dtypes  # noqa: F401
from .compat import messages as _messages, signatures as _signatures
from .autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled  # noqa: F401
from .compat.type_info import finfo, iinfo  # noqa: F401
from .compat.creation import (arange, as_tensor, empty, empty_like, eye, from_numpy, full, full_like,  # noqa: F401
                              linspace, ones, ones_like, rand, rand_like, randint, randn, randn_like, randperm,
                              tensor, zeros, zeros_like)
from .compat.dtypes import dtype, promote_types, result_type  # noqa: F401
from .compat.dtypes import bool_ as bool  # noqa: F401,A001
from .compat.dtypes import (float16, float32, float64, int8, int16, int32, int64, uint8)  # noqa: F401
from .core.grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,  # noqa: F401
                             no_grad, set_grad_enabled)
from .compat.printing import get_printoptions, set_printoptions  # noqa: F401
from .compat.generator import (Generator, default_generator, get_rng_state, initial_seed, manual_seed, seed,  # noqa: F401
                               set_rng_state)
from .compat.size import Size  # noqa: F401
from .core.tensor import Tensor, device  # noqa: F401

half, float, double = float16, float32, float64  # noqa: A001
short, int, long = int16, int32, int64  # noqa: A001

__version__ = "0.1.0"


def get_default_dtype():
    return dtypes.default_float


def is_tensor(obj):
    return isinstance(obj, Tensor)


def numel(input):
    return input.numel()


# The function forms, torch.exp(x) and friends, are the Tensor methods.
def _function_form(name):
    method = getattr(Tensor, name)

    def fn(input, *args, **kwargs):
        return method(input, *args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"torch.{name}(input, ...) is input.{name}(...)"
    return fn


for _name in ("neg", "negative", "reciprocal", "exp", "log", "sqrt",
              "abs", "sgn", "sin", "cos", "tanh", "sigmoid", "relu", "clamp", "clip", "square", "dot",
              "mv", "sum", "mean", "max", "min", "argmax", "argmin", "norm", "reshape", "t",
              "transpose", "permute", "unsqueeze", "squeeze", "flatten", "clone", "detach", "allclose",
              "equal", "eq", "ne", "lt", "le", "gt", "ge", "all", "any",
              "log1p", "expm1", "rsqrt", "sign", "tan", "log2", "log10", "exp2", "asin", "acos", "atan",
              "arcsin", "arccos", "arctan", "sinh", "cosh", "erf", "floor", "ceil", "round", "trunc", "fix",
              "frac", "amax", "amin", "logsumexp", "nansum", "flip", "fliplr", "flipud", "roll", "tile", "tril",
              "triu", "index_select", "sort", "argsort", "msort", "topk", "count_nonzero", "nonzero", "atan2",
              "arctan2", "diagonal", "diag", "diag_embed", "trace", "kthvalue", "median", "masked_select",
              "index_add", "cumprod", "asinh", "acosh", "atanh", "arcsinh", "arccosh", "arctanh"):
    globals()[_name] = _function_form(_name)
del _name


def _arithmetic_form(name, method):
    """torch.add(x, y) is x.add(y); anything but a tensor x and a tensor or a
    number y is PyTorch's TypeError, which names them by their place in the call."""
    method = getattr(Tensor, method)

    def fn(input, other, *args, **kwargs):
        if not (isinstance(input, Tensor) and _signatures.is_operand(other, Tensor)):
            raise _signatures.invalid_arguments(name, (input, other), Tensor, function=True)
        return method(input, other, *args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"torch.{name}(input, other, ...) is input.{method.__name__}(other, ...)"
    return fn


add, sub, mul, div, true_divide, subtract, multiply, divide = (
    _arithmetic_form(name, method) for name, method in (
        ("add", "add"), ("sub", "sub"), ("mul", "mul"), ("div", "div"), ("true_divide", "div"),
        ("subtract", "sub"), ("multiply", "mul"), ("divide", "div")))


# --- torch.nn, torch.optim and the functions their code calls ---
from . import optim, utils  # noqa: E402,F401
from .core.ops.multi_output import chunk, split, tensor_split, unbind  # noqa: E402,F401
from .compat.more_functions import (addmm, bmm, cat, concat, concatenate, cumsum, floor_divide, ger, isfinite,  # noqa: E402,F401
                                    isinf, isnan, log_softmax, masked_fill, maximum, minimum, normal, outer, prod,
                                    remainder, softmax, stack, std, var, where)
from .compat.shape_functions import (atleast_1d, atleast_2d, broadcast_to, diff, hstack, movedim, narrow, select,  # noqa: E402,F401
                                     row_stack, swapaxes, vstack)
from .compat.shape_functions import movedim as moveaxis, swapaxes as swapdims  # noqa: E402,F401


def pow(input, exponent):  # noqa: A001
    """torch.pow(2, x) is allowed: a number base gives PowBackward2."""
    if _signatures.is_operand(input, Tensor) and isinstance(exponent, Tensor):
        return input.pow(exponent) if isinstance(input, Tensor) else exponent.__rpow__(input)
    if not (isinstance(input, Tensor) and _signatures.is_operand(exponent, Tensor)):
        raise _signatures.invalid_arguments("pow", (input, exponent), Tensor, function=True)
    return input.pow(exponent)


# --- what d2l's chapters 2-5 call: save/load, linalg, multinomial, distributions, legacy types, cuda ---
from . import cuda, distributions, linalg  # noqa: E402,F401
from .compat.legacy_tensors import (BoolTensor, ByteTensor, CharTensor, DoubleTensor, FloatTensor,  # noqa: E402,F401
                                    HalfTensor, IntTensor, LongTensor, ShortTensor)
from .compat.sampling import multinomial  # noqa: E402,F401
from .compat.serialization import load, save  # noqa: E402,F401


# --- gather, scatter, take, lerp, addcmul, logical ops, ... (the ops a learner reaches for next) ---
from .ops.gather_scatter import gather, put, scatter, scatter_add, take  # noqa: E402,F401
from .ops.ternary import addcdiv, addcmul  # noqa: E402,F401
lerp = _function_form("lerp")  # noqa: E305
logical_not, clamp_min, clamp_max, fmod = map(_function_form, ("logical_not", "clamp_min", "clamp_max", "fmod"))


def _tensors_only(name, arg="other"):
    """torch.fmax(x, 2) is a TypeError naming position 2 (x.fmax(2) names position 1)."""
    method = getattr(Tensor, name)

    def fn(input, other, *args, **kwargs):
        if not isinstance(other, Tensor):
            raise _messages.must_be_tensor(name, arg, 2, other)
        return method(input, other, *args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"torch.{name}(input, other, ...) is input.{name}(other, ...)"
    return fn


logical_and, logical_or, logical_xor, fmax, fmin, isclose = map(
    _tensors_only, ("logical_and", "logical_or", "logical_xor", "fmax", "fmin", "isclose"))
mm, matmul = _tensors_only("mm", "mat2"), _tensors_only("matmul")
from .compat.shape_functions import meshgrid, repeat_interleave  # noqa: E402,F401

# --- torch.func: grad, vjp, jvp, vmap, jacrev, jacfwd, hessian ---
from . import func  # noqa: E402,F401
from .compat.einsum import einsum  # noqa: E402,F401
logcumsumexp = _function_form("logcumsumexp")  # noqa: E305
from .ops.bernoulli import bernoulli  # noqa: E402,F401
from .ops.unique import unique, unique_consecutive  # noqa: E402,F401
det, inverse = linalg.det, linalg.inv  # noqa: E305
from .ops.linalg_decompositions import legacy_slogdet as slogdet, legacy_svd as svd, logdet, pinverse  # noqa: E402,F401
from .ops.erfinv import erfinv  # noqa: E402,F401
from .ops.gamma_functions import digamma, lgamma, polygamma  # noqa: E402,F401
nan_to_num_ = _function_form("nan_to_num_")  # noqa: E305
from .compat.more_functions import nan_to_num  # noqa: E402,F401
from .compat.shape_functions import broadcast_tensors  # noqa: E402,F401
