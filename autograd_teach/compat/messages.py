"""PyTorch's longer warning and error texts, word for word (with the C++
file and line PyTorch names), so the core's code stays short where it
raises or warns them."""

NONLEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute "
    "won't be populated during autograd.backward(). If you indeed want the .grad field to be populated "
    "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor "
    "by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 "
    "for more information. (Triggered internally at "
    "/__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)")
DEEPCOPY_NON_LEAF = ("Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at "
                     "the moment.  If you were attempting to deepcopy a module, this may be because of a "
                     "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001")
FLOAT_OF_GRAD_WARNING = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
    "Consider using tensor.detach() first. (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)")
CREATE_GRAPH_CYCLE_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter and its "
    "gradient which can cause a memory leak. We recommend using autograd.grad when creating the graph to "
    "avoid this. If you have to use this function, make sure to reset the .grad fields of your parameters "
    "to None after use to break the cycle and avoid the leak. (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp:1307.)")
T_ND_WARNING = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will "
    "throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
    "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor. (Triggered internally "
    "at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4314.)")
T_0D_WARNING = (
    "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases. (Triggered internally "
    "at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4321.)")


def type_name(obj):
    """The name PyTorch's messages give obj's type (THPUtils_typename, C's
    tp_name): 'float' or 'list' for a builtin, 'numpy.ndarray' for another
    C type, the bare class name for a class written in Python."""
    t = type(obj)
    heap_type = t.__flags__ & (1 << 9)      # Py_TPFLAGS_HEAPTYPE: a class written in Python
    return t.__name__ if heap_type or t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"


def must_be_tensor(fn, arg, position, value):
    """PyTorch's TypeError (its argument parser's words) for a non-tensor where fn takes a tensor only."""
    return TypeError(f"{fn}(): argument '{arg}' (position {position}) must be Tensor, not {type_name(value)}")
