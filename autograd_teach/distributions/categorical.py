"""Categorical(probs): one of K outcomes (torch/distributions/categorical.py)."""
import numpy as np

from ..compat import sampling
from ..compat.size import Size
from ..core.tensor import Tensor


class Categorical:
    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if logits is not None:
            raise NotImplementedError("autograd_teach: Categorical(logits=...) is not implemented")
        if probs.dim() < 1:
            raise ValueError("`probs` parameter must be at least one-dimensional.")
        self.probs = probs / probs.sum(-1, keepdim=True)     # PyTorch normalizes the rows
        self._num_events = probs.shape[-1]
        self.batch_shape = Size(probs.shape[:-1])
        self.event_shape = Size(())

    def sample(self, sample_shape=()):
        """torch.multinomial(probs_2d, n, True).T, reshaped to sample_shape + batch_shape."""
        sample_shape = Size(sample_shape)
        n = int(np.prod(sample_shape, dtype=np.int64))
        probs_2d = self.probs.detach().reshape(-1, self._num_events)
        samples_2d = sampling.multinomial(probs_2d, n, True)._data.T
        return Tensor._wrap(samples_2d.reshape(sample_shape + self.batch_shape + self.event_shape))

    def __repr__(self):
        return f"Categorical(probs: {self.probs.size()})"
