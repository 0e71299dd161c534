"""PyTorch's out= argument: torch.nan_to_num(x, out=y) computes what
torch.nan_to_num(x) would, then writes it into y and returns y, in PyTorch's
order of checks:

1. out is a tensor (the argument parser's TypeError);
2. no graph is asked for: with grad mode on, neither the inputs nor out may
   require grad (an out= function has no derivative);
3. the op's own checks (nan_to_num: out's dtype is the input's);
4. out has no element twice (an expanded tensor), and shares no memory with
   an input in another layout (compat/overlap.py);
5. out of another shape is resized, with PyTorch's warning unless it was
   empty. Only a tensor that owns its storage is resized here: PyTorch would
   resize a view inside its base's storage, which numpy cannot grow;
6. the write bumps out's version, as any in-place op (core/views.py).
"""
import warnings

from ..core import grad_mode
from . import messages, overlap

RESIZED = ("An output with one or more elements was resized since it had shape {}, which does not match the "
           "required output shape {}. This behavior is deprecated, and in a future PyTorch release outputs will not "
           "be resized unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, "
           "inplace, to zero elements with t.resize_(0). (Triggered internally at "
           "/__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)")


def check(fn, out, inputs, tensor_type):
    """Steps 1 and 2, before the op's own checks."""
    if not isinstance(out, tensor_type):
        raise TypeError(f"{fn}(): argument 'out' must be Tensor, not {messages.type_name(out)}")
    if grad_mode.is_grad_enabled() and any(t.requires_grad for t in (*inputs, out)):
        raise RuntimeError(f"{fn}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")


def write(out, result, inputs):
    """Steps 4 to 6: result (computed outside any graph) written into out."""
    data = out.detach().numpy()
    overlap.check_no_internal_overlap(data)
    for t in inputs:
        overlap.check_no_partial_overlap(data, t.detach().numpy())
    if out.shape != result.shape:
        if out._base is not None:
            raise RuntimeError(f"autograd_teach: out= cannot resize a view (of shape {_dims(out.shape)} to "
                               f"{_dims(result.shape)}); PyTorch resizes it inside its base's storage")
        if out.numel():
            warnings.warn(RESIZED.format(_dims(out.shape), _dims(result.shape)), UserWarning, stacklevel=3)
        out.data = result.new_empty(result.shape)      # a storage of its own, as resize_ makes one
    return out._inplace(lambda t, *args: result, *inputs)


def _dims(shape):
    return f"[{', '.join(map(str, shape))}]"
