"""torch.FloatTensor, LongTensor, ...: PyTorch's legacy typed constructors.

`torch.FloatTensor([1, 2])` is `torch.tensor([1, 2], dtype=torch.float32)`,
`torch.FloatTensor(2, 3)` an uninitialized 2x3 float32 tensor (zeros here),
and `isinstance(t, torch.FloatTensor)` asks for a float32 tensor. There is no
class per dtype: every tensor is a Tensor (d2l 5.4 calls a layer on
torch.FloatTensor([1, 2, 3, 4, 5]))."""
from . import creation, dtypes
from ..core.tensor import Tensor


class _LegacyTensorType(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __call__(cls, *args):
        if len(args) == 1 and not isinstance(args[0], int):
            return creation.tensor(args[0], dtype=cls.dtype)
        return creation.zeros(*args, dtype=cls.dtype)


def _legacy_type(dt):
    return _LegacyTensorType(dt.legacy_name + "Tensor", (), {"dtype": dt, "__module__": "autograd_teach"})


FloatTensor = _legacy_type(dtypes.float32)
DoubleTensor = _legacy_type(dtypes.float64)
HalfTensor = _legacy_type(dtypes.float16)
LongTensor = _legacy_type(dtypes.int64)
IntTensor = _legacy_type(dtypes.int32)
ShortTensor = _legacy_type(dtypes.int16)
CharTensor = _legacy_type(dtypes.int8)
ByteTensor = _legacy_type(dtypes.uint8)
BoolTensor = _legacy_type(dtypes.bool_)
