"""One small class per differentiable op, named after PyTorch's backward node.

Each class's docstring is its derivative, in the style of PyTorch's
tools/autograd/derivatives.yaml (where PyTorch keeps the rule of every op):
first the forward, then one line per differentiable input. MulBackward0's reads

    out = self * other

    self: grad * other
    other: grad * self

A rule is a Python expression over tensors, written with the Tensor API that
PyTorch also has, so it reads as PyTorch. It may use `grad` (the gradient of
the output), the op's inputs by their PyTorch names (`self`, `other`, ...),
`result` (the output), the node's non-tensor attributes (`alpha`, `dim`,
`self_sym_sizes`, ...: what PyTorch shows as `grad_fn._saved_<name>`), `torch`,
`math`, and the functions of the op's own module (`where`, `zeros_like`,
`tanh_backward`, `select_backward`, ...: PyTorch's at:: and FunctionsManual
functions of the same names, imported or defined beside the op). A rule may go on over indented lines; a paragraph of notes may
follow. A rule gives the gradient before un-broadcasting: where an input was
broadcast, the base class sums the gradient back to that input's shape (and
casts it to the input's dtype), for every op alike.

`backward` beside it computes the same thing on numpy arrays, fast;
`autograd_teach.core.rules` reads these rules and evaluates them on a node's saved
values (ops/formulas.py is its reading API for the tests and the widget), and tests/test_derivative_formulas.py checks, for every op, that
the rule gives the gradient the engine computed. With create_graph=True the
rule *is* the backward: the engine evaluates it on Tensors with grad mode on
(OpNode.call_backward_on_tensors), so the backward is a graph of its own that
can be differentiated again; where a rule calls a helper that PyTorch records
as one node (tanh_backward -> TanhBackwardBackward0), that node is an op here
too, with a rule of its own.

Adding an op: write its class in the module of its family (or a new one),
with the Tensor methods it gives declared beside it,

    TENSOR_METHODS = {"unique": unique, "unique_consecutive": unique_consecutive}

and import the module below (`from . import unique`): its node classes are
then `O.<Name>` (`__getattr__` below finds them), and ops/methods.py
adds its methods to Tensor. Importing names here, and writing the methods in
ops/methods.py, is the older way, and still works.
"""
import types

from ..core.node import Node


def op_modules():
    """The op modules imported so far (this folder's and core/ops'), in import order."""
    return [m for m in list(globals().values()) if isinstance(m, types.ModuleType)
            and m.__name__.startswith((__name__ + ".", "autograd_teach.core.ops."))]


def __getattr__(name):
    """O.<Name> for a node class of an op module imported whole below (from .
    import gelu), found on first use and kept: such a module needs no list of
    names here. One name for two classes is refused."""
    found = {vars(m)[name] for m in op_modules() if name[:1].isupper() and _defines_node(m, name)}
    if len(found) > 1:
        raise ImportError(f"two op classes named {name}: in " + " and ".join(sorted(c.__module__ for c in found)))
    if not found:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = found.pop()
    return value


def _defines_node(module, name):
    value = vars(module).get(name)
    return isinstance(value, type) and issubclass(value, Node) and value.__module__ == module.__name__


from ..core.ops import multi_output, reduction, shape  # noqa: F401  (O.shape.check_dim, O.multi_output.captured)
from ..core.ops.alias import AliasBackward0  # noqa: F401
from .as_strided import AsStridedBackward0  # noqa: F401
from ..core.ops.matmul import matmul, matmul_nd  # noqa: F401
from ..core.ops.reshape import ReshapeAliasBackward0, UnsafeViewBackward0, reshape_node  # noqa: F401
from ..core.ops.arithmetic import (AddBackward0, AddBackward1, Atan2Backward0, DivBackward0, DivBackward1,  # noqa: F401
                                   MulBackward0, MulBackward1, NegBackward0, PowBackward0, SubBackward1,
                                   PowBackward1, PowBackward2, ReciprocalBackward0, RsubBackward1, SubBackward0)
