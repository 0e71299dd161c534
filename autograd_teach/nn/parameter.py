"""nn.Parameter: a leaf Tensor that a Module registers as one of its weights."""
from ..core.tensor import Tensor


class Parameter(Tensor):
    """A Tensor that requires grad by default and that Module.__setattr__
    recognises. It shares its data with the tensor it was made from."""
    __slots__ = ()

    def __init__(self, data=None, requires_grad=True):
        if data is None:
            from ..compat.creation import empty
            data = empty(0)
        self._init(data._data)
        self._version_box = data._version_box
        self.requires_grad = requires_grad

    def __new__(cls, data=None, requires_grad=True):
        return Tensor.__new__(cls)

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__


def zero_grad_of(params, set_to_none=True):
    """What Module.zero_grad and Optimizer.zero_grad both do to each parameter:
    drop its .grad (PyTorch's default), or zero it in place, cut from any
    graph it has (a .grad made with create_graph=True has a grad_fn)."""
    for p in params:
        if p.grad is None:
            continue
        if set_to_none:
            p.grad = None
        else:
            if p.grad.grad_fn is not None:
                p.grad.detach_()
            else:
                p.grad.requires_grad_(False)
            p.grad.zero_()
