"""PyTorch's CPU random number generator, reproduced bit for bit.

``torch.manual_seed(0); torch.rand(2, 2)`` gives the same float32 bits here as
in PyTorch 2.x on an x86-64 CPU, and so do randn, randint, randperm,
Tensor.uniform_ and Tensor.normal_, alone or in any sequence, because every
step below consumes the generator exactly as PyTorch does.  Each function
says which PyTorch code it mirrors (file names are relative to
``aten/src/ATen``).

The pieces:

* the engine is a 32-bit Mersenne Twister (``core/MT19937RNGEngine.h``);
  ``random()`` is one 32-bit word, ``random64()`` two words joined
  high-then-low (``CPUGeneratorImpl.cpp``);
* a float32 uniform uses the low 24 bits of one word, a float64 uniform the
  low 53 bits of a random64 (``core/TransformationHelper.h``);
* normal samples use Box-Muller.  Tensors of 16 or more elements (contiguous,
  as every tensor here is) take the vectorized ``normal_fill`` path, smaller
  ones the scalar ``normal_distribution<double>`` path, which caches its
  second sample in the generator (``native/cpu/DistributionTemplates.h``).
  For float32, ``normal_fill`` runs the AVX2 kernel built on
  ``native/cpu/avx_mathfun.h``; we evaluate the same float32 polynomials.

PyTorch's kernels are compiled with fused multiply-add contraction, so
``x * std + mean`` is one rounding there, not two; ``fma32``/``fma64``
(kernels/fma_exact.py) emulate that instruction exactly.  float64 Box-Muller calls the C library's
log/sin/cos, which Python's ``math`` module calls too.

Limits (what is NOT guaranteed to match):

* which kernels PyTorch runs depends on the CPU.  Everything here follows
  its AVX2 kernels, which it uses on every x86-64 CPU with AVX2 (AVX-512
  machines included; checked against torch 2.13 on one).  On x86-64 without
  AVX2 (checked with ATEN_CPU_CAPABILITY=default) rand, randint, randperm
  and float64 randn still match, but float32 randn of >= 16 elements (libm's
  logf/sinf/cosf instead of avx_mathfun) and uniform_/normal_ with bounds
  other than 0 and 1 (no fused multiply-add) differ in the last bit now and
  then.  ARM builds (e.g. Apple silicon) were not checked;
* float64 randn relies on the C library's log/log1p/sin/cos being the one
  PyTorch runs with (true when both run on one machine);
* a fresh PyTorch 2.x process seeds itself from /dev/urandom, so its
  unseeded numbers change from run to run and cannot be matched.  Here an
  unseeded program starts from 67280421310721, the seed of a fresh
  ``torch.Generator()`` (c10's default_rng_seed_val), so it is at least
  repeatable; ``initial_seed()`` says so;
* bernoulli (so dropout masks) follows PyTorch's default kernel, which
  PyTorch runs on CPUs that are not Intel's (checked against torch 2.13 on
  an AMD EPYC).  On Intel CPUs PyTorch's MKL builds take another path
  (native/cpu/DistributionKernels.cpp): one word of the generator seeds
  MKL's own generator, which draws the mask, so the masks differ there (and
  so do the numbers drawn after a dropout, as only one word was used);
* randperm's algorithm for n >= 2**32 / 20 (a different shuffle) is not
  implemented, nor are other distributions (exponential, multinomial, ...),
  nor the float randint of ranges beyond 2**24.
"""
import functools
import math
import threading

import numpy as np

from ..kernels.avx_mathfun import log256_ps, sincos256_ps
from ..kernels.fma_exact import fma32, fma64

_DEFAULT_SEED = 67280421310721


# ---------------------------------------------------------------------------
# The engine: at::mt19937 (core/MT19937RNGEngine.h)
# ---------------------------------------------------------------------------

_N = 624          # state words (the twist offset, 397, appears in _next_block)
_U32 = np.uint32


