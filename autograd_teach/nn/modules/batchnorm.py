"""nn.BatchNorm1d and nn.BatchNorm2d: each channel normalised over the batch
(and the spatial dims), then scaled and shifted. Running averages of the
mean and variance are kept as buffers, for eval mode."""
from ...core import grad_mode
from ...compat.creation import empty, ones, tensor, zeros
from ...compat import dtypes
from ...compat.device import check as check_device
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


class _BatchNorm(Module):
    _version = 2
    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 device=None, dtype=None, *, bias=True):
        check_device(device)
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            self.weight = Parameter(empty(num_features, dtype=dtype))
            if bias:
                self.bias = Parameter(empty(num_features, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", zeros(num_features, dtype=dtype))
            self.register_buffer("running_var", ones(num_features, dtype=dtype))
            self.register_buffer("num_batches_tracked", tensor(0, dtype=dtypes.int64))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self):
        if self.track_running_stats:
            with grad_mode.no_grad():
                self.running_mean.zero_()
                self.running_var.fill_(1)
                self.num_batches_tracked.zero_()

    def reset_parameters(self):
        """Running mean 0 and variance 1; weight ones and bias zeros."""
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _upgrade_state_dict(self, state_dict, prefix, version):
        """A checkpoint without num_batches_tracked, saved before version 2
        (when PyTorch added it) or without metadata (a dict written by hand),
        keeps the module's own count, as PyTorch's _NormBase does. One of
        version 2 (what state_dict() says now) must have it: else it is missing."""
        if (version is None or version < 2) and self.track_running_stats \
                and prefix + "num_batches_tracked" not in state_dict:
            state_dict[prefix + "num_batches_tracked"] = self.num_batches_tracked

    def forward(self, input):
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:     # cumulative average: batch k weighs 1/k
                factor = 1.0 / float(self.num_batches_tracked)
        # the batch's statistics in training, or in eval mode when there are no running ones
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        keep = not self.training or self.track_running_stats     # else the buffers are not updated
        return F.batch_norm(input, self.running_mean if keep else None, self.running_var if keep else None,
                            self.weight, self.bias, use_batch, factor, self.eps)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Input (N, C) or (N, C, L)."""

    def _check_input_dim(self, input):
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Input (N, C, H, W)."""

    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")
