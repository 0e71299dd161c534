"""torch.optim.RMSprop, Adagrad and Adadelta, as PyTorch's single-tensor loops
(the CPU default): each divides the step by the root of a running sum of
squared gradients, so each parameter gets a step size of its own.

The float operations are PyTorch's, in its order, but one: PyTorch's float32
sqrt is Intel MKL's, which is not correctly rounded (about 1 result in 6
differs from numpy's in the last bit), so a step can differ in its last bit;
the losses agree at the precision PyTorch prints."""
import numpy as np

from ..core.tensor import Tensor
from .adam import _addcmul
from .optimizer import Optimizer, fma


def _check(**values):
    for name, v in values.items():
        if not 0.0 <= v:
            raise ValueError(f"Invalid {name}: {v}")


class RMSprop(Optimizer):
    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check(**{"learning rate": lr, "epsilon value": eps, "momentum value": momentum,
                  "weight_decay value": weight_decay, "alpha value": alpha})
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach, maximize=maximize,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def _update(self, p, g, state, group):
        dt = p.dtype.type
        if not state:
            state["step"] = Tensor._wrap(np.array(0.0, dtype=np.float32))
            state["square_avg"] = Tensor._wrap(np.zeros_like(p))
            if group["momentum"] > 0:
                state["momentum_buffer"] = Tensor._wrap(np.zeros_like(p))
            if group["centered"]:
                state["grad_avg"] = Tensor._wrap(np.zeros_like(p))
        if group["maximize"]:
            g = -g
        state["step"]._data[...] = state["step"]._data + np.float32(1)
        alpha, eps, lr = group["alpha"], group["eps"], group["lr"]
        if group["weight_decay"] != 0:
            g = fma(p, dt(group["weight_decay"]), g)             # grad.add(param, alpha=weight_decay)
        sq = state["square_avg"]._data
        sq[...] = _addcmul(sq * dt(alpha), g, dt(1 - alpha))     # square_avg.mul_(alpha).addcmul_(grad, grad, 1 - alpha)
        if group["centered"]:
            ga = state["grad_avg"]._data
            ga[...] = fma(dt(1 - alpha), g - ga, ga)             # grad_avg.lerp_(grad, 1 - alpha)
            avg = np.sqrt(_addcmul(sq, ga, dt(-1)))              # square_avg.addcmul(grad_avg, grad_avg, -1).sqrt_()
        else:
            avg = np.sqrt(sq)
        avg = avg + dt(eps)
        if group["momentum"] > 0:
            buf = state["momentum_buffer"]._data
            buf[...] = buf * dt(group["momentum"]) + g / avg     # buf.mul_(momentum).addcdiv_(grad, avg)
            return fma(buf, dt(-lr), p)                          # param.add_(buf, alpha=-lr)
        return p + (dt(-lr) * g) / avg                           # param.addcdiv_(grad, avg, value=-lr)


class Adagrad(Optimizer):
    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        _check(**{"learning rate": lr, "lr_decay value": lr_decay, "weight_decay value": weight_decay,
                  "initial_accumulator_value value": initial_accumulator_value, "epsilon value": eps})
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        for group in self.param_groups:       # PyTorch makes Adagrad's state at once, not at the first step
            for p in group["params"]:
                self.state[p] = {"step": Tensor._wrap(np.array(0.0, dtype=np.float32)),
                                 "sum": Tensor._wrap(np.full_like(p._data, group["initial_accumulator_value"]))}

    def _update(self, p, g, state, group):
        dt = p.dtype.type
        state["step"]._data[...] = state["step"]._data + np.float32(1)
        step = state["step"]._data.item()
        if group["maximize"]:
            g = -g
        if group["weight_decay"] != 0:
            g = fma(p, dt(group["weight_decay"]), g)             # grad.add(param, alpha=weight_decay)
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        s = state["sum"]._data
        s[...] = _addcmul(s, g, dt(1))                           # state_sum.addcmul_(grad, grad, value=1)
        std = np.sqrt(s) + dt(group["eps"])
        return p + (dt(-clr) * g) / std                          # param.addcdiv_(grad, std, value=-clr)


class Adadelta(Optimizer):
    """RMSprop's running square of gradients, and in the numerator the root of
    a running square of the steps themselves (d2l 12.9): no learning rate is
    needed (lr=1.0 scales the step as computed)."""

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        _check(**{"learning rate": lr, "epsilon value": eps, "weight_decay value": weight_decay})
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize, capturable=capturable,
                        foreach=foreach, differentiable=differentiable)
        super().__init__(params, defaults)

    def _update(self, p, g, state, group):
        dt = p.dtype.type
        if not state:
            state["step"] = Tensor._wrap(np.array(0.0, dtype=np.float32))
            state["square_avg"] = Tensor._wrap(np.zeros_like(p))
            state["acc_delta"] = Tensor._wrap(np.zeros_like(p))
        state["step"]._data[...] = state["step"]._data + np.float32(1)
        if group["maximize"]:
            g = -g
        if group["weight_decay"] != 0:
            g = fma(p, dt(group["weight_decay"]), g)             # grad.add(param, alpha=weight_decay)
        rho, eps = group["rho"], dt(group["eps"])
        sq, acc = state["square_avg"]._data, state["acc_delta"]._data
        sq[...] = _addcmul(sq * dt(rho), g, dt(1 - rho))         # square_avg.mul_(rho).addcmul_(grad, grad, 1 - rho)
        std = np.sqrt(sq + eps)                                  # square_avg.add(eps).sqrt_()
        delta = np.sqrt(acc + eps) / std * g                     # acc_delta.add(eps).sqrt_().div_(std).mul_(grad)
        acc[...] = _addcmul(acc * dt(rho), delta, dt(1 - rho))   # acc_delta.mul_(rho).addcmul_(delta, delta, 1 - rho)
        return fma(delta, dt(-group["lr"]), p)                   # param.add_(delta, alpha=-lr)
