"""PyTorch's checks that an op does not write into memory it reads in another
layout, nor into an element twice (ATen's assert_no_partial_overlap and
assert_no_internal_overlap, MemOverlap.cpp), on numpy arrays."""

EXPAND_OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a single memory "
                  "location. Please clone() the tensor before performing the operation.")
PARTIAL_OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
                   "single memory location. Please clone() the tensor before performing the operation.")


def check_no_partial_overlap(out, src):
    """PyTorch refuses to write into memory an input reads in another layout
    (b[1:].copy_(b[:4])): the result would depend on the order elements are
    written in. The same memory in the same layout (x.add_(x)) is fine; so is
    what PyTorch finds too hard to tell (layouts with gaps or repeats)."""
    if out.size == 0 or src.size == 0 or not (dense(out) and dense(src)):
        return
    start, end = _extent(out)
    src_start, src_end = _extent(src)
    if (start, end) == (src_start, src_end) and out.strides == src.strides:
        return
    if start < src_end and src_start < end:
        raise RuntimeError(PARTIAL_OVERLAP)


def check_no_internal_overlap(out):
    """An expanded tensor (a stride 0 over a dim of more than one element)
    holds an element more than once: PyTorch refuses to write into it."""
    if out.size and any(st == 0 and n > 1 for st, n in zip(out.strides, out.shape)):
        raise RuntimeError(EXPAND_OVERLAP)


def _extent(a):
    start = a.__array_interface__["data"][0]
    return start, start + a.size * a.itemsize


def dense(a):
    """Its elements fill a block of memory, each once, in some order of the dims
    (PyTorch's is_non_overlapping_and_dense)."""
    step = a.itemsize
    for stride, n in sorted((st, n) for st, n in zip(a.strides, a.shape) if n != 1):
        if stride != step:
            return False
        step *= n
    return True
