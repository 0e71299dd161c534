"""torch.autograd.graph: the Node class every grad_fn is an instance of, and
hooks on saved tensors (saved_tensors_hooks, disable_saved_tensors_hooks,
save_on_cpu); see compat/saved_hooks.py for how they work."""
from ..core.node import Node  # noqa: F401
from ..compat.saved_hooks import disable_saved_tensors_hooks, saved_tensors_hooks  # noqa: F401


class save_on_cpu(saved_tensors_hooks):
    """PyTorch moves saved GPU tensors to the CPU (and back for backward) with
    this; here every tensor is on the CPU already, so it keeps a copy."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        super().__init__(lambda t: (t.device, t.detach().clone()), lambda packed: packed[1].to(packed[0]))
