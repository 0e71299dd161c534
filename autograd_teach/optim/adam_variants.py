"""torch.optim.NAdam, RAdam and Adamax: three changes to Adam's update, as
PyTorch's single-tensor loops (the CPU default), in Tensor ops under no_grad.

- NAdam (Nesterov Adam) looks one step ahead: the step mixes this gradient and
  the running average, weighted by a momentum mu_t that warms up over the
  first steps (momentum_decay); the product of the mu's is kept in the state.
- RAdam (rectified Adam) takes plain momentum-SGD steps while the running
  variance is too young to trust (rho_t <= 5), then Adam's steps times a
  rectification factor.
- Adamax replaces Adam's running average of squares by a running maximum of
  |grad| (an infinity norm): no sqrt.

As in PyTorch, a learning rate given as a Tensor stays a Tensor in the step's
scalar arithmetic (so it rounds as that tensor's dtype). The step counter and
NAdam's mu product are float32 tensors, as PyTorch's: their rounding is part
of the result. NAdam and RAdam take a sqrt, which PyTorch's float32 kernels
do not round correctly (see rmsprop.py): their last bit may differ; Adamax is
PyTorch's to the bit."""
from ..compat.creation import tensor, zeros_like
from ..compat.dtypes import float32
from ..core.tensor import Tensor
from .adam import check_adam_args
from .optimizer import Optimizer


def _to_scalar(lr):
    """PyTorch's _to_scalar: a 1-element Tensor lr becomes 0-d (still a Tensor)."""
    return lr.reshape(()) if isinstance(lr, Tensor) and lr.dim() != 0 else lr


def _number(value):
    """A Tensor passed where PyTorch's C++ takes a Scalar (addcdiv_'s value=) is read as its value."""
    return value.item() if isinstance(value, Tensor) else value


def _new_state(state, param, **scalars):
    state["step"] = tensor(0.0, dtype=float32)
    for name, value in scalars.items():
        state[name] = tensor(value, dtype=float32)
    state["exp_avg"] = zeros_like(param)


class NAdam(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        check_adam_args(lr, eps, betas, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    def _update(self, param, grad, state, group):
        """PyTorch's _single_tensor_nadam for one parameter (not capturable)."""
        if not state:
            _new_state(state, param, mu_product=1.0)
            state["exp_avg_sq"] = zeros_like(param)
        lr, (beta1, beta2), eps = _to_scalar(group["lr"]), group["betas"], group["eps"]
        weight_decay, momentum_decay = group["weight_decay"], group["momentum_decay"]
        exp_avg, exp_avg_sq, mu_product = state["exp_avg"], state["exp_avg_sq"], state["mu_product"]
        if group["maximize"]:
            grad = -grad
        state["step"] += 1
        step = state["step"].item()
        bias_correction2 = 1 - beta2 ** step
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                param.mul_(_number(1 - lr * weight_decay))
            else:
                grad = grad.add(param, alpha=weight_decay)
        # the momentum of this step and of the next (Nesterov's look-ahead)
        mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * momentum_decay))
        mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * momentum_decay))
        mu_product *= mu                                   # a float32 tensor: rounded as PyTorch's
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denom = exp_avg_sq.div(bias_correction2).sqrt()
        mu_product_next = mu_product.item() * mu_next
        denom.add_(eps)
        param.addcdiv_(grad, denom, value=_number(-lr * (1.0 - mu) / (1.0 - mu_product.item())))
        param.addcdiv_(exp_avg, denom, value=_number(-lr * mu_next / (1.0 - mu_product_next)))


class RAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False,
                 *, foreach=None, maximize=False, capturable=False, differentiable=False):
        check_adam_args(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, decoupled_weight_decay=decoupled_weight_decay,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def _update(self, param, grad, state, group):
        """PyTorch's _single_tensor_radam for one parameter (not capturable)."""
        if not state:
            _new_state(state, param)
            state["exp_avg_sq"] = zeros_like(param)
        lr, (beta1, beta2), eps, weight_decay = _to_scalar(group["lr"]), group["betas"], group["eps"], \
            group["weight_decay"]
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        if group["maximize"]:
            grad = -grad
        state["step"] += 1
        step = state["step"].item()
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                param.mul_(_number(1 - lr * weight_decay))
            else:
                grad = grad.add(param, alpha=weight_decay)
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        bias_corrected_exp_avg = exp_avg / bias_correction1
        # rho: the length of the simple moving average the running variance stands for
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * beta2 ** step / bias_correction2
        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            adaptive_lr = bias_correction2 ** 0.5 / exp_avg_sq.sqrt().add_(eps)
            param.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
        else:     # too early to trust the variance: a momentum step
            param.add_(bias_corrected_exp_avg * lr, alpha=-1.0)


class Adamax(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        check_adam_args(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _update(self, param, grad, state, group):
        """PyTorch's _single_tensor_adamax for one parameter (not capturable)."""
        if not state:
            _new_state(state, param)
            state["exp_inf"] = zeros_like(param)
        lr, (beta1, beta2), eps = _to_scalar(group["lr"]), group["betas"], group["eps"]
        exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
        if group["maximize"]:
            grad = -grad
        state["step"] += 1
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        exp_avg.lerp_(grad, 1 - beta1)
        exp_inf.copy_(exp_inf.mul_(beta2).maximum(grad.abs().add_(eps)))   # torch.maximum(..., out=exp_inf)
        clr = lr / (1 - beta1 ** state["step"].item())
        param.addcdiv_(exp_avg, exp_inf, value=_number(-clr))
