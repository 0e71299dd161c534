"""torch.nn: Module and Parameter, layers, activations, losses, init."""
from . import functional, init  # noqa: F401
from .modules import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, Flatten, Identity, L1Loss,  # noqa: F401
                      Linear, LogSoftmax, Module, MSELoss, NLLLoss, ReLU, Sequential, Sigmoid, Softmax, Tanh)
from .parameter import Parameter  # noqa: F401
