"""The usual case of OpNode.apply (core/node.py), written straight, for the
ops a training loop runs most: so that a chain of small ops costs about what
PyTorch's does (docs/benchmarks.md).

OpNode.apply handles every case: Python numbers, type promotion,
broadcasting, views, saved-tensor hooks, forward-mode AD. A fast path takes
only the case where none of that arises: one tensor, or two tensors of one
dtype (and, for an elementwise op, of one shape), with no saved-tensor hook
and no dual level open. It runs the op's own forward and records the node
as apply would (the same sequence_nr, next_functions, input_metadata and
saved values: tests/test_op_fast_paths.py compares the two node by node), and
hands every other call to apply, whose errors and cases stay the only ones.

In PyTorch this layer is generated C++ (torch/csrc/autograd/generated/
VariableType_*.cpp): one function per op that runs the kernel and records
the node.
"""
import numpy as np
from numpy import ndarray   # (3.11 cannot specialize np.<name>: numpy's module has a __getattr__)

from .. import kernels
from ..compat import dtypes, saved_hooks
from ..compat.numpy_errors import get_ident, quiet_context, quiet_contexts
from ..core import grad_mode
from ..core.node import INFERENCE_SAVED, dual, new_object, next_sequence_nr
from ..core.ops.arithmetic import AddBackward0, DivBackward0, MulBackward0, SubBackward0
from ..core.ops.matmul import matmul as general_matmul
from ..core.ops.pointwise import ExpBackward0, ReluBackward0, SigmoidBackward0, TanhBackward0
from ..core.ops.products import MmBackward0
from ..core.ops.reduction import SumBackward0
from ..kernels.matmul_order import BLAS_ROWS, EINSUM_IS_SILENT, FLOAT32, c_einsum


quiet_for = quiet_contexts.get   # (a name 3.11 can specialize; quiet_contexts.get cannot be)


