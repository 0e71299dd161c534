"""PyTorch's errors for Python data torch.tensor cannot make a tensor of.

numpy would say "setting an array element with a sequence. The requested
array has an inhomogeneous shape..." or make an array of objects; PyTorch
reads the nesting the way this does (torch/csrc/utils/tensor_new.cpp): the
shape from the first element at each depth, then every element checked
against it. infer_array calls this only when numpy could not make a plain
array of numbers, so the usual case pays nothing."""

NUMBERS = (bool, int, float)


def check_nested(data):
    """Raise PyTorch's error for data (nested lists and tuples of numbers)."""
    sizes, seq = [], data
    while isinstance(seq, (list, tuple)):
        sizes.append(len(seq))
        if not seq:
            break
        seq = seq[0]
    _check_kinds(data)
    _check_shape(data, sizes, 0)


def _check_kinds(data):
    """PyTorch infers the dtype from every element first: a string, None or
    another object is refused before the shape is looked at."""
    stack = [data]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(v)
        elif isinstance(v, str):
            raise TypeError("new(): invalid data type 'str'") if v is data else ValueError(
                "too many dimensions 'str'")
        elif not (isinstance(v, NUMBERS) or hasattr(v, "_data") or hasattr(v, "dtype")):
            raise RuntimeError(f"Could not infer dtype of {type(v).__name__}")


def _check_shape(obj, sizes, dim):
    if dim == len(sizes):
        if isinstance(obj, (list, tuple)):
            raise TypeError(f"'{type(obj).__name__}' object cannot be interpreted as an integer")
        if hasattr(obj, "_data") and obj._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return
    if not isinstance(obj, (list, tuple)):
        raise TypeError("not a sequence")
    if len(obj) != sizes[dim]:
        raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(obj)})")
    for item in obj:
        _check_shape(item, sizes, dim + 1)
