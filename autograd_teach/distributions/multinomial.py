"""Multinomial(total_count, probs): counts of total_count categorical draws
(torch/distributions/multinomial.py). Sampling only: log_prob needs lgamma,
which the package does not have yet."""
import numpy as np

from ..compat.size import Size
from ..core.tensor import Tensor
from . import constraints
from .categorical import Categorical
from .distribution import Distribution


class Multinomial(Distribution):
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

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

    def sample(self, sample_shape=Size()):
        """total_count categorical draws per sample, counted per outcome."""
        sample_shape = Size(sample_shape)
        draws = self._categorical.sample(Size((self.total_count,)) + sample_shape)._data
        draws = np.moveaxis(draws, 0, -1)          # (sample, batch, total_count)
        k = self.event_shape[0]
        counts = (draws[..., None] == np.arange(k)).sum(axis=-2)
        return Tensor._wrap(counts.astype(self.probs._data.dtype))
