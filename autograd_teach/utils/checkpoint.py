"""torch.utils.checkpoint: trade compute for memory.

    y = checkpoint(block, x, use_reentrant=False)

runs block as usual, so the graph has its usual nodes (MulBackward0, ...),
but the nodes keep none of what they saved for backward: each keeps a
ticket instead (a saved_tensors_hooks pack hook, autograd/graph.py). When
backward first asks for a saved tensor, block runs again (its forward,
recorded, with the random state it had), and every ticket is redeemed with
what that rerun saved, in the same order. Memory holds one block's tensors
at a time, at the cost of a second forward.

use_reentrant=True is PyTorch's older variant: block runs under no_grad, as
one custom Function (CheckpointFunctionBackward), whose backward reruns it
and calls backward inside backward. Without use_reentrant, PyTorch 2.13 warns
and takes that one.
"""
import warnings

from ..autograd.function import Function
from ..autograd.functional import backward as autograd_backward
from ..compat import generator
from ..core import grad_mode
from ..compat.saved_hooks import saved_tensors_hooks
from ..core.tensor import Tensor

REENTRANT_DEFAULT = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting in PyTorch 2.9, "
    "calling checkpoint without use_reentrant will raise an exception. use_reentrant=False is recommended, but if "
    "you need to preserve the current default behavior, you can pass use_reentrant=True. Refer to docs for more "
    "details on the differences between the two variants.")
SEQUENTIAL_REENTRANT_DEFAULT = (
    "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be passed explicitly. In "
    "version 2.9 we will raise an exception if use_reentrant is not passed. use_reentrant=False is recommended, but "
    "if you need to preserve the current default behavior, you can pass use_reentrant=True. Refer to docs for more "
    "details on the differences between the two variants.")
DEBUG_TIP = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint\u2011debug mode globally."""


class CheckpointError(RuntimeError):
    pass


def checkpoint(function, *args, use_reentrant=None, context_fn=None, determinism_check="default", debug=False,
               **kwargs):
    """function(*args, **kwargs), with its saved tensors recomputed in backward."""
    if use_reentrant is None:
        warnings.warn(REENTRANT_DEFAULT, UserWarning, stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if not any(isinstance(a, Tensor) and a.requires_grad for a in args):
            warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", stacklevel=2)
        return CheckpointFunction.apply(function, preserve, *args)
    if not grad_mode.is_grad_enabled():
        return function(*args, **kwargs)
    frame = _Frame(function, args, kwargs, generator.get_rng_state() if preserve else None)
    with saved_tensors_hooks(frame.pack, frame.unpack):
        return function(*args, **kwargs)


class _Frame:
    """One checkpointed call: a ticket per saved tensor, redeemed after a rerun."""

    def __init__(self, function, args, kwargs, rng_state):
        self.function, self.args, self.kwargs, self.rng_state = function, args, kwargs, rng_state
        self.metadata = []          # shape and dtype of each saved tensor, to check the rerun against
        self.recomputed = None

    def pack(self, t):
        self.metadata.append(_metadata(t))
        return len(self.metadata) - 1

    def unpack(self, ticket):
        if self.recomputed is None:
            self.recompute()
        return self.recomputed[ticket]

    def recompute(self):
        saved = []

        def keep(t):
            saved.append(t)
            return t
        before = generator.get_rng_state()
        if self.rng_state is not None:
            generator.set_rng_state(self.rng_state)
        try:
            with grad_mode.enable_grad(), saved_tensors_hooks(keep, lambda t: t):
                self.function(*self.args, **self.kwargs)
        finally:
            generator.set_rng_state(before)
        self.check(saved)
        self.recomputed = saved

    def check(self, saved):
        """PyTorch's determinism check: the rerun saved the same tensors (count, shape, dtype)."""
        if len(saved) != len(self.metadata):
            raise CheckpointError("torch.utils.checkpoint: A different number of tensors was saved during the "
                                  "original forward and recomputation.\n"
                                  f"Number of tensors saved during forward: {len(self.metadata)}\n"
                                  f"Number of tensors saved during recomputation: {len(saved)}.\n{DEBUG_TIP}")
        different = [(k, m, _metadata(t)) for k, (m, t) in enumerate(zip(self.metadata, saved)) if m != _metadata(t)]
        if different:
            lines = "".join(f"tensor at position {k}:\nsaved metadata: {m}\nrecomputed metadata: {r}\n"
                            for k, m, r in different)
            raise CheckpointError("torch.utils.checkpoint: Recomputed values for the following tensors have "
                                  f"different metadata than during the forward pass.\n{lines}.\n{DEBUG_TIP}")


def _metadata(t):
    return {"shape": t.shape, "dtype": t.dtype, "device": t.device}


class CheckpointFunction(Function):
    """use_reentrant=True: the block as one node, rerun inside its backward."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        ctx.run_function = run_function
        ctx.rng_state = generator.get_rng_state() if preserve_rng_state else None
        ctx.tensor_positions = [k for k, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.inputs = list(args)
        ctx.save_for_backward(*[a for a in args if isinstance(a, Tensor)])
        return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        inputs = list(ctx.inputs)
        for k, t in zip(ctx.tensor_positions, ctx.saved_tensors):
            inputs[k] = t.detach().requires_grad_(ctx.needs_input_grad[k + 2])   # after run_function, preserve
        before = generator.get_rng_state()
        if ctx.rng_state is not None:
            generator.set_rng_state(ctx.rng_state)
        try:
            with grad_mode.enable_grad():
                outputs = ctx.run_function(*inputs)
        finally:
            generator.set_rng_state(before)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        pairs = [(o, g) for o, g in zip(outputs, grads) if isinstance(o, Tensor) and o.requires_grad]
        if pairs:
            autograd_backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None) + tuple(x.grad if isinstance(x, Tensor) else None for x in inputs)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """A Sequential (or list of modules) cut into `segments` pieces, each
    checkpointed but the last."""
    if use_reentrant is None:
        warnings.warn(SEQUENTIAL_REENTRANT_DEFAULT,
                      UserWarning, stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    functions = list(functions.children()) if hasattr(functions, "children") else list(functions)

    def run(start, end):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    size, end = len(functions) // segments, -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant, preserve_rng_state=preserve)
    return run(end + 1, len(functions) - 1)(input)
