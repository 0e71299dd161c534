"""nn.Unflatten: one dim of the input viewed as several (Flatten's inverse)."""
from .module import Module


class Unflatten(Module):
    def __init__(self, dim, unflattened_size):
        super().__init__()
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError(f"unflattened_size must be a tuple of ints, but found type "
                            f"{type(unflattened_size).__name__}")
        for idx, elem in enumerate(unflattened_size):
            if not isinstance(elem, int):
                raise TypeError(f"unflattened_size must be tuple of ints, but found element of type "
                                f"{type(elem).__name__} at pos {idx}")
        self.dim, self.unflattened_size = dim, unflattened_size

    def forward(self, input):
        """input.unflatten(dim, sizes): a view (ViewBackward0); one size may be -1."""
        dim = self.dim % input.dim() if input.dim() else 0
        sizes = list(self.unflattened_size)
        n = input.shape[dim]
        known = 1
        for s in sizes:
            known *= s if s != -1 else 1
        if -1 in sizes and known and n % known == 0:
            sizes[sizes.index(-1)] = n // known
        elif known != n or -1 in sizes:
            raise RuntimeError(f"unflatten: Provided sizes {list(self.unflattened_size)} don't multiply up to the "
                               f"size of dim {self.dim} ({n}) in the input tensor")
        return input.view(*input.shape[:dim], *sizes, *input.shape[dim + 1:])

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
