"""torch.nn.functional: the functional forms of the layers, activations and
losses. Each builds the graph PyTorch builds (same nodes, same order)."""
import warnings

import numpy as np

from .. import ops as O
from ..compat import dtypes, random
from ..compat.creation import from_numpy, zeros
from ..core.grad_mode import is_grad_enabled
from ..core.node import check_broadcast


def mse_loss(input, target, reduction="mean"):
    if target.shape != input.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size "
                      f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
                      "Please ensure they have the same size.", UserWarning, stacklevel=2)
    dtypes.check_floating(dtypes.result_type(input, target), "mse_cpu")
    return O.MseLossBackward0.apply(input, target, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    """weight multiplies each element's loss; pos_weight (one per class, the
    last dim) the positive term only: > 1 counts positives more (a rare class)."""
    if size_average is not None or reduce is not None:
        raise NotImplementedError("autograd_teach: size_average and reduce are deprecated; use reduction=")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    for name, w in (("weight", weight), ("pos_weight", pos_weight)):
        if w is not None and w.requires_grad and is_grad_enabled():
            raise RuntimeError(f"The function 'binary_cross_entropy_with_logits' is not differentiable with respect "
                               f"to argument '{name}'. This input cannot have requires_grad True.")
    dtypes.check_floating(input.dtype, "log_sigmoid_cpu")
    if target.dtype is dtypes.bool_:       # PyTorch's kernel computes 1 - target
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                           "`logical_xor()` operator instead.")
    if not target.is_floating_point():     # ... in place, in a tensor of target's dtype
        raise RuntimeError(f"result type {dtypes.result_type(input, target).legacy_name} can't be cast to the "
                           f"desired output type {target.dtype.legacy_name}")
    if pos_weight is not None:             # PyTorch: (pos_weight - 1).mul(target), then into log_sigmoid(input)
        _check_in_place_broadcast(input.shape, _broadcast(pos_weight.shape, target.shape))
    if weight is not None:                 # PyTorch: loss.mul_(weight)
        _check_in_place_broadcast(input.shape, _broadcast(input.shape, weight.shape))
    return O.BinaryCrossEntropyWithLogitsBackward0.apply(input, target, reduction, target.dtype, weight, pos_weight)


def _broadcast(a, b):
    """The shape a and b broadcast to, or PyTorch's error."""
    check_broadcast(tuple(a), tuple(b))
    return np.broadcast_shapes(tuple(a), tuple(b))


def _check_in_place_broadcast(shape, broadcast):
    """An in-place op cannot grow its output."""
    if tuple(shape) != tuple(broadcast):
        raise RuntimeError(f"output with shape {list(shape)} doesn't match the broadcast shape {list(broadcast)}")


def relu(input, inplace=False):
    return input.relu_() if inplace else input.relu()


def leaky_relu(input, negative_slope=0.01, inplace=False):
    if not input.is_floating_point():
        raise NotImplementedError(f'"leaky_relu_cpu" not implemented for \'{input.dtype.legacy_name}\'')
    if inplace:
        return input._inplace(lambda t: O.LeakyReluBackward1.apply(t, negative_slope))
    return O.LeakyReluBackward0.apply(input, negative_slope)


def sigmoid(input):
    return input.sigmoid()


def tanh(input):
    return input.tanh()


# --- layers, activations and losses ---
def linear(input, weight, bias=None):
    """PyTorch's graph: addmm(bias, x, weight.t()) for a matrix x (AddmmBackward0
    over TBackward0); other shapes are viewed to a matrix and back, unless x
    is not contiguous (a transpose): then matmul and the bias added in place
    (AddBackward0); without a bias, matmul (MmBackward0)."""
    if input.dim() == 2 and bias is not None:
        return O.AddmmBackward0.apply(bias, input, weight.t())
    if bias is not None and not input.is_contiguous():     # PyTorch: matmul, then the bias added in place
        return input.matmul(weight.t()).add_(bias)
    if bias is not None:
        batch = tuple(input.shape[:-1])
        out = O.AddmmBackward0.apply(bias, input.reshape(-1, input.shape[-1]), weight.t())
        return out.view(*batch, weight.shape[0])
    if input.dim() <= 2:
        return input.matmul(weight.t())
    batch = tuple(input.shape[:-1])
    out = input.reshape(-1, input.shape[-1]).mm(weight.t())
    return O.UnsafeViewBackward0.apply(out, batch + (weight.shape[0],))


