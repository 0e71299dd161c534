"""torch.cuda, as on a machine without a GPU: code written for both
(`device = 'cuda' if torch.cuda.is_available() else 'cpu'`) runs on the CPU."""


def is_available():
    return False


def device_count():
    return 0
