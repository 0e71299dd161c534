"""Multinomial(total_count, probs): counts of total_count categorical draws
(torch/distributions/multinomial.py)."""
import numpy as np

from ..compat.size import Size
from ..core.tensor import Tensor
from .categorical import Categorical


class Multinomial:
    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        self.batch_shape = self._categorical.batch_shape
        self.event_shape = Size(self._categorical.probs.shape[-1:])

    @property
    def probs(self):
        return self._categorical.probs

    def sample(self, sample_shape=()):
        """total_count categorical draws per sample, counted per outcome."""
        sample_shape = Size(sample_shape)
        draws = self._categorical.sample(Size((self.total_count,)) + sample_shape)._data
        draws = np.moveaxis(draws, 0, -1)          # (sample, batch, total_count)
        k = self.event_shape[0]
        counts = (draws[..., None] == np.arange(k)).sum(axis=-2)
        return Tensor._wrap(counts.astype(self.probs._data.dtype))

    def __repr__(self):
        return "Multinomial()"
