"""torch.autograd: backward, grad, gradcheck and Function (custom ops)."""
from .function import Function  # noqa: F401
from .functional import backward, grad  # noqa: F401
from .gradcheck import GradcheckError, gradcheck  # noqa: F401
