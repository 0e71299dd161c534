"""The values of torch.arange and torch.linspace, bit for bit as PyTorch's CPU kernels.

Why a file for this: `torch.arange(-8.0, 8.0, 0.1)[80]` is 4.44e-16 in PyTorch,
not 0.0, so relu's gradient there is 1, not 0 (d2l 4.1 plots exactly that).
The last bit of each value depends on how the kernel computes it:

* arange (aten/src/ATen/native/cpu/RangeFactoriesKernel.cpp, arange_kernel)
  computes in the accumulate type (double for float32 and float64) as
  `start + step * idx`, compiled to one fused multiply-add. But the loop is
  vectorized: each vector of W values starts from `base = start + step * idx`
  rounded to the output type, and holds `base + k * step` (k = 0..W-1, again
  one fma in double); the loop takes two vectors at a time, and the last
  `n % 2W` values come from the scalar formula.
* linspace (linspace_kernel) is not vectorized; it computes in the output type
  itself (float32 for float32), the first half as `start + step * idx`, the
  second half backwards from the end as `end - step * (steps - idx - 1)`, both
  as fmas, with `step = (end - start) / (steps - 1)`. For integer outputs the
  step is a double and the value is truncated toward zero.

W depends on the CPU capability PyTorch dispatches to. The pinned torch 2.13
on the machine the goldens were recorded on (capability "AVX512", but the
range kernel runs 256-bit vectors) uses W = 8 float32 / 4 float64; that is
VECTOR_BYTES below. Another build or CPU may use another width, and then
values differ in the last bit.
float16 is computed the same way in float32 (its accumulate type), 16 values
per vector (checked against torch 2.13 on 600 random ranges). Not reproduced:
lengths above PyTorch's GRAIN_SIZE (32768), which PyTorch splits between
threads, each chunk starting its own vectors.

numpy has no fma: kernels/fma_exact.py's fma64 / fma32 emulate it exactly (the random
number kernels need it too)."""
import math

import numpy as np

from ..kernels.fma_exact import fma32, fma64

VECTOR_BYTES = 32      # AVX2 registers: 16 float16, 8 float32 or 4 float64 per vector


def arange_length(start, end, step, integral_int64):
    """PyTorch's compute_arange_size: in double, except int64 outputs: an integer
    division (truncating, as C++'s) of the truncated arguments."""
    if integral_int64:
        start, end, step = int(start), int(end), int(step)
        if step == 0:   # a float step below 1 (PyTorch raises this one as a ValueError)
            raise ValueError("step must be nonzero")
        sign = (step > 0) - (step < 0)
        span = end - start + step - sign
        return max(abs(span) // abs(step) * (1 if (span >= 0) == (step > 0) else -1), 0)
    return max(math.ceil((float(end) - float(start)) / float(step)), 0)


def arange_values(start, end, step, np_dtype):
    np_dtype = np.dtype(np_dtype)
    if np_dtype.kind not in "f":    # integers: exact int64 arithmetic on the truncated arguments
        n = arange_length(start, end, step, np_dtype == np.int64)
        return (int(start) + int(step) * np.arange(n, dtype=np.int64)).astype(np_dtype)
    n = arange_length(start, end, step, False)
    start, step = float(start), float(step)
    exact = 2.0 ** (np.finfo(np_dtype).nmant + 1)
    if start.is_integer() and step.is_integer() and abs(start) + abs(step) * n <= exact:
        # arange(4.0), arange(1, 9, 2.0): every value is an integer the output type holds
        # exactly, so however PyTorch groups the arithmetic nothing rounds.
        return (start + step * np.arange(n, dtype=np.float64)).astype(np_dtype)
    compute, fma = (np.float32, fma32) if np_dtype.itemsize == 2 else (np.float64, fma64)   # the accumulate type
    start, step = compute(start), compute(step)
    width = VECTOR_BYTES // np_dtype.itemsize
    vectorized = n - n % (2 * width)
    values = np.empty(n, dtype=np_dtype)
    tail = np.arange(vectorized, n, dtype=compute)
    values[vectorized:] = fma(step, tail, start).astype(np_dtype)        # the scalar formula
    if vectorized:
        first = np.arange(0, vectorized, width, dtype=compute)          # each vector's first index
        bases = fma(step, first, start).astype(np_dtype).astype(compute)   # rounded to the output type
        k = np.arange(width, dtype=compute)
        values[:vectorized] = fma(k[None, :], step, bases[:, None]).astype(np_dtype).ravel()
    return values


def linspace_values(start, end, steps, np_dtype):
    np_dtype = np.dtype(np_dtype)
    if steps == 1:
        return np.array([start], dtype=np.float64).astype(np_dtype)
    idx = np.arange(steps, dtype=np.float64)
    first = idx < steps // 2
    if np_dtype.kind == "f":
        compute = np.float32 if np_dtype.itemsize <= 4 else np.float64
        s, e = np.array([start, end], dtype=np_dtype).astype(compute)
        step = (e - s) / compute(steps - 1)
    else:   # an integer output: its start and end, a double step, the value truncated
        compute = np.float64
        s, e = np.array([start, end]).astype(np_dtype).astype(np.float64)
        step = (e - s) / (steps - 1)
    fma = fma32 if compute == np.float32 else fma64
    ahead = fma(step, idx, s)
    behind = fma(-step, steps - idx - 1, e)
    values = np.where(first, ahead, behind)
    if np_dtype.kind != "f":
        values = np.trunc(values)
    return values.astype(np_dtype)
