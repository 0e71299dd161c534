"""torch.utils: just data (Dataset, TensorDataset, DataLoader)."""
from . import data  # noqa: F401
