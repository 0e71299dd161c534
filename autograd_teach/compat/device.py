"""torch.device, and what a build without a GPU says when asked for one.

PyTorch's CPU-only build parses a device string ("cuda:0", "cpu") like any
other and refuses only when a tensor would be made there: "Torch not
compiled with CUDA enabled" (an AssertionError, raised by torch.cuda's lazy
initialisation). Code written for both (`device = 'cuda' if
torch.cuda.is_available() else 'cpu'`) runs on the CPU."""

TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia", "xla",
         "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")
NO_ACCELERATOR = "Cannot access accelerator device when none is available."


class device:
    """device("cpu"), device("cuda:0"), device("cuda", 0): a type and an optional index."""

    def __init__(self, type="cpu", index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, int) and not isinstance(type, bool):   # an index alone: the accelerator's
            raise RuntimeError(NO_ACCELERATOR)
        else:
            given = type
            type, colon, number = given.partition(":")
            if type not in TYPES:
                raise RuntimeError(f"Expected one of {', '.join(TYPES)} device type at start of device string: "
                                   f"{type}")
            if colon and not number.isdigit():
                raise RuntimeError(f"Invalid device string: '{given}'")
            index = int(number) if colon else index
        self.type, self.index = type, index

    def __repr__(self):
        index = "" if self.index is None else f", index={self.index}"
        return f"device(type='{self.type}'{index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))


def check(where):
    """A tensor is to be made on device `where` (None: the default, the CPU):
    only the CPU is there, and PyTorch's CPU build says so as here."""
    if where is None:
        return
    where = device(where)
    if where.type == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    if where.type == "xpu":
        raise AssertionError("Torch not compiled with XPU enabled")
    if where.type == "mps":
        raise RuntimeError("PyTorch is not linked with support for mps devices")
    if where.type != "cpu":
        raise NotImplementedError(f"autograd_teach: tensors live on the CPU only, not on '{where.type}'")
