"""The random number generator behind rand/randn and manual_seed.

Numbers come from numpy's PCG64, so they differ from PyTorch's (which uses a
Mersenne Twister with its own transforms); what matches is the API and that a
seed makes a run repeatable. Like PyTorch, the generator starts from a fixed
seed, so an unseeded run is repeatable too."""
import numpy as np

_DEFAULT_SEED = 67280421310721   # torch.initial_seed() in a fresh PyTorch process
_seed = _DEFAULT_SEED
_gen = np.random.default_rng(_seed)


def manual_seed(seed):
    global _gen, _seed
    _seed = int(seed)
    _gen = np.random.default_rng(_seed % 2**64)
    return _Generator()


def initial_seed():
    return _seed


def seed():
    return manual_seed(int(np.random.SeedSequence().entropy % 2**63)) and _seed


def uniform(shape, low, high, np_dtype):
    return (_gen.random(shape) * (high - low) + low).astype(np_dtype)


def normal(shape, mean, std, np_dtype):
    return (_gen.standard_normal(shape) * std + mean).astype(np_dtype)


def integers(low, high, shape):
    return _gen.integers(low, high, size=shape, dtype=np.int64)


def permutation(n):
    return _gen.permutation(n).astype(np.int64)


class _Generator:
    def initial_seed(self):
        return _seed

    def __repr__(self):
        return f"<torch._C.Generator object at {hex(id(self))}>"