class _MT19937:
    """The Mersenne Twister behind PyTorch's CPU generator.

    PyTorch regenerates its 624-word state one word at a time; we regenerate
    the whole block with numpy (same words, same order) and hand out the
    tempered outputs from a buffer."""

    def __init__(self, seed):
        # init_with_uint32: only the low 32 bits of the seed are used.
        state = [seed & 0xFFFFFFFF]
        for j in range(1, _N):
            prev = state[-1]
            state.append((1812433253 * (prev ^ (prev >> 30)) + j) & 0xFFFFFFFF)
        self.state = np.array(state, dtype=_U32)
        self.out = np.empty(0, dtype=_U32)   # tempered words not yet handed out:
        self.end = 0                         # those of state[end - len(out):end]

    @staticmethod
    def _twist(u, v):
        # mix_bits + twist: top bit of u, low 31 bits of v.
        y = (u & _U32(0x80000000)) | (v & _U32(0x7FFFFFFF))
        return (y >> _U32(1)) ^ np.where(v & _U32(1), _U32(0x9908B0DF), _U32(0))

    def _next_block(self):
        # next_state: word i becomes s[i+397] ^ twist(s[i], s[i+1]), where
        # s[i+397] is already the NEW word once i+397 wraps past 623.  Words
        # depend on new words 227 places back, so 227-word slices are safe.
        old, new = self.state, np.empty_like(self.state)
        new[:227] = old[397:] ^ self._twist(old[:227], old[1:228])
        new[227:454] = new[:227] ^ self._twist(old[227:454], old[228:455])
        new[454:623] = new[227:396] ^ self._twist(old[454:623], old[455:])
        new[623] = new[396] ^ self._twist(old[623:], new[:1])[0]
        self.state, self.end = new, _N
        return self.temper(new)

    @staticmethod
    def temper(words):
        """operator(): what a state word becomes when it is handed out."""
        y = words.copy()
        y ^= y >> _U32(11)
        y ^= (y << _U32(7)) & _U32(0x9D2C5680)
        y ^= (y << _U32(15)) & _U32(0xEFC60000)
        y ^= y >> _U32(18)
        return y

    def random(self, n):
        """n calls of CPUGeneratorImpl::random(), as a uint32 array."""
        parts, have = [self.out], len(self.out)
        while have < n:
            parts.append(self._next_block())
            have += _N
        words = np.concatenate(parts) if len(parts) > 1 else self.out
        self.out = words[n:]
        return words[:n]

    def random64(self, n):
        """n calls of CPUGeneratorImpl::random64(): (first << 32) | second."""
        w = self.random(2 * n).astype(np.uint64)
        return (w[0::2] << np.uint64(32)) | w[1::2]


# A stream (what PyTorch's CPUGeneratorImpl holds): the engine, the seed it
# was built from, and the cached second Box-Muller sample of the scalar
# normal path (next_double_normal_sample).  torch.Generator (generator.py)
# wraps one; the functions below draw from `default_stream` unless given a
# generator.

class Stream:
    """Every draw holds the stream's lock, as PyTorch's kernels hold the
    generator's mutex, so threads sharing one take whole draws in turn."""

    def __init__(self, seed=_DEFAULT_SEED):
        self.lock = threading.RLock()
        self.reseed(seed)

    def reseed(self, seed):
        with self.lock:
            self.seed = seed
            self.engine = _MT19937(seed)
            self.next_normal = None

    def pack(self):
        with self.lock:
            return _pack_state(self)

    def unpack(self, data):
        with self.lock:
            _unpack_state(self, data)


default_stream = Stream()


def _stream(generator):
    return default_stream if generator is None else generator.stream


# ---------------------------------------------------------------------------
# Uniform: uniform_real_distribution (core/DistributionsHelper.h)
# ---------------------------------------------------------------------------

def _uniform01_f32(engine, n):
    # float: one 32-bit word, its low 24 bits times 2**-24.
    return (engine.random(n) & _U32(0xFFFFFF)).astype(np.float32) * np.float32(2.0**-24)


def _uniform01_f64(engine, n):
    # double: one random64, its low 53 bits times 2**-53.
    return (engine.random64(n) & np.uint64(2**53 - 1)).astype(np.float64) * 2.0**-53


def uniform(shape, low, high, np_dtype, generator=None):
    """rand / Tensor.uniform_: uniform_kernel computes x * (to - from) + from
    (fused), in float32 for float16 too; a value that rounds up to `to`
    becomes `from`, so the result stays in [from, to)."""
    n = int(np.prod(shape, dtype=np.int64))
    dt = np.dtype(np_dtype)
    g = _stream(generator)
    with g.lock:
        u = _uniform01_f64(g.engine, n) if dt == np.float64 else _uniform01_f32(g.engine, n)
    if dt == np.float64:
        x = fma64(u, float(high) - float(low), float(low))
    else:
        lo, hi = np.float32(low), np.float32(high)
        x = fma32(u, hi - lo, lo).astype(dt)
    return np.where(x == dt.type(high), dt.type(low), x).reshape(shape)


