"""nn.Embedding: a table of embedding_dim-long rows, looked up by index."""
from ...compat.creation import empty
from ...compat.device import check as check_device
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


class Embedding(Module):
    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, device=None, dtype=None, _weight=None,
                 _freeze=False):
        check_device(device)
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = padding_idx % num_embeddings      # -1: the last row
        self.padding_idx = padding_idx
        if _weight is not None:      # from_pretrained: the given table itself, not initialised
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)
            return
        self.weight = Parameter(empty((num_embeddings, embedding_dim), dtype=dtype))
        self.reset_parameters()

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None, max_norm=None, norm_type=2.0,
                        scale_grad_by_freq=False, sparse=False):
        """An Embedding whose table is `embeddings` (shared, not copied), frozen
        unless freeze=False. Its padding row is left as given."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        if max_norm is not None or scale_grad_by_freq or sparse:
            raise NotImplementedError("autograd_teach: Embedding's max_norm, scale_grad_by_freq and sparse are not "
                                      "implemented")
        rows, cols = embeddings.shape
        return cls(rows, cols, padding_idx, _weight=embeddings, _freeze=freeze)

    def reset_parameters(self):
        """PyTorch's default: normal(0, 1) from the global generator, then the
        padding row set to zeros (it stays zero: it never gets a gradient)."""
        init.normal_(self.weight)
        if self.padding_idx is not None:
            init.zeros_(self.weight[self.padding_idx])

    def forward(self, input):
        return F.embedding(input, self.weight, self.padding_idx)

    def extra_repr(self):
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        return s if self.padding_idx is None else s + f", padding_idx={self.padding_idx}"
