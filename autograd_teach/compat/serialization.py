"""torch.save and torch.load: tensors, lists, dicts, state_dicts to a file and back.

The file format is NOT PyTorch's (a zip archive of pickled storages): it is a
one-line header followed by a pickle in which every tensor is its bytes, dtype,
shape and requires_grad. Files written by autograd_teach.save are read by
autograd_teach.load only, and PyTorch cannot read them either.

What is kept, as in PyTorch: the nesting (lists, tuples, dicts, OrderedDicts,
sets), the tensors' values, dtypes and requires_grad, Parameters stay
Parameters, and a tensor saved twice loads as one object. What is not: storage
shared between different tensors (a view and its base load as two copies).

load(weights_only=True), PyTorch's default since 2.6, refuses any class
beyond containers, numbers, strings, tensors, dtypes and sizes, and any
attribute set on an object but an OrderedDict's, with PyTorch's
UnpicklingError; weights_only=False unpickles anything, so use it only on
files you trust."""
import collections
import io
import math
import os
import pickle
from pickle import _Unpickler as PythonUnpickler   # its opcodes can be overridden one by one; C's cannot

import numpy as np

from . import dtypes
from ..nn.parameter import Parameter
from .size import Size
from ..core.tensor import Tensor

MAGIC = b"autograd_teach.save v1\n"


def _rebuild_tensor(data, dtype, shape, requires_grad):
    # a crafted file may give anything: a dtype there is no tensor for (PyTorch's TypeError), too few bytes
    itemsize = np.dtype(dtypes.from_numpy(np.dtype(dtype)).np).itemsize
    if not (isinstance(shape, tuple) and all(type(n) is int and n >= 0 for n in shape)):
        raise TypeError(f"expected a tuple of sizes, but got {shape!r}")
    needed, size = math.prod(shape) * itemsize, len(data) if isinstance(data, bytes) else 0
    if needed != size or not isinstance(data, bytes):
        strides = [math.prod(shape[k + 1:]) for k in range(len(shape))]
        raise RuntimeError(f"setStorage: sizes {list(shape)}, strides {strides}, storage offset 0, and itemsize "
                           f"{itemsize} requiring a storage size of {needed} are out of bounds for storage of size "
                           f"{size}")
    t = Tensor._wrap(np.frombuffer(data, dtype=dtype).reshape(shape).copy())
    t.requires_grad = requires_grad
    return t


def _rebuild_parameter(data, dtype, shape, requires_grad):
    return Parameter(_rebuild_tensor(data, dtype, shape, False), requires_grad)


class _Pickler(pickle.Pickler):
    """Writes each tensor as (bytes, dtype, shape, requires_grad): no numpy, no Tensor class in the file."""

    def reducer_override(self, obj):
        if isinstance(obj, Tensor):
            array = obj._data       # tobytes() is in C order, whatever the strides
            rebuild = _rebuild_parameter if isinstance(obj, Parameter) else _rebuild_tensor
            return rebuild, (array.tobytes(), array.dtype.str, array.shape, obj.requires_grad)
        return NotImplemented


_SAFE = {("collections", "OrderedDict"): collections.OrderedDict,
         (__name__, "_rebuild_tensor"): _rebuild_tensor,
         (__name__, "_rebuild_parameter"): _rebuild_parameter,
         ("autograd_teach.compat.size", "Size"): Size,
         ("builtins", "set"): set, ("builtins", "frozenset"): frozenset,
         ("builtins", "complex"): complex, ("builtins", "slice"): slice}

# PyTorch's messages (torch.serialization._get_wo_message), around the unpickler's own
UNSAFE = ("In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from "
          "`False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but "
          "it can result in arbitrary code execution. Do it only if you got the file from a trusted source.")
DOCS = ("\n\nCheck the documentation of torch.load to learn more about types accepted by default with weights_only "
        "https://pytorch.org/docs/stable/generated/torch.load.html.")
BLOCKED_MODULES = ("sys", "os", "posix", "nt")


def _unsupported_global(module, name):
    shown = name if module == "builtins" else f"{module}.{name}"
    if module in BLOCKED_MODULES:
        return (f"Weights only load failed. {UNSAFE}\n\n\nTrying to load unsupported GLOBAL {module}.{name} whose "
                f"module {module} is blocked.{DOCS}")
    return ("Weights only load failed. This file can still be loaded, to do so you have two options, \x1b[1mdo "
            f"those steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) {UNSAFE}\n\t(2) "
            "Alternatively, to load with `weights_only=True` please check the recommended steps in the following "
            f"error message.\n\tWeightsUnpickler error: Unsupported global: GLOBAL {shown} was not an allowed "
            f"global by default. Please use `torch.serialization.add_safe_globals([{shown}])` or the "
            f"`torch.serialization.safe_globals([{shown}])` context manager to allowlist this global if you trust "
            f"this class/function.{DOCS}")


def _cannot_build(inst):
    return (f"Weights only load failed. {UNSAFE}\nPlease file an issue with the following so that we can make "
            "`weights_only=True` compatible with your use case: WeightsUnpickler error: \n\nCan only build Tensor, "
            f"Parameter, OrderedDict or types allowlisted via `add_safe_globals`, but got {type(inst)}{DOCS}")


class _WeightsOnlyUnpickler(PythonUnpickler):
    """Python's unpickler with two opcodes restricted, as PyTorch's weights-only
    unpickler restricts them: GLOBAL finds only the allowed names, and BUILD
    (which sets attributes on the object just made) applies only to an
    OrderedDict (a state_dict's _metadata). Tensors and Parameters are rebuilt
    whole by _rebuild_tensor, so a file cannot reach into one (t._data = "x")."""
    dispatch = dict(PythonUnpickler.dispatch)

    def find_class(self, module, name):
        if (module, name) in _SAFE:
            return _SAFE[module, name]
        if module == "autograd_teach.compat.dtypes" and isinstance(getattr(dtypes, name, None), dtypes.dtype):
            return getattr(dtypes, name)    # torch.float32 itself, pickled by name
        raise pickle.UnpicklingError(_unsupported_global(module, name))

    def load_build(self):
        state = self.stack.pop()
        inst = self.stack[-1]
        if type(inst) is not collections.OrderedDict:
            raise pickle.UnpicklingError(_cannot_build(inst))
        inst.__dict__.update(state)

    dispatch[pickle.BUILD[0]] = load_build


def save(obj, f, pickle_protocol=2, **kwargs):
    """torch.save(obj, f): f a path or a writable binary file."""
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=max(pickle_protocol, 4)).dump(obj)   # 4: bytes pickle as bytes
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as file:
            file.write(MAGIC + buffer.getvalue())
    else:
        f.write(MAGIC + buffer.getvalue())


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **kwargs):
    """torch.load(f): map_location is accepted and has nothing to do (one device, the CPU)."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as file:
            raw = file.read()
    else:
        raw = f.read()
    if not raw.startswith(MAGIC):
        what = "PyTorch's format (a zip archive)" if raw.startswith(b"PK\x03\x04") else "another format"
        raise RuntimeError(f"{getattr(f, 'name', f)} was not written by autograd_teach.save: it is in {what}. "
                           "autograd_teach.load reads only files autograd_teach.save wrote.")
    body = io.BytesIO(raw[len(MAGIC):])
    unpickler = pickle.Unpickler(body) if weights_only is False else _WeightsOnlyUnpickler(body)
    return unpickler.load()
