"""Multinomial(total_count, probs): counts of total_count categorical draws
(torch/distributions/multinomial.py): sampling, log_prob and entropy."""
import math

import numpy as np

from ..compat.creation import arange, full, tensor
from ..compat.size import Size
from ..core.tensor import Tensor
from . import constraints
from .categorical import Categorical
from .distribution import Distribution
from .utils import broadcast_all, probs_to_logits


class Multinomial(Distribution):
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        if total_count < 0 and self._validate_args:      # the default: PyTorch's Binomial is built without
            self._refuse_negative_count()                 # validate_args, as the Categorical above
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def _refuse_negative_count(self):
        """PyTorch's Multinomial builds a Binomial(total_count, probs), whose
        validation refuses the count: its message, naming the Binomial."""
        count = full(self.probs.shape, float(self.total_count), dtype=self.probs.dtype)
        shown = lambda t: t if t.numel() == 1 else t.size()      # noqa: E731  (Distribution.__repr__'s rule)
        raise ValueError(f"Expected parameter total_count (Tensor of shape {tuple(count.shape)}) of distribution "
                         f"Binomial(total_count: {shown(count)}, probs: {shown(self.probs)}) to satisfy the "
                         f"constraint IntegerGreaterThan(lower_bound=0), but found invalid values:\n{count}")

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def param_shape(self):
        return self._categorical.param_shape

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self):
        return constraints.multinomial(self.total_count)

    def entropy(self):
        """n H(p) - log n! + sum over outcomes i and counts k of
        P(x_i = k) log k!, with x_i ~ Binomial(n, p_i), as PyTorch sums it."""
        n = tensor(self.total_count)
        term1 = n * self._categorical.entropy() - (n + 1).lgamma()
        support = arange(1 + self.total_count, dtype=self.probs.dtype)
        support = support.view((-1,) + (1,) * self.probs.dim())[1:]
        binomial_probs = self._binomial_log_prob(support).exp()
        weights = (support + 1).lgamma()
        return term1 + (binomial_probs * weights).sum([0, -1])

    def _binomial_log_prob(self, k):
        """Binomial(total_count, probs).log_prob(k), PyTorch's formula: k logit
        - n max(logit, 0) - n log1p(e^-|logit|) + log(n! / (k! (n - k)!))."""
        total_count, probs = broadcast_all(self.total_count, self.probs)
        logits = probs_to_logits(probs, is_binary=True)
        log_factorial_n = (total_count + 1).lgamma()
        log_factorial_k = (k + 1).lgamma()
        log_factorial_nmk = (total_count - k + 1).lgamma()
        clamped = (logits.clamp(min=0) + logits - logits.clamp(max=0)) / 2
        normalize_term = (total_count * clamped + total_count * (-logits.abs()).exp().log1p() - log_factorial_n)
        return k * logits - log_factorial_k - log_factorial_nmk - normalize_term

    def log_prob(self, value):
        """log(n! / prod(x_i!) * prod(p_i ^ x_i)), with n! = Gamma(n + 1); a
        -inf logit with a zero count adds 0, not nan (0 * -inf)."""
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        logits = logits.clone()
        log_factorial_n = (value.sum(-1) + 1).lgamma()
        log_factorial_xs = (value + 1).lgamma().sum(-1)
        logits[(value == 0) & (logits == -math.inf)] = 0
        log_powers = (logits * value).sum(-1)
        return log_factorial_n - log_factorial_xs + log_powers

    def sample(self, sample_shape=Size()):
        """total_count categorical draws per sample, counted per outcome."""
        sample_shape = Size(sample_shape)
        draws = self._categorical.sample(Size((self.total_count,)) + sample_shape)._data
        draws = np.moveaxis(draws, 0, -1)          # (sample, batch, total_count)
        k = self.event_shape[0]
        counts = (draws[..., None] == np.arange(k)).sum(axis=-2)
        return Tensor._wrap(counts.astype(self.probs._data.dtype))
