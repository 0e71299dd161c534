"""numpy's argument names, which PyTorch accepts beside its own.

PyTorch's argument parser (torch/csrc/utils/python_arg_parser.cpp,
numpy_compatibility_arg_names) takes `axis` for `dim` and `keepdims` for
`keepdim` in every function that has those arguments, so numpy habits such as
`A.sum(axis=1, keepdims=True)` (d2l 2.3) work. Giving both spellings is
PyTorch's TypeError about the numpy one."""
import functools

ALIASES = {"axis": "dim", "keepdims": "keepdim"}


def numpy_names(method):
    """Wrap a method whose arguments are named `dim` / `keepdim` so it also
    takes `axis` / `keepdims`."""
    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        if "axis" in kwargs or "keepdims" in kwargs:
            for numpy_name, torch_name in ALIASES.items():
                if numpy_name in kwargs:
                    if torch_name in kwargs:
                        raise TypeError(f"{method.__name__}() got an unexpected keyword argument '{numpy_name}'")
                    kwargs[torch_name] = kwargs.pop(numpy_name)
        return method(*args, **kwargs)
    return wrapper
