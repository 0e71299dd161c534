"""torch.finfo and torch.iinfo: the limits of a dtype (eps, max, min, ...), as
PyTorch reports them; the numbers are numpy's for the same dtype."""
import numpy as np

from . import dtypes


def _g(x):
    return f"{x:.6g}"


class finfo:
    """finfo(dtype=default): bits, eps, max, min, tiny (= smallest_normal), resolution."""

    def __init__(self, type=None):
        d = dtypes.default_float if type is None else dtypes.as_dtype(type)
        if not d.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        info = np.finfo(d.np)
        self.bits, self.dtype = info.bits, d.name
        self.eps, self.max, self.min = float(info.eps), float(info.max), float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -info.precision     # numpy's is a float16/float32 number: 1e-06 as 9.99e-07

    def __repr__(self):
        return (f"finfo(resolution={_g(self.resolution)}, min={_g(self.min)}, max={_g(self.max)}, "
                f"eps={_g(self.eps)}, smallest_normal={_g(self.smallest_normal)}, tiny={_g(self.tiny)}, "
                f"dtype={self.dtype})")


class iinfo:
    """iinfo(dtype): bits, max, min of an integer dtype."""

    def __init__(self, type):
        d = dtypes.as_dtype(type)
        if d is dtypes.bool_:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if d.is_floating_point:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle "
                            "'torch.iinfo'")
        info = np.iinfo(d.np)
        self.bits, self.dtype, self.max, self.min = info.bits, d.name, int(info.max), int(info.min)

    def __repr__(self):
        return f"iinfo(min={_g(float(self.min))}, max={_g(float(self.max))}, dtype={self.dtype})"
