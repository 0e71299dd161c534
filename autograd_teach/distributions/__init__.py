"""torch.distributions: Normal, Bernoulli, Uniform, Categorical and
Multinomial, with log_prob, entropy, cdf/icdf, rsample and kl_divergence
as PyTorch 2.13 has them (one file per distribution, the base class in
distribution.py, the KL registry in kl.py).

Sampling draws PyTorch's generator as PyTorch's kernels do (torch.normal,
rand, bernoulli, multinomial), so a seeded program draws PyTorch's numbers."""
from . import constraints  # noqa: F401
from .bernoulli import Bernoulli  # noqa: F401
from .categorical import Categorical  # noqa: F401
from .distribution import Distribution  # noqa: F401
from .kl import kl_divergence, register_kl  # noqa: F401
from .multinomial import Multinomial  # noqa: F401
from .normal import Normal  # noqa: F401
from .uniform import Uniform  # noqa: F401
