"""parameters_to_vector and vector_to_parameters: a model's parameters as one
flat vector and back (for optimizers and tools that want a single vector)."""
from ...compat.more_functions import cat
from ...core.tensor import Tensor


def parameters_to_vector(parameters):
    """The parameters, flattened and concatenated (a differentiable cat of views)."""
    return cat([param.view(-1) for param in parameters])


def vector_to_parameters(vec, parameters):
    """Copy consecutive slices of vec into the parameters' .data."""
    if not isinstance(vec, Tensor):
        kind = type(vec)
        name = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
        raise TypeError(f"expected torch.Tensor, but got: {name}")
    pointer = 0
    for param in parameters:
        num_param = param.numel()
        param.data = vec[pointer:pointer + num_param].view_as(param).data
        pointer += num_param
