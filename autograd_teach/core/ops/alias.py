"""AliasBackward0: indexing that selects everything (x[...], x[:, :]).

PyTorch skips each slice that keeps a whole dim; when nothing is left, the
result is at::alias(x): a view of all of x, with this node.

    d(alias(x))/dx: grad_x = grad
"""
from ..node import OpNode


class AliasBackward0(OpNode):
    """out = self[...]   (at::alias: indexing that keeps everything)

    self: grad
    """
    is_view = True

    def forward(self, a):
        return a[...]

    def backward(self, grad):
        return grad
