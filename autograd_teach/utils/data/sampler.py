"""Samplers: which indices, in which order, and how they are batched.

RandomSampler draws its order exactly as PyTorch's does: one int64 seed from
the generator (`torch.empty((), dtype=torch.int64).random_()`), a fresh
Generator seeded with it, then randperm from that generator. So after
`torch.manual_seed(s)` the shuffled batches come in PyTorch's order."""
import itertools

from ...compat import generator as generators
from ...compat import random


class Sampler:
    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source, self.replacement, self._num_samples = data_source, replacement, num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        if self.generator is None:
            generator = generators.Generator().manual_seed(random.random_int64())
        else:
            generator = self.generator
        if self.replacement:
            # with replacement: randint(high=n) in blocks of 32, then the rest
            for _ in range(self.num_samples // 32):
                yield from random.integers(0, n, (32,), generator).tolist()
            yield from random.integers(0, n, (self.num_samples % 32,), generator).tolist()
            return
        for _ in range(self.num_samples // n):
            yield from random.permutation(n, generator).tolist()
        yield from random.permutation(n, generator).tolist()[:self.num_samples % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices, in an order drawn by randperm."""

    def __init__(self, indices, generator=None):
        self.indices, self.generator = indices, generator

    def __iter__(self):
        for i in random.permutation(len(self.indices), self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class BatchSampler(Sampler):
    def __init__(self, sampler, batch_size, drop_last):
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self):
        sampler_iter = iter(self.sampler)
        while True:
            batch = list(itertools.islice(sampler_iter, self.batch_size))
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield batch

    def __len__(self):
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