def _get_softmax_dim(name, ndim, stacklevel):
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
                  "dim=X as an argument.", UserWarning, stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    return input.softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    return input.log_softmax(dim, dtype=dtype)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    if input.dim() > 2 and input.shape[0] == (target.shape[0] if target.dim() else 0):   # per pixel (ops/nll_loss2d.py)
        return O.nll_loss2d.nll_loss_nd(input, target, weight, reduction, ignore_index)
    return O.NllLossBackward0.apply(input, target, weight, reduction, ignore_index)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """log_softmax over the class dim, then nll_loss: PyTorch's two nodes.
    Class probabilities as target, and label smoothing, build the graph
    PyTorch's C++ builds for them (its nodes, in its order)."""
    class_dim = 0 if input.dim() == 1 else 1
    if input.shape == target.shape:     # as PyTorch: then the target holds class probabilities
        if not target.is_floating_point():
            raise RuntimeError(f"Expected floating point type for target with class probabilities, got "
                               f"{target.dtype.legacy_name}")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
    if label_smoothing > 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    lsm = input.log_softmax(class_dim)
    if input.shape == target.shape:
        return _cross_entropy_probs(lsm, target, weight, reduction, label_smoothing, class_dim)
    nll = nll_loss(lsm, target, weight, None, ignore_index, None, reduction)
    if label_smoothing <= 0:     # PyTorch ignores a negative one
        return nll
    if weight is not None:
        raise NotImplementedError("autograd_teach: cross_entropy(weight=..., label_smoothing=...) is not "
                                  "implemented")
    n_classes = input.shape[class_dim]
    ignore_mask = target == ignore_index
    smooth = -lsm.sum(class_dim)
    smooth.masked_fill_(ignore_mask, 0.0)
    if reduction == "mean":
        smooth = smooth.sum() / (~ignore_mask).sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    # PyTorch's C++ returns (1 - ls) * nll + smooth * (ls / n); its compiler builds the right
    # product first, so that node is older and PyTorch's engine runs it after the left one.
    smooth_term = O.MulBackward1.apply(smooth, label_smoothing / n_classes)
    return O.MulBackward1.apply(nll, 1 - label_smoothing) + smooth_term


def _cross_entropy_probs(lsm, target, weight, reduction, label_smoothing, class_dim):
    if target.shape != lsm.shape:
        raise RuntimeError(f"Expected target size {list(lsm.shape)}, got {list(target.shape)}")
    if weight is not None:
        raise NotImplementedError("autograd_teach: cross_entropy(weight=...) with class probabilities is not "
                                  "implemented")
    if label_smoothing > 0:
        target = target * (1 - label_smoothing) + label_smoothing / lsm.shape[class_dim]
    prod = lsm * target
    if reduction == "none":
        return -prod.sum(class_dim)
    total = -prod.sum()
    if reduction == "sum":
        return total
    return O.DivBackward1.apply(total, lsm.shape[0] if lsm.dim() > 1 else 1)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    if target.shape != input.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size "
                      f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
                      "Please ensure they have the same size.", UserWarning, stacklevel=2)
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    loss = (input - target).abs()       # PyTorch's graph: SubBackward0, AbsBackward0, then the reduction
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    if target.shape != input.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size "
                         f"({input.shape}) is deprecated. Please ensure they have the same size.")
    if target.dtype is not input.dtype:
        raise RuntimeError(f"Found dtype {target.dtype.legacy_name} but expected {input.dtype.legacy_name}")
    dtypes.check_floating(input.dtype, "binary_cross_entropy")
    if weight is not None:
        raise NotImplementedError("autograd_teach: binary_cross_entropy(weight=...) is not implemented")
    return O.BinaryCrossEntropyBackward0.apply(input, target, reduction)


