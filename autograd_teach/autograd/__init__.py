"""torch.autograd: backward, grad and gradcheck."""
from .functional import backward, grad  # noqa: F401
from .gradcheck import GradcheckError, gradcheck  # noqa: F401
