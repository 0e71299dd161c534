"""The nodes reshape makes besides ViewBackward0, as PyTorch chooses them:

    x contiguous                      -> a view,        ViewBackward0
    x not contiguous, strides allow   -> a view,        ReshapeAliasBackward0
    otherwise (x.t().reshape(-1))     -> a copy,        UnsafeViewBackward0 over CloneBackward0
                                         (PyTorch: _unsafe_view(self.clone(), shape))

UnsafeViewBackward0 is also the last node of matmul's folding. All three
have the same derivative:

    d(reshape(x))/dx: grad_x = grad.reshape(x.shape)
"""
from ..node import OpNode
from .shape import ViewBackward0, infer_shape


class ReshapeAliasBackward0(ViewBackward0):
    """out = self.reshape(size)   (of a non-contiguous tensor, when no copy is needed)

    self: grad.reshape(self_sym_sizes)
    """


class UnsafeViewBackward0(OpNode):
    """out = torch._unsafe_view(self, size)   (reshape's copy, matmul's fold)

    self: grad.reshape(self_sym_sizes)
    """
    attrs = ("self_sym_sizes",)

    def forward(self, a, shape):
        self.self_sym_sizes = a.shape
        return a.reshape(infer_shape(shape, a.size))

    def backward(self, grad):
        return grad.reshape(self.self_sym_sizes)


def reshape_node(a, shape):
    """Which node PyTorch's reshape records for array `a` (see above)."""
    if a.flags.c_contiguous:
        return ViewBackward0
    out = a.view()
    try:
        out.shape = infer_shape(shape, a.size)   # numpy refuses in place what would need a copy
    except AttributeError:
        return UnsafeViewBackward0
    return ReshapeAliasBackward0