def flatten(input, start_dim=0, end_dim=-1):
    from ..core.ops.shape import check_dim
    if input.dim() == 0:
        return input.reshape(1)
    s, e = check_dim(start_dim, input.dim()), check_dim(end_dim, input.dim())
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    shape = tuple(input.shape)
    return input.reshape(shape[:s] + (-1,) + shape[e + 1:])



def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability p and scale the others by
    1 / (1 - p), so the expected value is unchanged; the identity when not
    training.  The graph is one MulBackward0: input * mask."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return _dropout(input, p, training, inplace)


def _dropout(input, p, train, inplace):
    """at::dropout on CPU (native/Dropout.cpp, _dropout_impl): nothing to do
    returns the input itself; p == 1 multiplies by a 0-d zero; otherwise the
    mask is empty_like(input).bernoulli_(1 - p).div_(1 - p) (one uniform
    double per element, drawn from the default generator)."""
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        mask = zeros((), dtype=input.dtype)
    else:
        dt = input.dtype.np
        keep = random.bernoulli(tuple(input.shape), 1 - p)
        if dt.kind != "f":
            raise RuntimeError(f"result type Float can't be cast to the desired output type "
                               f"{input.dtype.legacy_name}")
        # div_ in the mask's dtype (float16 is computed in float32, then rounded)
        work = np.dtype(np.float32) if dt == np.float16 else dt
        mask = from_numpy((keep.astype(work) / work.type(1 - p)).astype(dt))
    return input.mul_(mask) if inplace else input.mul(mask)


def gelu(input, approximate="none"):
    """x * Phi(x) (Phi: the standard normal CDF), or with approximate='tanh'
    0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x**3)))."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    if not input.is_floating_point():
        raise NotImplementedError(f'"GeluKernelImpl" not implemented for \'{input.dtype.legacy_name}\'')
    return O.GeluBackward0.apply(input, approximate)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """weight[input]: one row of the table per index. padding_idx's row gets
    no gradient; a negative padding_idx counts from the end, as PyTorch's."""
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError("autograd_teach: embedding's max_norm, scale_grad_by_freq and sparse")
    if padding_idx is not None:
        if not -weight.size(0) <= padding_idx < weight.size(0):
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx = padding_idx % weight.size(0)
    return O.EmbeddingBackward0.apply(weight, input, padding_idx)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """(input - mean) / sqrt(var + eps) * weight + bias, the mean and (biased)
    variance taken over the last len(normalized_shape) dims."""
    if isinstance(normalized_shape, int):    # nn.LayerNorm takes an int; F.layer_norm does not
        raise TypeError("layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not int")
    dtypes.check_floating(input.dtype, "LayerNormKernelImpl")
    _check_mixed_dtype(input, weight, bias)
    return O.NativeLayerNormBackward0.apply(input, normalized_shape, weight, bias, eps)


def _check_mixed_dtype(input, *params):
    """batch_norm and layer_norm take parameters of input's dtype (PyTorch's CPU kernels)."""
    if any(p is not None and p.dtype is not input.dtype for p in params):
        raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float"
                           if input.dtype is dtypes.float32 else "mixed dtype (CPU): all inputs must share same datatype.")
# --- more activations (ops/activations.py) ---
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _activation(input, node, inplace, *args):
    """node applied to input, or written into it in place (the node saves the
    input as it was, as PyTorch's in-place kernels do for these ops)."""
    if inplace:
        return input._inplace(lambda t: node.apply(t, *args))
    return node.apply(input, *args)


def softplus(input, beta=1.0, threshold=20.0):
    return O.SoftplusBackward0.apply(input, beta, threshold)


def elu(input, alpha=1.0, inplace=False):
    if inplace:       # elu_ saves its result (EluBackward1): the input is overwritten
        return input._inplace(lambda t: O.EluBackward1.apply(t, alpha))
    return O.EluBackward0.apply(input, alpha)


def selu(input, inplace=False):
    """elu with SELU's constants: PyTorch's graph is one EluBackward0."""
    if inplace:
        return input._inplace(lambda t: O.EluBackward1.apply(t, _SELU_ALPHA, _SELU_SCALE))
    return O.EluBackward0.apply(input, _SELU_ALPHA, _SELU_SCALE)


