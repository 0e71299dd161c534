"""nn.Parameter: a leaf Tensor that a Module registers as one of its weights."""
from ..tensor import Tensor


class Parameter(Tensor):
    """A Tensor that requires grad by default and that Module.__setattr__
    recognises. It shares its data with the tensor it was made from."""
    __slots__ = ()

    def __init__(self, data=None, requires_grad=True):
        if data is None:
            from ..creation import empty
            data = empty(0)
        self._init(data._data)
        self._version_box = data._version_box
        self.requires_grad = requires_grad

    def __new__(cls, data=None, requires_grad=True):
        return Tensor.__new__(cls)

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __reduce_ex__(self, proto):
        raise NotImplementedError("autograd_teach: Parameters cannot be pickled")
