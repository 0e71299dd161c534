"""Products: dot (1-D . 1-D), mv (2-D @ 1-D), mm (2-D @ 2-D), and batched
matmul. `x @ y` picks one of them by the inputs' dimensions, as PyTorch does."""
import numpy as np

from ... import kernels
from ...compat import dtypes
from ..node import OpNode, check_broadcast
from .shape import SqueezeBackward4


class _Product(OpNode):
    """Products do not promote: PyTorch wants both operands of one dtype.
    `check(a_shape, b_shape, a_dtype, b_dtype)` raises PyTorch's errors in
    PyTorch's order before anything is computed."""
    inputs = ("self", "other")

    @classmethod
    def apply(cls, a, b):
        by_numpy = dtypes._BY_NUMPY      # (a.dtype, without the property's call)
        cls.check(a._data.shape, b._data.shape, by_numpy[a._data.dtype], by_numpy[b._data.dtype])   # tuples: a Size costs more
        return super().apply(a, b)


class DotBackward0(_Product):
    """out = torch.dot(self, tensor)   (two 1-D tensors)

    self: grad * tensor
    tensor: grad * self
    """
    inputs = ("self", "tensor")
    saved = ("self", "tensor")
    needed_for = {"self": "tensor", "tensor": "self"}

    @staticmethod
    def check(sa, sb, da, db):
        if len(sa) != 1 or len(sb) != 1:
            raise RuntimeError(f"1D tensors expected, but got {len(sa)}D and {len(sb)}D tensors")
        if da is not db:
            raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {da.legacy_name} and "
                               f"{db.legacy_name}")
        if sa[0] != sb[0]:
            raise RuntimeError(f"inconsistent tensor size, expected tensor [{sa[0]}] and src [{sb[0]}] "
                               f"to have the same number of elements, but got {sa[0]} and {sb[0]} "
                               "elements respectively")

    def forward(self, a, b):
        return kernels.dot(a, b)

    def backward(self, grad, a, b):
        need_a, need_b = self.needs_input_grad
        return (grad * b if need_a else None), (grad * a if need_b else None)


class MvBackward0(_Product):
    """out = self.mv(vec)   (matrix @ vector)

    self: grad.reshape(-1, 1) * vec
    vec: self.t().mv(grad)

    self's gradient is the outer product of grad and vec; PyTorch writes it
    grad.ger(vec), which is grad.reshape(-1, 1) * vec in ATen.
    """
    inputs = ("self", "vec")
    saved = ("self", "vec")
    needed_for = {"self": "vec", "vec": "self"}

    @staticmethod
    def check(sm, sv, dm, dv):
        # PyTorch runs mv as addmv(out, mat, vec): out is 1-D and has vec's dtype
        if len(sm) != 2 or len(sv) != 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got 1, {len(sm)}, {len(sv)}")
        if sm[1] != sv[0]:
            raise RuntimeError(f"size mismatch, got input ({sm[0]}), mat ({sm[0]}x{sm[1]}), vec ({sv[0]})")
        if dm is not dv:
            raise RuntimeError(f"addmv input tensors must have the same dtype, but got {dv.legacy_name}, "
                               f"{dm.legacy_name}, and {dv.legacy_name}")

    def forward(self, m, v):
        return kernels.mm(m, v)

    def backward(self, grad, m, v):
        need_m, need_v = self.needs_input_grad
        return (np.outer(grad, v) if need_m else None), (kernels.mm(m.T, grad) if need_v else None)


