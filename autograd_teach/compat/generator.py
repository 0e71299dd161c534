"""torch.Generator and the functions of torch.random that seed and save
PyTorch's default generator.

A Generator is a handle on a random stream (random.Stream: the engine and
what it caches); `generator=g` makes rand, randn, randint, randperm, normal,
dropout and the DataLoader's shuffle draw from g's stream instead of the
default one, which `torch.manual_seed` seeds and `default_generator` is."""
import os

import numpy as np

from . import random
from .creation import from_numpy
from ..core.tensor import Tensor, device


class Generator:
    def __init__(self, device="cpu", *, _stream=None):
        if str(device) != "cpu":
            raise RuntimeError(f"{str(device).split(':')[0].upper()} device type not an accelerator.")
        self.stream = random.Stream() if _stream is None else _stream

    @property
    def device(self):
        return device("cpu")

    def manual_seed(self, seed):
        """Re-create the engine and drop the cached normal; returns self."""
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
        # THPGenerator_manualSeed reads an unsigned 64-bit int, or a signed
        # one reinterpreted (so -1 becomes 2**64 - 1).
        if not -2**63 <= seed < 2**64:
            raise ValueError("Overflow when unpacking long long")
        self.stream.reseed(int(seed) % 2**64)
        return self

    def seed(self):
        """Seed with 64 bits from the OS (getNonDeterministicRandom)."""
        s = int.from_bytes(os.urandom(8), "little")
        self.manual_seed(s)
        return s

    def initial_seed(self):
        return self.stream.seed

    def get_state(self):
        """The state laid out as PyTorch's: a uint8 tensor of 5056 bytes, so
        that a state saved here restores in PyTorch and the other way round."""
        return from_numpy(self.stream.pack())

    def set_state(self, new_state):
        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        if new_state.dtype.np != np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        self.stream.unpack(new_state.numpy())
        return self

    def clone_state(self):
        return Generator().set_state(self.get_state())

    def __reduce__(self):
        """copy, deepcopy and pickle give a new generator in the same state."""
        return _from_state, (self.stream.pack(),)

    def __repr__(self):
        return f"<torch._C.Generator object at {hex(id(self))}>"


def _from_state(data):
    g = Generator()
    g.stream.unpack(np.asarray(data, np.uint8))
    return g


default_generator = Generator(_stream=random.default_stream)


def manual_seed(seed):
    """torch.manual_seed: int(seed), then seed the default generator (returned)."""
    return default_generator.manual_seed(int(seed))


def initial_seed():
    return default_generator.initial_seed()


def seed():
    """torch.seed: seed the default generator with 64 bits from the OS."""
    return default_generator.seed()


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(new_state):
    default_generator.set_state(new_state)
