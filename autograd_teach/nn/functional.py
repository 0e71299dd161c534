"""torch.nn.functional: the functional forms of the losses and activations."""
import warnings

from .. import ops as O


def mse_loss(input, target, reduction="mean"):
    if target.shape != input.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size "
                      f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
                      "Please ensure they have the same size.", UserWarning, stacklevel=2)
    return O.MseLossBackward0.apply(input, target, reduction)


def binary_cross_entropy_with_logits(input, target, reduction="mean"):
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    return O.BinaryCrossEntropyWithLogitsBackward0.apply(input, target, reduction)


def relu(input):
    return input.relu()


def sigmoid(input):
    return input.sigmoid()


def tanh(input):
    return input.tanh()
