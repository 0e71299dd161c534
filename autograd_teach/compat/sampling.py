"""torch.multinomial, drawing PyTorch's generator exactly as its CPU code does.

Two algorithms, as in aten/src/ATen/native/Distributions.cpp (multinomial_out):

* without replacement, or one sample with replacement: the "exponential
  trick". q ~ Exp(1), one per probability, each -log1p(-u) of a 53-bit
  uniform u (one random64 word; exponential_kernel, transformation::exponential);
  the samples are the largest p / q (argmax for one, topk for more).
* with replacement, two or more samples (native/cpu/MultinomialKernel.cpp):
  each row's running sum in the probabilities' dtype, divided by the total,
  the last set to 1; each sample one 53-bit uniform u, and the first slot
  whose cumulative probability is >= u (a binary search there).

Bit-exact for float32 probabilities. For float64 ones the exponential trick
is not (PyTorch's double exponential_ differs from -log1p(-u) in the last bit
now and then), so that case raises NotImplementedError rather than give other
samples; float64 with replacement (two or more samples) is exact."""
import numpy as np

from . import random
from ..core.tensor import Tensor


def _uniform53(n, generator):
    """n float64 uniforms in [0, 1): one random64 word each, its low 53 bits (random.uniform's double path)."""
    if generator is not None:
        raise NotImplementedError("autograd_teach: multinomial(generator=...) is not implemented; "
                                  "it draws from the default generator (torch.manual_seed)")
    return random.uniform((n,), 0.0, 1.0, np.float64)


def _check(p, num_samples, replacement):
    if not 1 <= p.ndim <= 2:
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if p.dtype.kind != "f":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{Tensor._wrap(p).dtype.legacy_name}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > p.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")


def _exponential_trick(rows, num_samples, generator):
    if not (np.isfinite(rows).all() and (rows >= 0).all()):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (rows.sum(axis=1) == 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    if rows.dtype != np.float32:
        raise NotImplementedError("autograd_teach: multinomial without replacement (or one sample) is bit-exact "
                                  "with PyTorch for float32 probabilities only")
    q = (-np.log1p(-_uniform53(rows.size, generator))).astype(np.float32).reshape(rows.shape)
    keys = rows / q
    return np.argsort(-keys, axis=1, kind="stable")[:, :num_samples]    # the largest first, as topk


def _inverse_cdf(rows, num_samples, generator):
    out = np.empty((rows.shape[0], num_samples), dtype=np.int64)
    for i, row in enumerate(rows):
        if not (row >= 0).all():             # nan too, as PyTorch's check reads
            raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
        if not np.isfinite(row).all():
            raise RuntimeError("invalid multinomial distribution (encountering probability entry = infinity or NaN)")
        cum = np.cumsum(row)                 # sequential, in the row's dtype, as the kernel's loop
        if not cum[-1] > 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        cum = cum / cum[-1]
        cum[-1] = 1
        out[i] = np.searchsorted(cum.astype(np.float64), _uniform53(num_samples, generator), side="left")
    return out


def multinomial(input, num_samples, replacement=False, *, generator=None):
    p = input._data
    _check(p, num_samples, replacement)
    rows = p.reshape(-1, p.shape[-1])
    if not replacement or num_samples == 1:
        samples = _exponential_trick(rows, num_samples, generator)
    else:
        samples = _inverse_cdf(rows, num_samples, generator)
    return Tensor._wrap(samples.reshape(p.shape[:-1] + (num_samples,)))
