"""torch.optim.Adam and AdamW, as PyTorch's single-tensor loop (the CPU
default). AdamW is Adam with the weight decay applied to the parameter
itself (decoupled) instead of added to the gradient."""
import numpy as np

from ..core.tensor import Tensor
from .optimizer import Optimizer, fma


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable, differentiable=differentiable,
                        fused=fused, decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)

    def _update(self, p, g, state, group):
        dt = p.dtype.type
        if not state:
            state["step"] = Tensor._wrap(np.array(0.0, dtype=np.float32))
            state["exp_avg"] = Tensor._wrap(np.zeros_like(p))
            state["exp_avg_sq"] = Tensor._wrap(np.zeros_like(p))
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = Tensor._wrap(np.zeros_like(p))
        lr, (beta1, beta2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        if group["maximize"]:
            g = -g
        step_t = state["step"]
        step_t._data[...] = step_t._data + np.float32(1)
        if wd != 0:
            if group["decoupled_weight_decay"]:
                p = p * dt(1 - lr * wd)                          # param.mul_(1 - lr * weight_decay)
            else:
                g = fma(p, dt(wd), g)                            # grad.add(param, alpha=weight_decay)
        m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
        m[...] = fma(dt(1 - beta1), g - m, m)                    # exp_avg.lerp_(grad, 1 - beta1)
        v[...] = _addcmul(v * dt(beta2), g, dt(1 - beta2))       # exp_avg_sq.mul_(beta2).addcmul_(grad, grad, 1 - beta2)
        step = step_t._data.item()
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = bias_correction2 ** 0.5
        if group["amsgrad"]:
            vmax = state["max_exp_avg_sq"]._data
            vmax[...] = np.maximum(vmax, v)
            v = vmax
        denom = np.sqrt(v) / dt(bias_correction2_sqrt) + dt(eps)
        return p + (dt(-step_size) * m) / denom                  # param.addcdiv_(exp_avg, denom, value=-step_size)


def _addcmul(base, g, value):
    """base + value * g * g as PyTorch's addcmul kernel rounds it: (value * g)
    rounded, then one fused multiply-add (measured against torch 2.13)."""
    return fma(value * g, g, base)


class AdamW(Adam):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)
