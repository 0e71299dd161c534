"""torch.autograd: backward, grad, gradcheck, gradgradcheck, Function (custom ops), functional,
anomaly detection, and the old Variable."""
from .function import Function  # noqa: F401
from .functional import backward, grad  # noqa: F401
from . import forward_ad, functional, graph  # noqa: F401  (torch.autograd.functional.jacobian, hessian; .graph)
from .gradchecks import GradcheckError, gradcheck, gradgradcheck  # noqa: F401
from .anomaly_mode import detect_anomaly, set_detect_anomaly  # noqa: F401
from . import node_call  # noqa: F401  (grad_fn(*grads): sets Node.call)


def Variable(data, requires_grad=False):
    """The pre-0.4 wrapper, kept by PyTorch for old code: a Variable is a Tensor now.
    Variable(t) shares t's data, without its history."""
    return data.detach().requires_grad_(requires_grad)
