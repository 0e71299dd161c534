"""nan_to_num: NaN, inf and -inf replaced by numbers (by default 0 and the
dtype's largest and lowest finite values), every other element kept.

The gradient passes where the input was finite and is 0 where it was
replaced: the output there is a constant. Integer and bool tensors hold no
NaN or inf, so they come back as a copy. The methods, with PyTorch's
argument checks, are in ops/methods.py; torch.nan_to_num, which also takes
out=, in compat/more_functions.py.
"""
import numpy as np

from ..core.node import OpNode


def isfinite(self):
    """at::isfinite, as the rule reads it: True where self is neither NaN nor ±inf."""
    return self.isfinite()


class NanToNumBackward0(OpNode):
    """out = self.nan_to_num(nan, posinf, neginf)

    self: grad * isfinite(self)

    A product, not a choice: a NaN in grad where self was not finite stays
    NaN (NaN * 0), as in PyTorch.
    """
    saved = ("self",)

    def forward(self, a, nan, posinf, neginf):
        out = a.copy()
        if a.dtype.kind != "f":
            return out
        info = np.finfo(a.dtype)
        for where, value, default in ((np.isnan(a), nan, 0.0), (a == np.inf, posinf, info.max),
                                      (a == -np.inf, neginf, info.min)):
            out[where] = default if value is None else _in_dtype(value, a.dtype)
        return out

    def backward(self, grad, a):
        return grad * np.isfinite(a)


def _in_dtype(value, dtype):
    """PyTorch's static_cast<scalar_t>(double): float16 by way of float32 (c10::Half
    is built from a float), so a value rounds twice, as there; too large: inf."""
    with np.errstate(over="ignore"):
        return np.float64(value).astype(np.float32 if dtype == np.float16 else dtype).astype(dtype)

