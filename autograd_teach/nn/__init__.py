"""torch.nn: just what the autograd tutorials use."""
from . import functional  # noqa: F401


class MSELoss:
    """loss = MSELoss(); loss(prediction, target) -> mean squared error."""

    def __init__(self, reduction="mean"):
        self.reduction = reduction

    def __call__(self, input, target):
        return functional.mse_loss(input, target, reduction=self.reduction)

    forward = __call__

    def __repr__(self):
        return "MSELoss()"
