"""nn.Linear: y = x @ weight.T + bias, initialised as PyTorch does."""
import math

from ...compat.creation import empty
from ...compat.device import check as check_device
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


def default_init(weight, bias):
    """PyTorch's default for Linear and Conv: kaiming_uniform_ with a=sqrt(5),
    which comes to uniform(-1/sqrt(fan_in), 1/sqrt(fan_in)), then the bias
    from the same range. Both draw from the global generator, weight first."""
    init.kaiming_uniform_(weight, a=math.sqrt(5))
    if bias is not None:
        fan_in, _ = init._calculate_fan_in_and_fan_out(weight)
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        init.uniform_(bias, -bound, bound)


class Identity(Module):
    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        check_device(device)
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(empty((out_features, in_features), dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        default_init(self.weight, self.bias)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"
