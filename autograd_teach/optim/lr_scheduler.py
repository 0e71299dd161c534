"""torch.optim.lr_scheduler: change each param_group's "lr" as training goes.

How a scheduler works (the base class, the chainable form, the check of the
call order) is in scheduler.py; the schedules are in
schedules.py (by the epoch: StepLR, CosineAnnealingLR...),
cyclic_schedules.py (up and down: CyclicLR, OneCycleLR, warm restarts),
plateau.py (by a metric: ReduceLROnPlateau) and
combined_schedules.py (SequentialLR, ChainedScheduler)."""
from .combined_schedules import ChainedScheduler, SequentialLR
from .cyclic_schedules import CosineAnnealingWarmRestarts, CyclicLR, OneCycleLR
from .plateau import ReduceLROnPlateau
from .scheduler import EPOCH_DEPRECATION_WARNING, LRScheduler, _LRScheduler  # noqa: F401
from .schedules import (ConstantLR, CosineAnnealingLR, ExponentialLR, LambdaLR, LinearLR, MultiplicativeLR,
                        MultiStepLR, PolynomialLR, StepLR)

__all__ = ["LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR", "ExponentialLR",
           "SequentialLR", "CosineAnnealingLR", "ChainedScheduler", "ReduceLROnPlateau", "CyclicLR",
           "CosineAnnealingWarmRestarts", "OneCycleLR", "PolynomialLR", "LRScheduler"]
