"""torch.optim.SGD, as PyTorch's single-tensor loop (the CPU default)."""
import numpy as np

from ..core.tensor import Tensor
from .optimizer import Optimizer, _required, fma


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        if lr is not _required and lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, foreach=foreach, differentiable=differentiable,
                        fused=fused)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def _update(self, p, g, state, group):
        """grad (+ weight_decay * p) -> momentum buffer -> p - lr * step"""
        dt = p.dtype.type
        if group["maximize"]:
            g = -g
        if group["weight_decay"] != 0:
            g = fma(p, dt(group["weight_decay"]), g)            # grad.add(param, alpha=weight_decay)
        momentum = group["momentum"]
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = Tensor._wrap(g.copy())                     # the first step: buf = grad
                state["momentum_buffer"] = buf
            else:                                                # buf.mul_(momentum).add_(grad, alpha=1 - dampening)
                buf._data[...] = fma(g, dt(1 - group["dampening"]), buf._data * dt(momentum))
            g = fma(buf._data, dt(momentum), g) if group["nesterov"] else buf._data
        return fma(g, dt(-group["lr"]), p)                       # param.add_(grad, alpha=-lr)