class MmBackward0(_Product):
    """out = self.mm(mat2)   (matrix @ matrix)

    self: mm_mat1_backward(grad, mat2, self_sym_sizes, self_sym_strides)
    mat2: mm_mat2_backward(grad, self, mat2_sym_sizes, mat2_sym_strides)

    That is grad.mm(mat2.t()) and self.t().mm(grad). For an input stored column by column (a
    transpose, as the w.t() of x @ w.t()) PyTorch computes the same product transposed, so that the
    gradient has that layout: mat2.mm(grad.t()).t() (mm_mat1_backward, mm_mat2_backward below).
    """
    inputs = ("self", "mat2")
    saved = ("self", "mat2")
    needed_for = {"self": "mat2", "mat2": "self"}   # x @ w with a constant x: x is not needed
    attrs = ("self_sym_sizes", "self_sym_strides", "mat2_sym_sizes", "mat2_sym_strides")   # the layouts

    @staticmethod
    def check(sa, sb, da, db):
        if len(sa) != 2:
            raise RuntimeError("self must be a matrix")
        if len(sb) != 2:
            raise RuntimeError("mat2 must be a matrix")
        if sa[1] != sb[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({sa[0]}x{sa[1]} and {sb[0]}x{sb[1]})")
        if da is not db:
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {dtypes.c_name(da)} != "
                               f"{dtypes.c_name(db)}")

    def forward(self, a, b):
        self.byte_strides = a.strides + b.strides    # one tuple; the sizes are input_metadata's (see layout)
        return kernels.mm(a, b)

    self_sym_sizes = property(lambda self: self.input_metadata[0][0])
    mat2_sym_sizes = property(lambda self: self.input_metadata[1][0])
    self_sym_strides, mat2_sym_strides = property(lambda self: self.layout(0)), property(lambda self: self.layout(1))

    def layout(self, i):
        """Input i's strides in elements, when read; () if it needs no gradient (PyTorch keeps them for it).
        (One strides tuple a node: with more, a 2x2 chain outgrows Python's free list of pairs and wakes the GC.)"""
        itemsize = self.input_metadata[i][1].itemsize    # (an AttributeError on a node not in a graph)
        if self.next_functions[i][0] is None:
            return ()
        return tuple(map(itemsize.__rfloordiv__, self.byte_strides[2 * i:2 * i + 2]))    # s // itemsize each

    backward = staticmethod(kernels.mm_backward)    # (grad, a, b): b is saved only if self needs a gradient, a if mat2 does


class BmmBackward0(_Product):
    """out = self @ mat2   (batched: 3-D and up, batch dims broadcast)

    self: grad.matmul(mat2.transpose(-2, -1))
    mat2: self.transpose(-2, -1).matmul(grad)

    1-D operands are unsqueezed first. PyTorch wraps bmm in view/expand nodes
    and writes grad.bmm(mat2.transpose(1, 2)); here it is one node.
    """
    inputs = ("self", "mat2")
    saved = ("self", "mat2")

    @staticmethod
    def check(sa, sb, da, db):
        # PyTorch broadcasts the batch dims, flattens them into one, then calls bmm
        if sa[:-2] != sb[:-2]:
            check_broadcast(sa[:-2], sb[:-2])
        batch = int(np.prod(np.broadcast_shapes(sa[:-2], sb[:-2])))
        if sa[-1] != sb[-2]:
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                               f"[{batch}, {sa[-1]}] but got: [{batch}, {sb[-2]}].")
        if da is not db:
            raise RuntimeError(f"expected scalar type {da.legacy_name} but found {db.legacy_name}")

    def forward(self, a, b):
        return kernels.matmul(a, b)

    def backward(self, grad, a, b):
        need_a, need_b = self.needs_input_grad
        return (kernels.matmul(grad, np.swapaxes(b, -1, -2)) if need_a else None,
                kernels.matmul(np.swapaxes(a, -1, -2), grad) if need_b else None)


# -- the functions the rules call, by PyTorch's names (FunctionsManual.cpp) ----------------

def strides(a):
    """A numpy array's strides in elements, as PyTorch counts them."""
    return tuple(map(a.itemsize.__rfloordiv__, a.strides))    # s // itemsize for each, in C


def column_major(sizes, strides):
    return len(sizes) == 2 and strides[0] == 1 and strides[1] == sizes[0]


def mm_mat1_backward(grad, mat2, mat1_sizes, mat1_strides):
    """grad.mm(mat2.t()), made column by column if mat1 was."""
    return mat2.mm(grad.t()).t() if column_major(mat1_sizes, mat1_strides) else grad.mm(mat2.t())


def mm_mat2_backward(grad, mat1, mat2_sizes, mat2_strides):
    """mat1.t().mm(grad), made column by column if mat2 was."""
    return grad.t().mm(mat1).t() if column_major(mat2_sizes, mat2_strides) else mat1.t().mm(grad)
