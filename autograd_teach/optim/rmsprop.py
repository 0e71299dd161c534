"""torch.optim.RMSprop, Adagrad and Adadelta, as PyTorch's single-tensor loops
(the CPU default): each divides the step by the root of a running sum of
squared gradients, so each parameter gets a step size of its own.

In Tensor ops under no_grad, as PyTorch's loops read. The float operations
are PyTorch's, in its order, but one: PyTorch's float32
sqrt is Intel MKL's, which is not correctly rounded (about 1 result in 6
differs from numpy's in the last bit), so a step can differ in its last bit;
the losses agree at the precision PyTorch prints."""
from ..compat.creation import full_like, tensor, zeros_like
from ..compat.dtypes import float32
from .optimizer import Optimizer


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

    def _update(self, param, grad, state, group):
        """PyTorch's _single_tensor_rmsprop for one parameter."""
        if not state:
            state["step"] = tensor(0.0, dtype=float32)
            state["square_avg"] = zeros_like(param)
            if group["momentum"] > 0:
                state["momentum_buffer"] = zeros_like(param)
            if group["centered"]:
                state["grad_avg"] = zeros_like(param)
        lr, alpha, eps, square_avg = group["lr"], group["alpha"], group["eps"], state["square_avg"]
        if group["maximize"]:
            grad = -grad
        state["step"] += 1
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
        if group["centered"]:
            grad_avg = state["grad_avg"]
            grad_avg.lerp_(grad, 1 - alpha)
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add_(eps)
        if group["momentum"] > 0:
            buf = state["momentum_buffer"]
            buf.mul_(group["momentum"]).addcdiv_(grad, avg)
            param.add_(buf, alpha=-lr)
        else:
            param.addcdiv_(grad, avg, value=-lr)


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
                self.state[p] = {"step": tensor(0.0, dtype=float32),
                                 "sum": full_like(p, group["initial_accumulator_value"])}

    def _update(self, param, grad, state, group):
        """PyTorch's _single_tensor_adagrad for one parameter."""
        state["step"] += 1
        step = state["step"].item()
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        state_sum = state["sum"]
        state_sum.addcmul_(grad, grad, value=1)
        std = state_sum.sqrt().add_(group["eps"])
        param.addcdiv_(grad, std, value=-clr)


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

    def _update(self, param, grad, state, group):
        """PyTorch's _single_tensor_adadelta for one parameter."""
        if not state:
            state["step"] = tensor(0.0, dtype=float32)
            state["square_avg"] = zeros_like(param)
            state["acc_delta"] = zeros_like(param)
        rho, eps, square_avg, acc_delta = group["rho"], group["eps"], state["square_avg"], state["acc_delta"]
        state["step"] += 1
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        delta.div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        param.add_(delta, alpha=-group["lr"])
