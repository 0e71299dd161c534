"""torch.cuda on a machine without a GPU: what d2l's try_gpu asks (5.6).

autograd_teach computes on the CPU only, so there is never a CUDA device."""


def is_available():
    return False


def device_count():
    return 0