# ---------------------------------------------------------------------------
# Normal (native/cpu/DistributionTemplates.h: normal_kernel)
# ---------------------------------------------------------------------------

def check_std(std):
    """PyTorch refuses a negative or nan std (a number or an array) before it draws."""
    if isinstance(std, np.ndarray):
        if not (std >= 0).all():
            raise RuntimeError("normal expects all elements of std >= 0.0")
    elif not std >= 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {float(std):g}")    # C++'s way: -1, nan


def normal(shape, mean, std, np_dtype, generator=None):
    """randn / Tensor.normal_."""
    n = int(np.prod(shape, dtype=np.int64))
    g = _stream(generator)
    with g.lock:
        if n < 16:
            x = np.array([_normal_scalar(g, float(mean), float(std)) for _ in range(n)])
        elif np.dtype(np_dtype) == np.float64:
            x = _normal_fill(n, _normal16_f64, functools.partial(_uniform01_f64, g.engine),
                             float(mean), float(std))
        else:
            # float16 runs the float32 kernel chunk by chunk (see _normal_fill)
            x = _normal_fill(n, _normal16_f32, functools.partial(_uniform01_f32, g.engine),
                             np.float32(mean), np.float32(std), chunked=np.dtype(np_dtype) == np.float16)
    return x.astype(np_dtype).reshape(shape)


def _normal_scalar(g, mean, std):
    """One sample of normal_distribution<double> (core/DistributionsHelper.h).

    Box-Muller makes two samples from two uniform doubles; the second is
    cached in the generator and returned by the next call."""
    if g.next_normal is not None:
        z, g.next_normal = g.next_normal, None
    else:
        u1, u2 = _uniform01_f64(g.engine, 2).tolist()
        r = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        g.next_normal = r * math.sin(theta)
        z = r * math.cos(theta)
    return fma64(z, std, mean)[()]          # transformation::normal


def _normal_fill(n, normal16, uniform01, mean, std, chunked=False):
    """normal_fill: draw n uniforms, turn each block of 16 into 16 normals;
    if n is not a multiple of 16, draw 16 fresh uniforms and recompute the
    last 16 elements from them (overwriting the tail of the last block).
    float16 draws its uniforms block by block instead, so it skips the
    n % 16 uniforms that float32 draws and then overwrites."""
    k = n // 16 * 16
    if chunked:
        out = np.concatenate([uniform01(k), np.zeros(n - k, np.float32)])
    else:
        out = uniform01(n)
    out[:k] = normal16(out[:k].reshape(-1, 16), mean, std).reshape(-1)
    if n % 16:
        out[n - 16:] = normal16(uniform01(16).reshape(1, 16), mean, std).reshape(-1)
    return out


def _normal16_f64(u, mean, std):
    """normal_fill_16<double>: columns 0-7 give radii, 8-15 angles; the C
    library's log/sin/cos (via math), then radius*cos*std + mean, fused."""
    libm = lambda f, a: np.array([f(v) for v in a.ravel().tolist()]).reshape(a.shape)
    radius = np.sqrt(libm(math.log, 1.0 - u[:, :8]) * -2.0)
    theta = 2.0 * math.pi * u[:, 8:]
    return np.concatenate([fma64(radius * libm(math.cos, theta), std, mean),
                           fma64(radius * libm(math.sin, theta), std, mean)], axis=1)


_F = np.float32


def _normal16_f32(u, mean, std):
    radius = np.sqrt(log256_ps(_F(1) - u[:, :8]) * _F(-2))
    sin, cos = sincos256_ps(_F(2.0 * math.pi) * u[:, 8:])
    return np.concatenate([fma32(radius * cos, std, mean),
                           fma32(radius * sin, std, mean)], axis=1)


# ---------------------------------------------------------------------------
# Integers
# ---------------------------------------------------------------------------

def integers(low, high, shape, generator=None):
    """randint: random_from_to_kernel, (word % range) + low.  The word is a
    random() for small ranges and a random64() once range >= 2**28 (the
    threshold in PyTorch 2.13's binary; the source once said 2**32)."""
    n = int(np.prod(shape, dtype=np.int64))
    rng = int(high) - int(low)
    if rng <= 0:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    g = _stream(generator)
    with g.lock:
        words = g.engine.random(n) if rng < 2**28 else g.engine.random64(n)
    vals = (words.astype(np.uint64) % np.uint64(rng)).astype(np.int64) + np.int64(low)
    return vals.reshape(shape)