def silu(input, inplace=False):
    return _activation(input, O.SiluBackward0, inplace)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _activation(input, O.HardtanhBackward0, inplace, min_val, max_val)


def relu6(input, inplace=False):
    """hardtanh(input, 0, 6): PyTorch's node is HardtanhBackward0."""
    return _activation(input, O.HardtanhBackward0, inplace, 0, 6)


def hardsigmoid(input, inplace=False):
    return _activation(input, O.HardsigmoidBackward0, inplace)


# --- one_hot and pad ---
def one_hot(tensor, num_classes=-1):
    """int64 rows with a 1 at each class index (no graph: the result is an
    integer tensor). num_classes=-1 takes the largest class + 1."""
    from ..compat.dtypes import int64
    if tensor.dtype is not int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    classes = tensor.detach().numpy()
    if classes.size == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        return from_numpy(np.zeros(classes.shape + (num_classes,), np.int64))
    if classes.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(classes.max()) + 1
    elif num_classes <= classes.max():
        raise RuntimeError("Class values must be smaller than num_classes.")
    # a new tensor, contiguous as PyTorch's (even for a transposed input: x.T in d2l's RNNModel)
    return from_numpy(np.ascontiguousarray(classes[..., None] == np.arange(num_classes), dtype=np.int64))


def pad(input, pad, mode="constant", value=None):
    """pad = (left, right) for the last dim, then for the one before, ...;
    negative pads crop. Only mode 'constant' here."""
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {input.dim()}")
    if mode in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"autograd_teach: F.pad(mode={mode!r}) is not implemented; only mode='constant' is")
    if mode != "constant":
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    return O.ConstantPadNdBackward0.apply(input, list(pad), 0 if value is None else value)


# --- convolution (ops/conv.py) ---
_SAME_WARNING = ("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy of "
                 "the input be created (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                 "Convolution.cpp:1101.)")


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """Each output position: the sum over a window of the input's channels
    times the weight. input (N, C_in, L) or (C_in, L); weight (C_out, C_in/groups, k)."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, "conv1d", 1)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """conv1d over two spatial dims: input (N, C_in, H, W) or (C_in, H, W);
    weight (C_out, C_in/groups, kH, kW)."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, "conv2d", 2)


def _convolution(input, weight, bias, stride, padding, dilation, groups, name, dims):
    """An unbatched input gets a batch dim of 1 around the op, as PyTorch's
    (UnsqueezeBackward0 before, SqueezeBackward1 after)."""
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {name}, but got "
                           f"input of size: {list(input.shape)}")
    if input.dim() == dims + 1:
        return _convolution(input.unsqueeze(0), weight, bias, stride, padding, dilation, groups, name, dims).squeeze(0)
    k = weight.dim() - 2      # the weight says how many dims the convolution has
    stride = O.conv.expand_param(stride, "stride", dims, k)
    dilation = O.conv.expand_param(dilation, "dilation", dims, k)
    output_padding = (0,) * k
    if isinstance(padding, str):
        input, padding, output_padding = _padding_mode(input, weight, stride, padding, dilation)
    else:
        padding = O.conv.expand_param(padding, "padding", dims, k)
    O.conv.check_convolution(input, weight, bias, stride, padding, dilation, groups)
    return O.ConvolutionBackward0.apply(input, weight, 0.0 if bias is None else bias, stride, padding, dilation,
                                        False, output_padding, groups)


