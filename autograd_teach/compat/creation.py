"""Factory functions: torch.tensor, zeros, ones, full, arange, rand, ...

PyTorch's dtype inference (tensor_methods.infer_array): Python floats give float32
(the default dtype), ints give int64, bools give bool; numpy arrays keep
their dtype."""
import math
import sys
import warnings

import numpy as np

from . import dtypes, random, range_factories
from .device import check as check_device
from .size import Size
from ..core.tensor import Tensor
from ..core.tensor_methods import infer_array

NON_FLOAT_GRAD = "Only Tensors of floating point and complex dtype can require gradients"


def _finish(data, dtype=None, requires_grad=False):
    if requires_grad is not None and not isinstance(requires_grad, (bool, np.bool_)):
        # PyTorch's argument parser names the factory: ones(), tensor(), ...
        fn = sys._getframe(1).f_code.co_name
        raise TypeError(f"{fn}(): argument 'requires_grad' must be bool, not {type(requires_grad).__name__}")
    dtypes.from_numpy(data.dtype)   # a numpy array of a dtype there is no tensor for: PyTorch's TypeError
    dt = dtypes.as_dtype(dtype)
    if dt is not None and data.dtype != dt.np:
        data = data.astype(dt.np)
    t = Tensor._wrap(data)
    if requires_grad:
        if data.dtype.kind != "f":
            raise RuntimeError(NON_FLOAT_GRAD)
        t.requires_grad = True
    return t


def tensor(data, dtype=None, device=None, requires_grad=False):
    check_device(device)
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.clone().detach() "
                      "or sourceTensor.clone().detach().requires_grad_(True), rather than "
                      "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
        return _finish(data._data.copy(), dtype, requires_grad)
    return _finish(infer_array(data, dtype), dtype, requires_grad)


def as_tensor(data, dtype=None):
    if isinstance(data, Tensor) and (dtype is None or dtypes.as_dtype(dtype) is data.dtype):
        return data
    return _finish(data if isinstance(data, np.ndarray) else infer_array(data, dtype), dtype)


