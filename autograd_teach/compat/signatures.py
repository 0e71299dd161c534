"""PyTorch's argument parser's TypeError for arguments that fit none of an
op's overloads (python_arg_parser.cpp), word for word.

x.add(np.ones(2)) is refused: a parameter typed Tensor takes a tensor (or, for
the arithmetic, a Python number), never a numpy array or a list. Only the
operators (x + array) let numpy compute (ops/methods.py's _operator).

The parser counts the overloads the call's number of arguments fits. One: it
names the argument that does not fit ("must be Tensor, not list"). Several: it
lists them all, and under each that takes exactly as many arguments as were
given, which ones did not fit (!marked!).
"""
import numpy as np

from .messages import type_name

# The overloads PyTorch shows, as it prints them; methods without self, functions with input.
_ADD = "(Tensor other, *, Number alpha = 1)"
_TENSOR_OR_NUMBER = ("(Tensor other)", "(Number other)")
_DIVIDE = ("(Tensor other)", "(Tensor other, *, str rounding_mode)", "(Number other)",
           "(Number other, *, str rounding_mode)")
_SUBTRACT = (_ADD, "(Number other, Number alpha = 1)")
METHODS = {
    "add": (_ADD,), "sub": (_ADD,), "mul": ("(Tensor other)",),
    "div": ("(Tensor other)", "(Tensor other, *, str rounding_mode)", "(Number other, *, str rounding_mode)"),
    "pow": ("(Tensor exponent)", "(Number exponent)"), "true_divide": _TENSOR_OR_NUMBER,
    "multiply": _TENSOR_OR_NUMBER, "subtract": _SUBTRACT, "divide": _DIVIDE,
    "clamp_min": ("(Tensor min)", "(Number min)"), "clamp_max": ("(Tensor max)", "(Number max)"),
}
METHODS.update(dict.fromkeys(("floor_divide", "remainder", "fmod", "eq", "ne", "lt", "le", "gt", "ge"),
                             _TENSOR_OR_NUMBER))
METHODS.update({name + "_": overloads for name, overloads in METHODS.items()})   # add_, pow_, ...
METHODS["copy_"] = ("(Tensor other, bool non_blocking = False)",)
_OUT = "Tensor out = None)"
FUNCTIONS = {
    "add": (f"(Tensor input, Tensor other, *, Number alpha = 1, {_OUT}",),
    "sub": (f"(Tensor input, Tensor other, *, Number alpha = 1, {_OUT}",),
    "mul": (f"(Tensor input, Tensor other, *, {_OUT}",),
    "div": (f"(Tensor input, Tensor other, *, {_OUT}", f"(Tensor input, Tensor other, *, str rounding_mode, {_OUT}",
            "(Tensor input, Number other, *, str rounding_mode)"),
    "pow": (f"(Tensor input, Tensor exponent, *, {_OUT}", f"(Number self, Tensor exponent, *, {_OUT}",
            f"(Tensor input, Number exponent, *, {_OUT}"),
    "true_divide": (f"(Tensor input, Tensor other, *, {_OUT}", "(Tensor input, Number other)"),
    "multiply": (f"(Tensor input, Tensor other, *, {_OUT}", "(Tensor input, Number other)"),
    "subtract": (f"(Tensor input, Tensor other, *, Number alpha = 1, {_OUT}",
                 "(Tensor input, Number other, Number alpha = 1)"),
    "divide": (f"(Tensor input, Tensor other, *, {_OUT}", f"(Tensor input, Tensor other, *, str rounding_mode, {_OUT}",
               "(Tensor input, Number other)", "(Tensor input, Number other, *, str rounding_mode)"),
}


def is_operand(value, tensor_type):
    """What the arithmetic's Tensor parameters take: a tensor or a Python or numpy number."""
    return isinstance(value, (tensor_type, int, float, np.number, np.bool_))


def checked(value, fn, tensor_type):
    """value, if it is a tensor or a number; else PyTorch's TypeError for x.fn(value)."""
    if isinstance(value, (tensor_type, int, float, np.number, np.bool_)):     # is_operand, a call the fewer
        return value
    raise invalid_arguments(fn, (value,), tensor_type)


def invalid_arguments(fn, args, tensor_type, function=False):
    """The TypeError for x.fn(*args) (torch.fn(*args) if function)."""
    signatures = (FUNCTIONS if function else METHODS)[fn]
    overloads = [_parameters(s) for s in signatures]
    fits = [p for p in overloads if sum(default is None for _, _, default in p) <= len(args) <= len(p)]
    if len(fits) == 1:
        for position, (value, (kind, name, _)) in enumerate(zip(args, fits[0]), 1):
            if not _fits(value, kind, tensor_type):
                return TypeError(f"{fn}(): argument '{name}' (position {position}) must be {kind}, "
                                 f"not {type_name(value)}")
    lines = [f"{fn}() received an invalid combination of arguments - got "
             f"({', '.join(type_name(a) for a in args)}), but expected one of:"]
    for text, parameters in zip(signatures, overloads):
        lines.append(f" * {text}")
        if len(parameters) == len(args):
            marked = ", ".join(_described(a) if _named(a, kind, tensor_type) else f"!{_described(a)}!"
                               for a, (kind, _, _) in zip(args, parameters))
            lines.append(f"      didn't match because some of the arguments have invalid types: ({marked})")
    return TypeError("\n".join(lines) + "\n")


def _parameters(signature):
    """'(Tensor other, *, Number alpha = 1)' -> [('Tensor', 'other', None), ('Number', 'alpha', '1')]"""
    out = []
    for part in signature[1:-1].split(", "):
        if part != "*":
            declaration, _, default = part.partition(" = ")
            kind, name = declaration.split(" ")
            out.append((kind, name, default or None))
    return out


def _fits(value, kind, tensor_type):
    if kind == "Tensor":
        return isinstance(value, tensor_type)
    return kind == "Number" and isinstance(value, (int, float, complex, np.number, np.bool_))


def _named(value, kind, tensor_type):
    """Whether the listing leaves value unmarked: it matches types by name, and
    no Python type is named Number (torch.true_divide(array, 2) marks the 2)."""
    return isinstance(value, tensor_type) if kind == "Tensor" else kind == type_name(value)


def _described(value):
    """A value as the parser describes it: a list with its elements' types."""
    if type(value) in (list, tuple):
        inner = ", ".join(type_name(v) for v in value)
        return f"list of [{inner}]" if type(value) is list else f"tuple of ({inner})"
    return type_name(value)