def _padding_mode(input, weight, stride, padding, dilation):
    """padding='valid' is 0 (PyTorch keeps it as (0,)); 'same' pads
    dilation*(k-1) in all, half on each side; when that is odd, the extra one
    goes on the right, by an F.pad of the input first."""
    if padding == "valid":
        return input, (0,), (0,)
    if padding != "same":
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    total = [d * (k - 1) for d, k in zip(dilation, weight.shape[2:])]
    left = [t // 2 for t in total]
    if total != [2 * low for low in left]:
        warnings.warn(_SAME_WARNING, UserWarning, stacklevel=4)
        extra = []
        for t, low in reversed(list(zip(total, left))):
            extra += [0, t - 2 * low]
        input = O.ConstantPadNdBackward0.apply(input, extra, 0)
    return input, tuple(left), (0,) * len(total)


# --- pooling (ops/pooling.py) ---
def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The max of each window; with return_indices, also where it was (h * W + w)."""
    if input.dim() not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    pair = O.pooling.pair
    kernel = pair(kernel_size, "max_pool2d", "kernel_size must either be a single int, or a tuple of two ints")
    stride = pair(stride, "max_pool2d", "stride must either be omitted, a single int, or a tuple of two ints", True)
    padding = pair(padding, "max_pool2d", "padding must either be a single int, or a tuple of two ints")
    dilation = pair(dilation, "max_pool2d", "dilation must be either a single int, or a tuple of two ints")
    O.pooling.check_pool(input, kernel, stride, padding, dilation, ceil_mode, "max_pool2d")
    out = O.MaxPool2DWithIndicesBackward0.apply(input, kernel, stride, padding, dilation, ceil_mode)
    if not return_indices:
        return out
    if out.grad_fn is not None:
        return out, from_numpy(out.grad_fn.result1)
    return out, from_numpy(O.pooling.max_pool2d_with_indices(input.detach().numpy(), kernel, stride, padding,
                                                              dilation, ceil_mode)[1])


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each window (see ops/pooling.py for what it is divided by)."""
    pair = O.pooling.pair
    kernel = pair(kernel_size, "avg_pool2d", "kernel_size must either be a single int, or a tuple of two ints")
    stride = pair(stride, "avg_pool2d", "stride must either be omitted, a single int, or a tuple of two ints", True)
    padding = pair(padding, "avg_pool2d", "padding must either be a single int, or a tuple of two ints")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    O.pooling.check_pool(input, kernel, stride, padding, (1, 1), ceil_mode, "avg_pool2d")
    return O.AvgPool2DBackward0.apply(input, kernel, stride, padding, ceil_mode, count_include_pad,
                                      divisor_override)


def adaptive_avg_pool2d(input, output_size):
    """The input cut into output_size windows as even as can be, each averaged.
    An output of 1 x 1 is input.mean((-1, -2), keepdim=True), as PyTorch records it."""
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(input.shape)}")
    size = list(output_size) if isinstance(output_size, (tuple, list)) else [output_size, output_size]
    if len(size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    size = [input.shape[-2 + i] if s is None else s for i, s in enumerate(size)]
    if min(size) < 0:
        raise RuntimeError("adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{size[0]}, {size[1]}}}")
    if not input.is_floating_point():
        raise NotImplementedError(f"\"adaptive_avg_pool2d\" not implemented for '{input.dtype.legacy_name}'")
    if size == [1, 1]:
        return input.mean((-1, -2), keepdim=True)
    return O.AdaptiveAvgPool2DBackward0.apply(input, tuple(size))


# --- batch_norm (ops/batch_norm.py) ---
def _verify_batch_size(size):
    """PyTorch's check: a channel needs more than one value to have a variance."""
    values = size[0]
    for s in size[2:]:
        values *= s
    if values == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    """(input - mean) / sqrt(var + eps) * weight + bias per channel (dim 1):
    the batch's statistics in training (running_mean and running_var, if
    given, are updated in place), the running ones otherwise."""
    if training:
        _verify_batch_size(input.size())
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    elif eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    dtypes.check_floating(input.dtype, "batch_norm")
    _check_mixed_dtype(input, running_mean, running_var, weight, bias)
    if input.numel() == 0:    # ATen's _batch_norm_impl_index: no statistics, but a graph to the parameters
        out = input.clone()
        out = out if weight is None else out * weight[0]
        return out if bias is None else out + bias[0]
    return O.NativeBatchNormBackward0.apply(input, weight, bias, running_mean, running_var, training, momentum, eps)


# --- smooth_l1_loss, huber_loss, kl_div, cosine_similarity, normalize (d2l chapters 5 and 7) ---
def _warn_size(input, target):
    if target.shape != input.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size "
                      f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
                      "Please ensure they have the same size.", UserWarning, stacklevel=3)


