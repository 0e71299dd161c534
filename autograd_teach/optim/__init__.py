"""torch.optim: SGD, Adam, AdamW, NAdam, RAdam, Adamax, RMSprop, Adagrad, Adadelta, and lr_scheduler."""
from .adam import Adam, AdamW  # noqa: F401
from .adam_variants import Adamax, NAdam, RAdam  # noqa: F401
from .optimizer import Optimizer  # noqa: F401
from .sgd import SGD  # noqa: F401
from .rmsprop import Adadelta, Adagrad, RMSprop  # noqa: F401
from . import lr_scheduler  # noqa: F401
