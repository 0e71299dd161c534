"""torch.distributions: the two d2l 2.6 draws dice with, sampling only.

Both sample through torch.multinomial (compat/sampling.py), so a seeded program
draws PyTorch's numbers. log_prob, entropy, rsample and the other
distributions are not here."""
from .categorical import Categorical  # noqa: F401
from .multinomial import Multinomial  # noqa: F401
