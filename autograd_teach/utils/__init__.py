"""torch.utils: data (Dataset, TensorDataset, DataLoader) and checkpoint."""
from . import checkpoint, data  # noqa: F401
