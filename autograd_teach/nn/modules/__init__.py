from .activation import Dropout, Flatten, GELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, Softmax, Tanh  # noqa: F401
from .container import ModuleList, Sequential  # noqa: F401
from .linear import Identity, Linear  # noqa: F401
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss  # noqa: F401
from .module import Module  # noqa: F401