def fast_path(cls, kernel=None, method="apply", reduction=False):
    """cls.apply(a) or cls.apply(a, b), its usual case written straight.
    kernel: the function that is all of cls.forward (mul's np.multiply, relu's
    kernels.relu), called without forward's own Python frame. method: the Tensor
    method's name, which a Tensor method that is this function goes by in errors.
    reduction: a unary op whose output has another shape than its input (sum)."""
    apply, forward, to_float, same_shape = cls.apply, cls.forward, cls.to_float, cls.elementwise
    plan = cls.save_plan
    if plan and (cls.n_inputs == 2) != all(i is not None for _, i, _ in plan):
        raise TypeError(f"{cls.__name__}: a fast path saves a unary op's result or a binary op's inputs")
    result = plan[0][0] if plan else None     # the name a unary op saves its result under
    silent = getattr(kernel, "silent", ())     # dtypes the kernel needs no quiet switch for (kernels.relu)

    def unary(a):
        x = a._data
        dtype = x.dtype
        if dual.levels or saved_hooks.in_use or to_float and dtype.kind != "f":
            return apply(a)
        node = new_object(cls)
        if dtype in silent:     # (relu: this numpy's loop was seen to set no floating-point flag)
            data = kernel(x)
        else:
            quiet = quiet_for(get_ident()) or quiet_context()
            data = quiet.run(kernel, x) if kernel else quiet.run(forward, node, x)
        if not (same := type(data) is ndarray and data.dtype is dtype):
            data = as_dtype(node, data, dtype)
        if not a._requires_grad or grad_mode.threads_without_grad and not grad_mode.flags.enabled:
            return a._wrap(data, None, None)
        out = a._wrap(data, None, node)
        node.tensor_pre_hooks = node.retains_grad_hooks = node.pre_hooks = node.post_hooks = None   # (as record's)
        fn = a.grad_fn
        node.sequence_nr = next_sequence_nr()
        node.next_functions = ((fn, a._output_nr) if fn is not None else a._grad_edge(),)
        node.input_metadata = (meta := (x.shape, dtype),)
        if meta[0] and same and not reduction:      # (not 0-d: numpy makes 0-d results scalars)
            node.exact_for = meta     # the output's shape and dtype, which an elementwise backward keeps
        # what a unary op saves, if anything, is its result: a new tensor, at version 0
        node.saved_values = {result: (data, out._version_box, 0, None, cls, 0)} if plan else {}
        return out

    def binary(a, b):
        try:
            x, y = a._data, b._data
        except AttributeError:     # b is a number: apply's case
            return apply(a, b)
        dtype, shape = x.dtype, x.shape
        if (y.dtype is not dtype or same_shape and y.shape != shape or to_float and dtype.kind != "f"
                or dual.levels or saved_hooks.in_use):
            return apply(a, b)
        node = new_object(cls)
        quiet = quiet_for(get_ident()) or quiet_context()
        data = quiet.run(kernel, x, y) if kernel else quiet.run(forward, node, x, y)
        if type(data) is not ndarray:   # (one dtype in, the same out: numpy's rule for these ops)
            data = as_dtype(node, data, dtype)
        if not (a._requires_grad or b._requires_grad) or grad_mode.threads_without_grad and not grad_mode.flags.enabled:
            return a._wrap(data, None, None)
        out = a._wrap(data, None, node)
        node.tensor_pre_hooks = node.retains_grad_hooks = node.pre_hooks = node.post_hooks = None   # (as record's)
        fa, fb = a.grad_fn, b.grad_fn
        node.sequence_nr = next_sequence_nr()
        node.next_functions = edges = ((fa, a._output_nr) if fa is not None else a._grad_edge(),
                                       (fb, b._output_nr) if fb is not None else b._grad_edge())
        meta = (shape, dtype)
        node.input_metadata = (meta, meta if same_shape or (y_shape := y.shape) == shape else (y_shape, dtype))
        if same_shape and shape and edges[0][0] is not None and edges[1][0] is not None:
            node.exact_for = meta     # as unary's (matmul_operator sets its own)
        saved = node.saved_values = {}
        for name, i, needed_by in plan:       # the inputs, as OpNode.record saves them (node.compact)
            if needed_by is not None and edges[needed_by][0] is None:
                saved[name] = None            # no gradient will need it
                continue
            t = b if i else a
            if t._inference:
                raise RuntimeError(INFERENCE_SAVED)
            box = t._version_box
            saved[name] = (t._data, box, box[0], t, t.grad_fn, t._output_nr)
        return out

    shared_keys(cls, "saved_values")
    path = unary if cls.n_inputs == 1 else binary
    path.__name__, path.__qualname__ = method, f"Tensor.{method}"   # Tensor.relu is this function: errors name it
    return path


def shared_keys(cls, *names):
    """Set, on a first instance of cls, every attribute a fast path sets. CPython 3.11 keeps
    one table of attribute names for a class's instances and, after enough instances, adds no
    more names to it: a node given a name that is not in it (exact_for, when the nodes made
    first, by apply or with a constant input, had none) keeps its attributes in a dict of its
    own, at about 14% more per op of a chain (the per-op figures then depend on what ran before)."""
    node = new_object(cls)
    for name in ("tensor_pre_hooks", "retains_grad_hooks", "pre_hooks", "post_hooks", "sequence_nr",
                 "next_functions", "input_metadata", "exact_for", *names):
        setattr(node, name, None)


def as_dtype(node, data, dtype):
    """The forward's result as an array of the op's output dtype, as apply makes it."""
    data = np.asarray(data)
    return data if data.dtype is dtype else data.astype(node.out_dtype(dtypes._BY_NUMPY[dtype]).np, copy=False)


# The ops of a training loop's forward (Tensor methods call these, or are these: tensor_methods.py)
add, sub = fast_path(AddBackward0, np.add, "add"), fast_path(SubBackward0, np.subtract, "sub")
mul, div = fast_path(MulBackward0, np.multiply, "mul"), fast_path(DivBackward0, np.true_divide, "div")
exp, tanh = fast_path(ExpBackward0, kernels.exp, "exp"), fast_path(TanhBackward0, kernels.tanh, "tanh")
sigmoid = fast_path(SigmoidBackward0, kernels.sigmoid, "sigmoid")
relu = fast_path(ReluBackward0, kernels.relu, "relu")
sum = fast_path(SumBackward0, None, "sum", reduction=True)     # x.sum(): the loss of every tutorial