def permutation(n, generator=None):
    """randperm (native/TensorFactories.cpp, randperm_cpu for small n): a
    Fisher-Yates shuffle of 0..n-1, swapping r[i] with r[i + random() % (n-i)].
    `generator`: a Generator to draw from instead of the default one."""
    n = int(n)
    if n >= (2**32 - 1) // 20:
        raise NotImplementedError("randperm for n >= 214748364 is not implemented")
    r = np.arange(n, dtype=np.int64)
    if n > 1:
        g = _stream(generator)
        with g.lock:
            words = g.engine.random(n - 1)
        offsets = (words % np.arange(n, 1, -1, dtype=np.uint32)).tolist()
        for i, z in enumerate(offsets):
            r[i], r[i + z] = r[i + z], r[i]
    return r


def bernoulli(shape, p, generator=None):
    """Tensor.bernoulli_(p) with a number p, as PyTorch's default CPU kernel
    (native/cpu/DistributionTemplates.h: bernoulli_kernel): per element one
    uniform double (a random64) and 1 if it is < p.  Returns 0/1 float64."""
    n = int(np.prod(shape, dtype=np.int64))
    g = _stream(generator)
    with g.lock:
        u = _uniform01_f64(g.engine, n)
    return (u < p).astype(np.float64).reshape(shape)


def bernoulli_tensor(p, generator=None):
    """torch.bernoulli(p) with a tensor of probabilities, as PyTorch's CPU
    kernel (bernoulli_tensor_cpu_kernel): per element, in order, a
    bernoulli_distribution<float>: one random() word, its low 24 bits times
    2**-24, and 1 if that is < p. Returns 0/1 float64 of p's shape."""
    g = _stream(generator)
    with g.lock:
        words = g.engine.random(p.size)
    u = (words & np.uint32(2**24 - 1)).astype(np.float32) * np.float32(2.0**-24)
    return (u.reshape(p.shape) < p.astype(np.float32)).astype(np.float64)


def random_int64(generator=None):
    """torch.empty((), dtype=torch.int64).random_(): one random64() word
    reduced to [0, 2**63) (random_kernel, transformation::uniform_int)."""
    g = _stream(generator)
    with g.lock:
        return int(g.engine.random64(1)[0]) % 2**63


# ---------------------------------------------------------------------------
# get_state / set_state: CPUGeneratorImplState (CPUGeneratorImpl.cpp), byte
# for byte, so a state saved by one runs on in the other
# ---------------------------------------------------------------------------

_STATE = np.dtype([("seed", "<u8"), ("left", "<i4"), ("seeded", "<i4"), ("next", "<u8"),
                   ("state", "<u8", _N), ("normal_x", "<f8"), ("normal_y", "<f8"), ("normal_rho", "<f8"),
                   ("normal_is_valid", "<i4"), ("pad", "<i4"), ("next_float", "<f4"),
                   ("float_is_valid", "u1"), ("pad2", "u1", 3)])       # 5056 bytes


def _pack_state(g):
    """at::mt19937 keeps untempered words, an index `next` and a countdown
    `left` (a twist is due when it reaches 0); ours keeps the words still
    to hand out, tempered, which are those of state[end - len(out):end]."""
    e, rec = g.engine, np.zeros((), _STATE)
    rec["seed"], rec["seeded"], rec["state"] = g.seed, 1, e.state
    rec["left"], rec["next"] = len(e.out) + 1, e.end - len(e.out)
    if g.next_normal is not None:
        rec["normal_is_valid"], rec["normal_y"] = 1, g.next_normal
    return np.frombuffer(rec.tobytes(), np.uint8).copy()


def _unpack_state(g, data):
    if data.size != _STATE.itemsize:
        raise RuntimeError(f"Expected a CPUGeneratorImplState of size {_STATE.itemsize} but found the input "
                           f"RNG state size to be {data.size}")
    rec = np.frombuffer(data.tobytes(), _STATE)[0]
    left, nxt = int(rec["left"]), int(rec["next"])
    if not (rec["seeded"] and 0 < left <= _N and nxt <= _N):       # mt19937::is_valid
        raise RuntimeError("Invalid mt19937 state")
    e = _MT19937(0)
    e.state = rec["state"].astype(_U32)
    e.end = min(nxt + left - 1, _N)
    e.out = e.temper(e.state[nxt:e.end])
    g.seed, g.engine = int(rec["seed"]), e
    g.next_normal = float(rec["normal_y"]) if rec["normal_is_valid"] else None
