"""The three-input pointwise ops that optimizers use: lerp (Adam's moving
averages), addcmul and addcdiv (Adam's and RMSprop's updates).

Each is a one-line formula, but its float32 bits are PyTorch's only if the
rounding is too: PyTorch's CPU kernels fuse lerp's and addcmul's multiply-add
into one rounding, in float32 and float64 (measured against torch 2.13 on a
grid, every length), while addcdiv rounds after each step.
"""
import numpy as np

from .. import kernels
from ..compat import dtypes
from ..core.node import OpNode, check_broadcast, quiet


def lerp(start, end, weight):
    """start + weight * (end - start), in PyTorch's two branches (Lerp.h):
    for |weight| < 0.5 from start, else back from end, so that weight 1 gives
    end exactly; in float32 one fused multiply-add, as its kernel computes."""
    small = np.abs(weight) < 0.5
    coeff = np.where(small, weight, weight - np.ones((), start.dtype))
    base = np.where(small, start, end)
    if start.dtype == kernels.FLOAT32:
        return kernels.fma_float32(coeff, end - start, base)
    if start.dtype == kernels.FLOAT64:
        return kernels.fma64(coeff, end - start, base)
    return base + coeff * (end - start)


class LerpBackward0(OpNode):
    """out = self.lerp(end, weight)   (weight a number)

    self: grad * (1 - weight)
    end: grad * weight
    """
    inputs = ("self", "end")
    attrs = ("weight",)

    def forward(self, a, end, weight):
        self.weight = weight
        w = np.asarray(weight, dtype=a.dtype)     # PyTorch casts the number to the tensor's dtype
        return lerp(a, end, w)

    def backward(self, grad):
        return grad * (1 - self.weight), grad * self.weight


class LerpBackward1(OpNode):
    """out = self.lerp(end, weight)   (weight a tensor)

    self: grad * (1 - weight)
    end: grad * weight
    weight: grad * (end - self)
    """
    inputs = ("self", "end", "weight")
    saved = ("self", "end", "weight")
    needed_for = {"self": "weight", "end": "weight"}

    def forward(self, a, end, weight):
        return lerp(a, end, weight)

    def backward(self, grad, a, end, weight):
        return grad * (1 - weight), grad * weight, None if a is None else grad * (end - a)


class AddcmulBackward0(OpNode):
    """out = self + value * tensor1 * tensor2

    self: grad
    tensor1: grad * (tensor2 * value)
    tensor2: grad * (tensor1 * value)
    """
    inputs = ("self", "tensor1", "tensor2")
    saved = ("tensor1", "tensor2")
    needed_for = {"tensor1": "tensor2", "tensor2": "tensor1"}
    attrs = ("value",)
    promote_params = True

    def forward(self, a, t1, t2, value):
        self.value = value
        scaled = np.asarray(value, dtype=a.dtype) * t1
        if a.dtype == kernels.FLOAT32 and t1.dtype == kernels.FLOAT32:
            return kernels.fma_float32(scaled, t2, a)              # one rounding, as PyTorch's kernel
        if a.dtype == kernels.FLOAT64 and t1.dtype == kernels.FLOAT64:
            return kernels.fma64(scaled, t2, a)              # float64 too (measured against torch 2.13)
        return a + scaled * t2

    def backward(self, grad, t1, t2):
        v = self.value
        return grad, None if t2 is None else grad * (t2 * v), None if t1 is None else grad * (t1 * v)


class AddcdivBackward0(OpNode):
    """out = self + value * tensor1 / tensor2

    self: grad
    tensor1: grad * (value / tensor2)
    tensor2: -grad * (value * tensor1 / (tensor2 * tensor2))
    """
    inputs = ("self", "tensor1", "tensor2")
    saved = ("tensor1", "tensor2")
    needed_for = {"tensor1": "tensor2"}
    attrs = ("value",)
    promote_params = True

    @quiet
    def forward(self, a, t1, t2, value):
        self.value = value
        return a + np.asarray(value, dtype=a.dtype) * t1 / t2

    @quiet
    def backward(self, grad, t1, t2):
        v = self.value
        g_t2 = None if t1 is None else -grad * (v * t1 / (t2 * t2))
        return grad, grad * (v / t2), g_t2


# -- the functions behind torch.lerp, addcmul, addcdiv, with PyTorch's checks -------------

ADDCDIV_INT = ("Integer division with addcdiv is no longer supported, and in a future  release addcdiv will "
               "perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented "
               "as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
               "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the "
               "latter implementation: (input + value * tensor1 / tensor2), for all dtypes.")


def lerp_checked(input, end, weight):
    """torch.lerp: no type promotion (a 0-d weight is cast), broadcasting."""
    tensor_weight = hasattr(weight, "_data")
    for name, t in (("end", end), ("weight", weight if tensor_weight and weight.dim() else None)):
        if t is not None and t.dtype is not input.dtype:
            raise RuntimeError(f"expected dtype {input.dtype.legacy_name.lower()} for `{name}` but got dtype "
                               f"{t.dtype.legacy_name.lower()}")
    if not input.dtype.is_floating_point:
        kernel = "lerp_kernel_tensor" if tensor_weight else "lerp_kernel_scalar"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{input.dtype.legacy_name}\'')
    _check_shapes(input, end, weight)
    if tensor_weight:
        return LerpBackward1.apply(input, end, weight)
    return LerpBackward0.apply(input, end, weight)


def addcmul(input, tensor1, tensor2, *, value=1):
    _check_shapes(input, tensor1, tensor2)
    return AddcmulBackward0.apply(input, tensor1, tensor2, _value(value, input, tensor1, tensor2))


def addcdiv(input, tensor1, tensor2, *, value=1):
    if not (tensor1.dtype.is_floating_point or tensor2.dtype.is_floating_point):
        raise RuntimeError(ADDCDIV_INT)
    _check_shapes(input, tensor1, tensor2)
    return AddcdivBackward0.apply(input, tensor1, tensor2, _value(value, input, tensor1, tensor2))


def _value(value, *tensors):
    """value is cast to the result's dtype, as PyTorch's kernel does (0.5 for longs is 0)."""
    if not dtypes.result_type(*tensors).is_floating_point and not isinstance(value, bool):
        return int(value)
    return value


def _check_shapes(*tensors):
    shape = ()
    for t in tensors:
        if hasattr(t, "_data"):
            check_broadcast(shape, t.shape)
            shape = np.broadcast_shapes(shape, t.shape)