def _broadcast_tensors(a, b, expand_both=False):
    """torch.broadcast_tensors of two: a tensor of the common shape is kept
    as it is, the others are expanded (ExpandBackward0). ATen's
    expand_outplace (expand_both) expands both once the shapes differ."""
    if a.shape == b.shape:
        return a, b
    from ..core.node import check_broadcast
    check_broadcast(tuple(a.shape), tuple(b.shape))
    shape = np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    return tuple(t if tuple(t.shape) == shape and not expand_both else t.expand(*shape) for t in (a, b))


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """0.5 * d ** 2 / beta where |d| < beta, else |d| - 0.5 * beta (d = input - target), reduced."""
    _warn_size(input, target)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    dtypes.check_floating(dtypes.result_type(input, target), "smooth_l1_cpu")
    input, target = _broadcast_tensors(input, target)
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)
    return O.SmoothL1LossBackward0.apply(input, target, reduction, beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """0.5 * d ** 2 where |d| < delta, else delta * (|d| - 0.5 * delta), optionally weighted, reduced."""
    _warn_size(input, target)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    promoted = dtypes.result_type(input, target)
    dtypes.check_floating(promoted, "huber_cpu")
    if promoted is not input.dtype:        # PyTorch's loss has input's dtype
        if not input.is_floating_point():
            raise RuntimeError(f"result type {promoted.legacy_name} can't be cast to the desired output type "
                               f"{input.dtype.legacy_name}")
        target = target.to(input.dtype)
    input, target = _broadcast_tensors(input, target)
    if weight is None:
        return O.HuberLossBackward0.apply(input, target, reduction, delta)
    if weight.shape != input.shape:
        raise ValueError("Weights and input must have the same size.")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    weighted = O.HuberLossBackward0.apply(input, target, "none", delta) * weight
    return weighted.mean() if reduction == "mean" else weighted.sum() if reduction == "sum" else weighted


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """target * (log(target) - input) per element (input holds log-probabilities;
    log_target: target does too): PyTorch's graph of ops. 'batchmean' divides
    the sum by the batch size, the KL divergence; 'mean' divides by every element."""
    if size_average is not None or reduce is not None:
        raise NotImplementedError("autograd_teach: size_average and reduce are deprecated; use reduction=")
    if reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                      UserWarning, stacklevel=2)
    if reduction not in ("mean", "sum", "none", "batchmean"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if not (input.is_floating_point() and target.is_floating_point()):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    # ATen's C++ evaluates the right operand first (it records the later node: it runs first in backward)
    if log_target:
        diff = target - input
        out = target.exp() * diff
    else:
        product = target * input
        out = O.xlogy.xlogy(target, target) - product
    if reduction == "mean":
        return out.mean()
    if reduction == "none":
        return out
    out = out.sum()
    return out / input.size()[0] if reduction == "batchmean" and input.dim() != 0 else out


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """sum(x1 / |x1| * x2 / |x2|) over dim, each norm at least eps: ATen's
    graph (the norms cloned, then clamped in place without recording)."""
    from ..core.grad_mode import no_grad
    x1, x2 = _broadcast_tensors(x1, x2, expand_both=True)
    n1 = x1.norm(2, dim, keepdim=True).clone()
    n2 = x2.norm(2, dim, keepdim=True).clone()
    with no_grad():
        n1.clamp_(min=eps)
        n2.clamp_(min=eps)
    q2 = x2 / n2        # ATen's C++ evaluates the right operand first: x2's division is recorded first
    return ((x1 / n1) * q2).sum(dim)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """input / max(norm(input, p, dim), eps): each slice along dim scaled to norm 1."""
    if out is not None:
        raise NotImplementedError("autograd_teach: F.normalize(out=...)")
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denom


# --- 1-D and adaptive max pooling, group_norm, interpolate, conv_transpose2d ---
from .functional_layers import (adaptive_avg_pool1d, adaptive_max_pool1d, adaptive_max_pool2d,  # noqa: F401,E402
                                avg_pool1d, conv_transpose2d, group_norm, interpolate, max_pool1d,
                                upsample)