def from_numpy(array):
    """Shares memory with the array, as in PyTorch."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    dtypes.from_numpy(array.dtype)
    return Tensor._wrap(array)


def _size(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list, Size)):
        size = size[0]
    for s in size:
        if not isinstance(s, (int, np.integer)):
            raise TypeError(f"zeros(): argument 'size' (position 1) must be tuple of ints, but found element "
                            f"of type {type(s).__name__}")
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: [{', '.join(map(str, size))}]")
    return tuple(int(s) for s in size)


def _size_kw(size, kw):
    """rand(2, 3), rand((2, 3)) and rand(size=(2, 3)) are the same call."""
    if "size" in kw:
        if size:
            raise TypeError("argument 'size' given by name and by position")
        size = (kw.pop("size"),)
    if kw:
        raise TypeError(f"got an unexpected keyword argument '{next(iter(kw))}'")
    return size


def _float_dtype(dtype, fn):
    dt = dtypes.as_dtype(dtype) or dtypes.default_float
    if not dt.is_floating_point:
        raise NotImplementedError(f"\"{fn}\" not implemented for '{dt.legacy_name}'")
    return dt


def zeros(*size, dtype=None, device=None, requires_grad=False):
    check_device(device)
    try:
        shape = _size(size)
    except RuntimeError:    # a negative size: PyTorch's zeros words it its own way
        raise RuntimeError("zeros: Dimension size must be non-negative.") from None
    return _finish(np.zeros(shape, dtype=(dtypes.as_dtype(dtype) or dtypes.default_float).np),
                   None, requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False):
    check_device(device)
    return _finish(np.ones(_size(size), dtype=(dtypes.as_dtype(dtype) or dtypes.default_float).np),
                   None, requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False):
    check_device(device)
    return zeros(_size(size), dtype=dtype, requires_grad=requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    check_device(device)
    if isinstance(fill_value, complex):
        dtypes.from_numpy(np.complex64)     # no complex tensors here: the error says so
    dt = dtypes.as_dtype(dtype) or dtypes.result_type(fill_value)
    return _finish(np.full(_size((size,)), fill_value, dtype=dt.np), None, requires_grad)


def zeros_like(t, dtype=None, device=None, requires_grad=False):
    check_device(device)
    return zeros(t.shape, dtype=dtype or t.dtype, requires_grad=requires_grad)


def ones_like(t, dtype=None, device=None, requires_grad=False):
    check_device(device)
    return ones(t.shape, dtype=dtype or t.dtype, requires_grad=requires_grad)


def full_like(t, fill_value, dtype=None, device=None, requires_grad=False):
    check_device(device)
    return full(t.shape, fill_value, dtype=dtype or t.dtype, requires_grad=requires_grad)


def empty_like(t, dtype=None, device=None, requires_grad=False):
    check_device(device)
    return zeros_like(t, dtype=dtype, requires_grad=requires_grad)


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False, **kw):
    check_device(device)
    size = _size_kw(size, kw)
    dt = _float_dtype(dtype, "check_uniform_bounds")
    return _finish(random.uniform(_size(size), 0.0, 1.0, dt.np, generator), None, requires_grad)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False, **kw):
    check_device(device)
    size = _size_kw(size, kw)
    dt = _float_dtype(dtype, "normal_kernel_cpu")
    return _finish(random.normal(_size(size), 0.0, 1.0, dt.np, generator), None, requires_grad)


def rand_like(t, dtype=None, device=None, requires_grad=False):
    check_device(device)
    return rand(t.shape, dtype=dtype or t.dtype, requires_grad=requires_grad)


def randn_like(t, dtype=None, device=None, requires_grad=False):
    check_device(device)
    return randn(t.shape, dtype=dtype or t.dtype, requires_grad=requires_grad)


def randint(low, high=None, size=None, *, generator=None, dtype=None, device=None, requires_grad=False):
    """randint(high, size) or randint(low, high, size), as in PyTorch."""
    check_device(device)
    if size is None and isinstance(high, (tuple, list)):
        low, high, size = 0, low, high
    elif high is None:
        low, high = 0, low
    return _finish(random.integers(low, high, _size((size,)), generator), dtype, requires_grad)


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False):
    check_device(device)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    return _finish(random.permutation(n, generator), dtype, requires_grad)


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False):
    """int64 when every argument is an integer, float32 otherwise (as PyTorch).
    The values are PyTorch's to the last bit (range_factories.arange_values)."""
    check_device(device)
    if end is None:
        start, end = 0, start
    args = [a.item() if isinstance(a, Tensor) else a for a in (start, end, step)]   # 0-d tensors: numbers
    if not all(math.isfinite(a) for a in args[:2]):
        raise RuntimeError(f"unsupported range: {args[0]} -> {args[1]}")
    if args[2] == 0:
        raise RuntimeError("step must be nonzero")
    if (args[2] > 0 and args[1] < args[0]) or (args[2] < 0 and args[1] > args[0]):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    is_int = all(isinstance(a, (int, np.integer)) for a in args)
    dt = dtypes.as_dtype(dtype) or (dtypes.int64 if is_int else dtypes.default_float)
    return _finish(range_factories.arange_values(*args, dt.np), None, requires_grad)


def linspace(start, end, steps, dtype=None, device=None, requires_grad=False):
    """PyTorch's values to the last bit (range_factories.linspace_values)."""
    check_device(device)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dt = dtypes.as_dtype(dtype) or dtypes.default_float
    data = range_factories.linspace_values(float(start), float(end), int(steps), dt.np) if steps else \
        np.zeros(0, dtype=dt.np)
    return _finish(data, None, requires_grad)


def eye(n, m=None, dtype=None, device=None, requires_grad=False):
    check_device(device)
    dt = dtypes.as_dtype(dtype) or dtypes.default_float
    return _finish(np.eye(n, m, dtype=dt.np), None, requires_grad)
