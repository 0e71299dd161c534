"""dtypes: the names PyTorch uses (`torch.float32`), each backed by a numpy dtype.

PyTorch's default dtype is float32; integer literals give int64. Type promotion
follows PyTorch's rules, which differ from numpy's: a Python float never makes
a float32 tensor float64, and an int tensor combined with a float scalar becomes
the *default* float dtype (float32), not float64.
"""
import numpy as np


class dtype:
    __slots__ = ("name", "np", "is_floating_point", "itemsize", "_rank", "_tensor_type")

    def __init__(self, name, np_dtype, rank, tensor_type):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.is_floating_point = self.np.kind == "f"
        self.itemsize = self.np.itemsize
        self._rank = rank                # position in the promotion lattice
        self._tensor_type = tensor_type  # legacy type name, used in error messages

    def __repr__(self):
        return f"torch.{self.name}"

    @property
    def legacy_name(self):
        """The scalar-type name PyTorch's error messages use: torch.float32 -> Float."""
        return self._tensor_type[:-len("Tensor")]

    def __reduce__(self):
        return self.name


bool_ = dtype("bool", np.bool_, 0, "BoolTensor")
uint8 = dtype("uint8", np.uint8, 1, "ByteTensor")
int8 = dtype("int8", np.int8, 2, "CharTensor")
int16 = dtype("int16", np.int16, 3, "ShortTensor")
int32 = dtype("int32", np.int32, 4, "IntTensor")
int64 = dtype("int64", np.int64, 5, "LongTensor")
float16 = dtype("float16", np.float16, 6, "HalfTensor")
float32 = dtype("float32", np.float32, 7, "FloatTensor")
float64 = dtype("float64", np.float64, 8, "DoubleTensor")

ALL = (bool_, uint8, int8, int16, int32, int64, float16, float32, float64)
_BY_NUMPY = {d.np: d for d in ALL}

default_float = float32


def from_numpy(np_dtype):
    d = np.dtype(np_dtype)
    found = _BY_NUMPY.get(d)
    if found is not None:
        return found
    if d.kind in "uc":   # PyTorch has uint16/32/64 and complex tensors; this core leaves them out
        raise TypeError(f"autograd_teach has no {d.name} tensors (PyTorch's uint16, uint32, uint64 and complex "
                        "dtypes are left out); its types are: float64, float32, float16, int64, int32, int16, "
                        "int8, uint8, and bool.")
    raise TypeError(f"can't convert np.ndarray of type numpy.{d.type.__name__}. The only supported types are: "
                    "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, "
                    "uint16, uint8, and bool.")


def as_dtype(d):
    """Accept a torch-style dtype, a numpy dtype or a Python type."""
    if d is None or isinstance(d, dtype):
        return d
    if d is float:
        return float64   # torch.tensor(..., dtype=float) means float64, as in PyTorch
    if d is int:
        return int64
    if d is bool:
        return bool_
    return from_numpy(d)


_C_NAMES = {"bool": "bool", "uint8": "unsigned char", "int8": "signed char", "int16": "short int", "int32": "int",
            "int64": "long int", "float16": "c10::Half", "float32": "float", "float64": "double"}


def c_name(d):
    """The C++ type name some PyTorch messages use: float, double, long int."""
    return _C_NAMES[d.name]


def no_bool_kernel(a, kernel):
    """PyTorch has no kernel of this op for bool tensors (a: an array)."""
    if a.dtype.kind == "b":
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")


def check_floating(d, kernel):
    """PyTorch's error when a kernel has no version for d (an integer or bool dtype)."""
    if not d.is_floating_point:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{d.legacy_name}'")


_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def can_cast(from_, to):
    """PyTorch's canCast, for an in-place op's result: into a tensor of a kind
    as high (bool < integers < floats < complex); uint8.add_(int64) is fine."""
    return _KIND_RANK[from_.np.kind] <= _KIND_RANK[to.np.kind]


def promote_types(a, b):
    """torch.promote_types for the dtypes we support."""
    if a is b:
        return a
    if {a, b} == {uint8, int8}:
        return int16
    return a if a._rank > b._rank else b


def _combine(higher, lower):
    # PyTorch's combine_categories: a higher-priority group wins unless a
    # lower-priority group belongs to a higher category (bool < int < float).
    if higher is None:
        return lower
    if lower is None or higher.is_floating_point:
        return higher
    if higher is bool_ or lower.is_floating_point:
        return promote_types(higher, lower)
    return higher


def result_type(*operands):
    """The dtype of an op on tensors and Python scalars, by PyTorch's rules:
    dimensioned tensors outrank 0-d tensors, which outrank Python scalars,
    except where the lower group is of a higher category."""
    dim = zero = wrapped = None
    for o in operands:
        if o is None:      # an absent optional bound, as in clamp(min=0)
            continue
        d = getattr(o, "dtype", None)
        if d is None:  # a Python number: float -> default float, int -> int64
            d = bool_ if isinstance(o, (bool, np.bool_)) else (
                default_float if isinstance(o, (float, np.floating)) else int64)
            wrapped = d if wrapped is None else promote_types(wrapped, d)
        elif o.ndim == 0:
            zero = d if zero is None else promote_types(zero, d)
        else:
            dim = d if dim is None else promote_types(dim, d)
    return _combine(dim, _combine(zero, wrapped))
