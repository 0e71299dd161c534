"""torch.nn: Module and Parameter, layers, activations, losses, init."""
from . import functional, init  # noqa: F401
from .modules import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, Dropout, Flatten, GELU,  # noqa: F401
                      Identity, L1Loss, LeakyReLU, Linear, LogSoftmax, Module, ModuleList, MSELoss, NLLLoss,
                      ReLU, Sequential, Sigmoid, Softmax, Tanh)
from .parameter import Parameter  # noqa: F401
from . import utils  # noqa: F401  (torch.nn.utils: clip_grad_norm_, parameters_to_vector)
from .modules.normalization import LayerNorm  # noqa: F401,E402
from .modules.sparse import Embedding  # noqa: F401,E402
from .modules.activation import ELU, Hardsigmoid, Hardtanh, ReLU6, SELU, SiLU, Softplus  # noqa: F401,E402
from .modules.conv import Conv1d, Conv2d  # noqa: F401,E402
from .modules.pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d  # noqa: F401,E402
from .modules.batchnorm import BatchNorm1d, BatchNorm2d  # noqa: F401,E402
from .modules.loss import HuberLoss, KLDivLoss, SmoothL1Loss  # noqa: F401,E402
from .modules.container import ModuleDict, ParameterDict, ParameterList  # noqa: F401,E402
from .modules.flatten import Unflatten  # noqa: F401,E402
from .modules.rnn import GRU, GRUCell, LSTM, LSTMCell, RNN, RNNBase, RNNCell, RNNCellBase  # noqa: F401,E402
from .modules.pooling import (AdaptiveAvgPool1d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AvgPool1d,  # noqa: F401,E402
                              MaxPool1d)
from .modules.normalization import GroupNorm  # noqa: F401,E402
from .modules.upsampling import Upsample  # noqa: F401,E402
from .modules.conv import ConvTranspose2d  # noqa: F401,E402
