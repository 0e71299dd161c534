"""DataLoader: samples from a dataset, batched by a BatchSampler, collated
into tensors. Single-process only (num_workers=0), as a lesson runs it."""
import collections.abc

import numpy as np

from ... import random
from ...tensor import Tensor
from .sampler import BatchSampler, RandomSampler, SequentialSampler


def default_collate(batch):
    """A list of samples -> one batch: tensors are stacked along a new first
    dim, numbers become a tensor, tuples and lists are collated field by field
    (into a list, as PyTorch does), dicts key by key."""
    from ... import more_functions
    from ...creation import as_tensor, tensor
    from ...dtypes import float64
    elem = batch[0]
    if isinstance(elem, Tensor):
        return more_functions.stack(batch, 0)
    if isinstance(elem, np.ndarray):
        return default_collate([as_tensor(b) for b in batch])
    if isinstance(elem, bool) or isinstance(elem, int):
        return tensor(batch)
    if isinstance(elem, float):
        return tensor(batch, dtype=float64)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        return {key: default_collate([d[key] for d in batch]) for key in elem}
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(e) != len(elem) for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(samples) for samples in zip(*batch)]
    raise TypeError(f"default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
                    f"found {type(elem)}")


def default_convert(data):
    """What batch_size=None gives: each sample as it is, numpy arrays made
    tensors, tuples and lists made lists (as PyTorch's default_convert)."""
    from ...creation import as_tensor
    if isinstance(data, np.ndarray):
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return {key: default_convert(data[key]) for key in data}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, (tuple, list)):
        return [default_convert(d) for d in data]
    return data


class DataLoader:
    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 generator=None, **kwargs):
        if num_workers != 0:
            raise NotImplementedError("autograd_teach: DataLoader runs in one process (num_workers=0)")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, "
                                 "sampler, and drop_last")
            batch_size, drop_last = None, False
        if sampler is None:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset, self.batch_size, self.drop_last = dataset, batch_size, drop_last
        self.sampler, self.batch_sampler, self.generator = sampler, batch_sampler, generator
        self.num_workers = num_workers
        self.collate_fn = collate_fn or (default_collate if batch_sampler is not None else default_convert)

    def __iter__(self):
        return _DataLoaderIter(self)

    def __len__(self):
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)


class _DataLoaderIter:
    """PyTorch's _SingleProcessDataLoaderIter. Creating it draws a base seed
    (for worker processes, unused here) from the generator; the sampler's own
    draw comes at the first batch, because its iterator is lazy. Both draws
    are kept so that the random stream advances as in PyTorch."""

    def __init__(self, loader):
        self._loader = loader
        self._sampler_iter = iter(loader.batch_sampler if loader.batch_sampler is not None else loader.sampler)
        self._base_seed = random.random_int64(loader.generator)

    def __iter__(self):
        return self

    def __next__(self):
        index = next(self._sampler_iter)
        dataset = self._loader.dataset
        if self._loader.batch_sampler is not None:
            data = [dataset[i] for i in index]
        else:
            data = dataset[index]
        return self._loader.collate_fn(data)

    def __len__(self):
        return len(self._loader)