# Matrix products: MmBackward0's usual case, two matrices whose sizes fit; every other
# case (and every error, in PyTorch's words) is apply's, or matmul's own dispatch by dims

shared_keys(MmBackward0, "byte_strides", "saved_values")


def mm(a, b):
    """a.mm(b) for a tensor b: MmBackward0.apply in its usual case written straight (matmul_operator below)."""
    return matmul(a, b) if a._data.ndim == 2 == b._data.ndim else MmBackward0.apply(a, b)


def matmul(a, b):
    """a.matmul(b): a tensor b as a @ b below, anything else core/ops/matmul.py's (and its errors)."""
    out = matmul_operator(a, b)
    return general_matmul(a, b) if out is NotImplemented else out


def matmul_operator(a, b):
    """a @ b: Tensor.__matmul__ itself (ops/methods.py: a frame fewer). Two
    matrices as MmBackward0.apply, its usual case written straight (binary's
    steps, fast_path above, for this op alone: so that a chain of tiny
    products, the 2x2 y @ w, runs kernels.mm's einsum without the frames
    around it nor binary's loop over the save plan); other dims core/ops/matmul.py's."""
    if type(b) is not type(a) and getattr(type(b), "__matmul__", None) is not matmul_operator:
        # not a tensor: an array's @ is numpy's matmul (through __array__, a Tensor
        return NotImplemented   # by __array_wrap__); a number's or a list's, Python's TypeError: PyTorch's words
    x, y = a._data, b._data
    if x.ndim != 2 or y.ndim != 2:
        return general_matmul(a, b)
    dtype, shape_x, shape_y = x.dtype, x.shape, y.shape
    m, k = shape_x
    if (k != shape_y[0] or y.dtype is not dtype or dual.levels or saved_hooks.in_use
            or a._inference or b._inference):   # (an inference tensor may not be saved: apply's error)
        return MmBackward0.apply(a, b)
    if 1 < k <= 3 and m < BLAS_ROWS and dtype is FLOAT32 and EINSUM_IS_SILENT:   # kernels.mm's first case,
        data = c_einsum("ik,kj->ij", x, y, order="C")      # called straight: no floating-point warning to silence
    else:
        data = (quiet_for(get_ident()) or quiet_context()).run(kernels.mm, x, y)
    if not (a._requires_grad or b._requires_grad) or grad_mode.threads_without_grad and not grad_mode.flags.enabled:
        return a._wrap(data, None, None)
    node = new_object(MmBackward0)
    out = a._wrap(data, None, node)
    node.tensor_pre_hooks = node.retains_grad_hooks = node.pre_hooks = node.post_hooks = None   # (as record's)
    node.byte_strides = x.strides + y.strides     # as MmBackward0.forward records them
    fa, fb = a.grad_fn, b.grad_fn
    node.sequence_nr = next_sequence_nr()
    node.next_functions = (ea := (fa, a._output_nr) if fa is not None else a._grad_edge(),
                           eb := (fb, b._output_nr) if fb is not None else b._grad_edge())
    node.input_metadata = ((shape_x, dtype), (shape_y, dtype))
    if ea[0] is not None and eb[0] is not None:
        node.exact_for = ((m, shape_y[1]), dtype)   # grad's shape and dtype: grad @ b.T and a.T @ grad need no reducing
    # self is saved for mat2's gradient, mat2 for self's (needed_for), as OpNode.record's compact form
    box_a, box_b = a._version_box, b._version_box
    node.saved_values = {"self": None if eb[0] is None else (x, box_a, box_a[0], a, fa, a._output_nr),
                         "mat2": None if ea[0] is None else (y, box_b, box_b[0], b, fb, b._output_nr)}
    return out
