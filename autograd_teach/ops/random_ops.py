"""torch.normal with tensor arguments. PyTorch draws standard normals first,
then scales and shifts them in place: out.mul_(std).add_(mean). The gradient
reaches mean and std through that formula only in shape: PyTorch defines it as
zero (the sample is treated as noise), so we do too."""
import numpy as np

from ..compat import random
from ..core.node import OpNode
from ..core.ops.selection import zeros_like  # noqa: F401  (the rules call it)


class NormalBackward1(OpNode):
    """out = normal(mean, std): mean a tensor, std a number

    mean: zeros_like(grad)"""
    inputs = ("mean",)
    to_float = True

    def forward(self, mean, std, generator=None):
        random.check_std(std)
        z = random.normal(mean.shape, 0.0, std, mean.dtype, generator)
        return z + mean

    def backward(self, grad):
        return np.zeros_like(grad)


class NormalBackward2(OpNode):
    """out = normal(mean, std): mean a number, std a tensor

    std: zeros_like(grad)"""
    inputs = ("std",)
    to_float = True

    def forward(self, std, mean, generator=None):
        random.check_std(std)
        z = random.normal(std.shape, 0.0, 1.0, std.dtype, generator)
        return z * std + np.asarray(mean, dtype=std.dtype)

    def backward(self, grad):
        return np.zeros_like(grad)


class NormalBackward3(OpNode):
    """out = normal(mean, std): both tensors

    mean: zeros_like(grad)
    std: zeros_like(grad)"""
    inputs = ("mean", "std")

    def forward(self, mean, std, generator=None):
        random.check_std(std)
        shape = np.broadcast_shapes(mean.shape, std.shape)
        z = random.normal(shape, 0.0, 1.0, np.result_type(mean, std), generator)
        return z * std + mean

    def backward(self, grad):
        return np.zeros_like(grad), np.zeros_like(grad)
