"""torch.utils.data: datasets, samplers and the DataLoader that batches them."""
from .dataloader import DataLoader, default_collate, get_worker_info  # noqa: F401
from .dataset import Dataset, Subset, TensorDataset, random_split  # noqa: F401
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler  # noqa: F401