from ..core.ops.products import BmmBackward0, DotBackward0, MmBackward0, MvBackward0  # noqa: F401
from .loss import BinaryCrossEntropyWithLogitsBackward0, MseLossBackward0, MseLossBackwardBackward0  # noqa: F401
from ..core.ops.pointwise import (AbsBackward0, ClampBackward1, CosBackward0, ExpBackward0, LogBackward0,  # noqa: F401
                                  ReluBackward0, SgnBackward0, SigmoidBackward0, SigmoidBackwardBackward0, SinBackward0,
                                  SqrtBackward0, TanhBackward0, TanhBackwardBackward0, ThresholdBackwardBackward0,
                                  ZeroBackward0, FillBackward2, FillBackward3, UniformBackward0, NormalBackward0)
from ..core.ops.reduction import (AmaxBackward0, AminBackward0, LogsumexpBackward0, NansumBackward0,  # noqa: F401
                                  LinalgVectorNormBackward0, MaxBackward0, MaxBackward1, MeanBackward0,  # noqa: F401
                                  MeanBackward1, MinBackward0, MinBackward1, SumBackward0, SumBackward1)
from ..core.ops.selection import (IndexPutBackward0, IndexPutImplBackward0, ScatterBackward0, SelectBackwardBackward0,  # noqa: F401
                                  SliceBackwardBackward0, WhereBackward0)
from ..core.ops.shape import (CloneBackward0, CopyBackwards, ExpandBackward0, IndexBackward0, PermuteBackward0,  # noqa: F401
                              SelectBackward0, SliceBackward0, SqueezeBackward0, SqueezeBackward1, SqueezeBackward4,
                              TBackward0, ToCopyBackward0, TransposeBackward0, UnsqueezeBackward0, ViewBackward0,
                              CopySlices)
# --- the ops of torch.nn and of d2l's chapters ---
from ..core.ops.join import CatBackward0, StackBackward0  # noqa: F401,E402
from ..core.ops.multi_output import SplitBackward0, SplitWithSizesBackward0, UnbindBackward0  # noqa: F401,E402
from .nn_ops import (AddmmBackward0, BinaryCrossEntropyBackward0, LogSoftmaxBackward0,  # noqa: F401,E402,E501
                     LeakyReluBackward0, LeakyReluBackward1, NllLossBackward0, SoftmaxBackward0)
from .random_ops import NormalBackward1, NormalBackward2, NormalBackward3  # noqa: F401,E402
from .selection import (MaskedFillBackward0, MaskedFillBackward1, MaximumBackward0, MinimumBackward0, RemainderBackward0,  # noqa: F401,E402,E501
                         RemainderBackward1)
from .stats import CumsumBackward0, ProdBackward0, ProdBackward1, StdBackward0, VarBackward0  # noqa: F401,E402
from .no_derivative import FloorDivide, FloorDivideScalar, RemainderScalarSelf  # noqa: F401,E402
from .hyperbolic import (AcoshBackward0, AcoshBackward1, AsinhBackward0, AsinhBackward1,  # noqa: F401,E402
                         AtanhBackward0, AtanhBackward1)
from .gelu import GeluBackward0, GeluBackwardBackward0  # noqa: F401,E402
from .pointwise import (AcosBackward0, AsinBackward0, AtanBackward0, CeilBackward0, CoshBackward0,  # noqa: F401,E402
                    ErfBackward0, Exp2Backward0, Expm1Backward0, FloorBackward0, FracBackward0, Log10Backward0,
                    Log1PBackward0, Log2Backward0, RoundBackward0, RsqrtBackward0, SignBackward0, SinhBackward0,
                    TanBackward0, TruncBackward0)
from .rearrange import (FlipBackward0, IndexAddBackward0, IndexSelectBackward0, MaskedSelectBackward0,  # noqa: F401,E402
                        RepeatBackward0, RollBackward0, TrilBackward0, TriuBackward0)
from .sorting import (KthvalueBackward0, MedianBackward0, MedianBackward1, SortBackward0,  # noqa: F401,E402
                      TopkBackward0)
from .diagonal import (DiagEmbedBackward0, DiagonalBackward0, DiagonalBackward0_copy,  # noqa: F401,E402
                       DiagonalBackwardBackward0, TraceBackward0)
