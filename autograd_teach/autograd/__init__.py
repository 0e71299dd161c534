"""torch.autograd: backward, grad, gradcheck, gradgradcheck, Function (custom ops), functional."""
from .function import Function  # noqa: F401
from .functional import backward, grad  # noqa: F401
from . import functional  # noqa: F401  (torch.autograd.functional.jacobian, hessian)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck  # noqa: F401
