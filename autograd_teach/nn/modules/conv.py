"""nn.Conv1d and nn.Conv2d: a weight (out_channels, in_channels / groups,
*kernel_size) and a bias, initialised as PyTorch does; forward is F.conv1d
or F.conv2d."""

from ...compat.creation import empty
from ...compat.device import check as check_device
from .. import functional as F
from ..parameter import Parameter
from .linear import default_init
from .module import Module


def _tuple(value, n):
    """kernel_size=3 -> (3, 3), as PyTorch's _pair (a tuple or list is kept)."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _ConvNd(Module):
    """What Conv1d and Conv2d share: PyTorch's _ConvNd, without transposed
    convolution and with padding_mode 'zeros' only."""
    dims = None
    function = None

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        check_device(device)
        super().__init__()
        n = self.dims
        stride = _tuple(stride, n)
        self._check(in_channels, out_channels, stride, padding, groups, padding_mode)
        self.in_channels, self.out_channels, self.kernel_size = in_channels, out_channels, _tuple(kernel_size, n)
        self.stride, self.padding, self.dilation = stride, padding if isinstance(padding, str) else \
            _tuple(padding, n), _tuple(dilation, n)
        self.transposed, self.output_padding, self.groups = False, (0,) * n, groups
        self.padding_mode = padding_mode
        self.weight = Parameter(empty(self._weight_shape(in_channels, out_channels, groups), dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def _weight_shape(self, in_channels, out_channels, groups):
        return (out_channels, in_channels // groups, *self.kernel_size)

    @staticmethod
    def _check(in_channels, out_channels, stride, padding, groups, padding_mode):
        """PyTorch's ValueErrors, in its order."""
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {{'same', 'valid'}}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode != "zeros":
            raise NotImplementedError(f"autograd_teach: padding_mode={padding_mode!r}; only 'zeros' is implemented")

    def reset_parameters(self):
        """As Linear's (fan_in = in_channels / groups * kernel pixels)."""
        default_init(self.weight, self.bias)

    def forward(self, input):
        return type(self).function(input, self.weight, self.bias, self.stride, self.padding, self.dilation,
                                   self.groups)

    def extra_repr(self):
        """As PyTorch's: padding, dilation and groups only when not the default."""
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


class Conv1d(_ConvNd):
    dims = 1
    function = staticmethod(F.conv1d)


class Conv2d(_ConvNd):
    dims = 2
    function = staticmethod(F.conv2d)


class ConvTranspose2d(_ConvNd):
    """conv_transpose2d with a weight (in_channels, out_channels / groups,
    *kernel_size), initialised as Conv2d's (fan_in from the weight's dim 1)."""
    dims = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype)
        self.transposed, self.output_padding = True, _tuple(output_padding, 2)

    def _weight_shape(self, in_channels, out_channels, groups):
        return (in_channels, out_channels // groups, *self.kernel_size)

    def forward(self, input, output_size=None):
        output_padding = self._output_padding(input, output_size)
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                                  self.groups, self.dilation)

    def _output_padding(self, input, output_size):
        """output_size picks the output_padding that gives it (PyTorch's _output_padding)."""
        if output_size is None:
            return self.output_padding
        wanted = list(output_size)[-2:]
        smallest = [(i - 1) * s - 2 * p + d * (k - 1) + 1 for i, s, p, d, k in
                    zip(input.shape[-2:], self.stride, self.padding, self.dilation, self.kernel_size)]
        largest = [m + s - 1 for m, s in zip(smallest, self.stride)]
        if any(not (lo <= w <= hi) for w, lo, hi in zip(wanted, smallest, largest)):
            raise ValueError(f"requested an output size of {tuple(output_size)}, but valid sizes range from "
                             f"{smallest} to {largest} (for an input of torch.Size({list(input.shape[-2:])}))")
        return tuple(w - lo for w, lo in zip(wanted, smallest))