from .stats import CumprodBackward0  # noqa: F401,E402
from .nn_ops import (LogSoftmaxBackwardDataBackward0, NllLossBackwardBackward0,  # noqa: F401,E402
                     SoftmaxBackwardDataBackward0)
from .norm_embedding import EmbeddingBackward0, EmbeddingDenseBackwardBackward0, NativeLayerNormBackward0  # noqa: F401,E402,E501
from .activations import (EluBackward0, EluBackward1, HardsigmoidBackward0, HardsigmoidBackwardNoDerivative,  # noqa: F401,E402,E501
                          EluBackwardBackward0, HardtanhBackward0, HardtanhBackwardBackward0, SiluBackward0,
                          SoftplusBackward0, SoftplusBackwardBackward0)
from .padding import ConstantPadNdBackward0  # noqa: F401,E402
# --- gather, scatter, take, lerp, addcmul, ... (the ops a learner reaches for next) ---
from . import gather_scatter  # noqa: F401,E402
from .gather_scatter import (GatherBackward0, PutBackward0, ScatterAddBackward0, ScatterBackward1,  # noqa: F401,E402
                             TakeBackward0)
from . import ternary  # noqa: F401,E402
from .ternary import AddcdivBackward0, AddcmulBackward0, LerpBackward0, LerpBackward1  # noqa: F401,E402
from . import clamp_fmod  # noqa: F401,E402
from .clamp_fmod import (ClampMaxBackward0, ClampMaxBackward1, ClampMinBackward0, ClampMinBackward1,  # noqa: F401,E402
                         FmaxBackward0, FminBackward0, FmodBackward0, FmodBackward1)
# --- convolution and pooling (d2l chapter 6) ---
from . import conv  # noqa: F401,E402
from .conv import ConvolutionBackward0  # noqa: F401,E402
from . import pooling  # noqa: F401,E402
from .pooling import AdaptiveAvgPool2DBackward0, AvgPool2DBackward0, MaxPool2DWithIndicesBackward0  # noqa: F401,E402
# --- BatchNorm and the losses of d2l chapters 5 and 7 ---
from .batch_norm import NativeBatchNormBackward0  # noqa: F401,E402
from .loss import (HuberLossBackward0, HuberLossBackwardBackward0, SmoothL1LossBackward0,  # noqa: F401,E402
                   SmoothL1LossBackwardBackward0)
from .xlogy import XlogyBackward0  # noqa: F401,E402
from .rounding_modes import DivBackward2, DivBackward3, LogcumsumexpBackward0, RoundBackward1  # noqa: F401,E402
from .bernoulli import BernoulliBackward0, BernoulliBackward1  # noqa: F401,E402
from .unique import Unique2Backward0, UniqueConsecutiveBackward0, UniqueDimBackward0  # noqa: F401,E402
from .linalg_inverse import LinalgCholeskyExBackward0, LinalgInvExBackward0, LinalgSolveExBackward0  # noqa: F401,E402
from . import linalg_decompositions  # noqa: F401,E402  (eigh, svd, det, slogdet, pinv)
from .erfinv import ErfinvBackward0  # noqa: F401,E402
from . import gamma_functions  # noqa: F401,E402  (lgamma, digamma, polygamma)
# --- 1-D and adaptive max pooling, GroupNorm, interpolate (nn.functional_layers) ---
from . import adaptive_max_pool  # noqa: F401,E402
from .adaptive_max_pool import AdaptiveMaxPool2DBackward0  # noqa: F401,E402
from .group_norm import NativeGroupNormBackward0  # noqa: F401,E402
from .upsample import (UpsampleBilinear2DBackward0, UpsampleLinear1DBackward0,  # noqa: F401,E402
                       UpsampleNearest1DBackward0, UpsampleNearest2DBackward0)
from . import nll_loss2d  # noqa: F401,E402
from .nll_loss2d import NllLoss2DBackward0, NllLoss2DBackwardBackward0  # noqa: F401,E402
from . import nan_to_num  # noqa: F401,E402
from . import fast_paths  # noqa: F401,E402  (the usual case of the hottest ops' apply, written straight)
