"""DataLoader: samples from a dataset, batched by a BatchSampler, collated
into tensors, all in this process (num_workers=N mirrors PyTorch's order
and its random draws without starting workers: see DataLoader)."""
import collections
import collections.abc
import os
import warnings

import numpy as np

from ...compat import random
from ...core.tensor import Tensor
from .dataset import TensorDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler


def default_collate(batch):
    """A list of samples -> one batch: tensors are stacked along a new first
    dim, numbers become a tensor, tuples and lists are collated field by field
    (into a list, as PyTorch does), dicts key by key."""
    from ...compat import more_functions
    from ...compat.creation import as_tensor, tensor
    from ...compat.dtypes import float64
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


def _rows_at_once(tensors, index):
    """default_collate([dataset[i] for i in index]) for a TensorDataset, in
    one indexing per tensor instead of a view per example and a stack: the
    same values, dtypes and shapes, each a new contiguous tensor, as stack
    makes. Only where nothing is recorded (no tensor requires grad) and every
    index is in range; else None, and the general way runs (with PyTorch's
    errors, and its graph of selects and a stack)."""
    from ...core.grad_mode import is_grad_enabled
    n = len(tensors[0])
    if not index or any(t.requires_grad for t in tensors) and is_grad_enabled():
        return None
    at = np.asarray(index)
    if at.dtype.kind not in "iu" or at.ndim != 1 or at.min() < -n or at.max() >= n:
        return None
    return [Tensor._wrap(t._data[at]) for t in tensors]     # (t[at] without the op's recording checks)


def default_convert(data):
    """What batch_size=None gives: each sample as it is, numpy arrays made
    tensors, tuples and lists made lists (as PyTorch's default_convert)."""
    from ...compat.creation import as_tensor
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
    """Batches of a dataset, in PyTorch's order.

    num_workers=N is accepted and gives the batches PyTorch gives, in the
    same order, but everything runs in this process (no worker processes):
    what is mirrored is how PyTorch's main process consumes the random
    stream. Both kinds of iterator draw a base seed for the workers from the
    generator when they are created; with workers, the iterator also takes
    prefetch_factor * num_workers batches of indices from the sampler at
    once (so a shuffle draws its seed at iter(), not at the first next()),
    then one more per batch it returns; with persistent_workers the iterator
    is made once and reused, so later epochs draw no new base seed.
    Not mirrored, as there are no workers: random numbers drawn inside a
    dataset's __getitem__ come here from the default generator (in PyTorch
    from each worker's own, seeded base_seed + worker id), worker_init_fn is
    not called, and get_worker_info() is always None."""

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device="", in_order=True):
        _check_workers(num_workers, timeout, prefetch_factor, persistent_workers, multiprocessing_context)
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
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
        self.num_workers, self.prefetch_factor, self.persistent_workers = num_workers, prefetch_factor, \
            persistent_workers
        self.pin_memory, self.pin_memory_device, self.timeout = pin_memory, pin_memory_device, timeout
        self.worker_init_fn, self.multiprocessing_context, self.in_order = worker_init_fn, \
            multiprocessing_context, in_order
        self.collate_fn = collate_fn or (default_collate if batch_sampler is not None else default_convert)
        self._iterator = None
        _warn_too_many_workers(num_workers)

    def __iter__(self):
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = _DataLoaderIter(self)
            else:
                self._iterator.reset()
            return self._iterator
        if self.num_workers > 0:
            _warn_too_many_workers(self.num_workers)
        return _DataLoaderIter(self)

    def __len__(self):
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)


def _check_workers(num_workers, timeout, prefetch_factor, persistent_workers, multiprocessing_context):
    """PyTorch's checks of the worker options, in its order."""
    if num_workers < 0:
        raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                         "multiprocessing.")
    if timeout < 0:
        raise ValueError("timeout option should be non-negative")
    if num_workers == 0 and prefetch_factor is not None:
        raise ValueError("prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 "
                         "to enable multiprocessing, otherwise set prefetch_factor to None.")
    if num_workers > 0 and prefetch_factor is not None and prefetch_factor < 0:
        raise ValueError("prefetch_factor option should be non-negative")
    if persistent_workers and num_workers == 0:
        raise ValueError("persistent_workers option needs num_workers > 0")
    if multiprocessing_context is not None and num_workers == 0:
        raise ValueError(f"multiprocessing_context can only be used with multi-process loading (num_workers > 0), "
                         f"but got num_workers={num_workers}")


def _warn_too_many_workers(num_workers):
    """check_worker_number_rationality: more workers than CPUs warns."""
    if not num_workers:
        return
    suggest = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if suggest is not None and num_workers <= suggest:
        return
    if suggest is None:
        hint = "DataLoader is not able to compute a suggested max number of worker in current system."
    else:
        hint = (f"Our suggested max number of worker in current system is {suggest}"
                f"{'' if hasattr(os, 'sched_getaffinity') else ' (`cpuset` is not taken into account)'}, "
                "which is smaller than what this DataLoader is going to create.")
    warnings.warn(f"This DataLoader will create {num_workers} worker processes in total. {hint} Please be aware "
                  "that excessive worker creation might get DataLoader running slow or even freeze, lower the "
                  "worker number to avoid potential slowness/freeze if necessary.", UserWarning, stacklevel=3)


def get_worker_info():
    """None: this code runs in the main process (there are no workers here)."""
    return None


class _DataLoaderIter:
    """PyTorch's _SingleProcessDataLoaderIter, and the index traffic of its
    _MultiProcessingDataLoaderIter. Creating it draws a base seed (for the
    workers, unused here) from the generator; the sampler's own draws come
    when indices are taken from it, because its iterator is lazy: at the
    first batch without workers, at creation (the prefetch) with them."""

    def __init__(self, loader):
        self._loader = loader
        if loader.pin_memory:
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, then device pinned "
                          "memory won't be used.", UserWarning, stacklevel=3)
        self._sampler_iter = iter(self._index_sampler())
        self._base_seed = random.random_int64(loader.generator)
        if loader.num_workers > 0:
            if loader.prefetch_factor <= 0:
                raise AssertionError("prefetch_factor must be greater than 0 for MultiProcessingDataLoaderIter")
            self.reset()

    def _index_sampler(self):
        loader = self._loader
        return loader.batch_sampler if loader.batch_sampler is not None else loader.sampler

    def reset(self):
        """With workers (_MultiProcessingDataLoaderIter._reset): a new pass
        over the sampler, prefetch_factor * num_workers batches of indices
        taken from it at once."""
        self._sampler_iter = iter(self._index_sampler())
        self._queued = collections.deque()
        for _ in range(self._loader.prefetch_factor * self._loader.num_workers):
            self._queue_one()

    def _queue_one(self):
        index = next(self._sampler_iter, None)
        if index is not None:
            self._queued.append(index)

    def _next_index(self):
        if self._loader.num_workers == 0:
            return next(self._sampler_iter)
        if not self._queued:
            raise StopIteration
        index = self._queued.popleft()
        self._queue_one()           # a batch came back: its worker gets the next indices
        return index

    def __iter__(self):
        return self

    def __next__(self):
        index = self._next_index()
        dataset = self._loader.dataset
        if self._loader.batch_sampler is not None:
            if self._loader.collate_fn is default_collate and type(dataset) is TensorDataset:
                rows = _rows_at_once(dataset.tensors, index)
                if rows is not None:
                    return rows
            data = [dataset[i] for i in index]
        else:
            data = dataset[index]
        return self._loader.collate_fn(data)

    def __len__(self):
        return len(self._loader)
