"""torch.func: derivatives as functions (JAX-style transforms) that compose.

    grad(f)(x)            df/dx for an f with one output element
    grad_and_value(f)(x)  (df/dx, f(x))
    vjp(f, x)             (f(x), a function v -> vᵀ·J), reverse mode
    jvp(f, (x,), (v,))    (f(x), J·v), forward mode (dual numbers, dual.py)
    vmap(f)(xs)           f on each slice of a batch dim, results stacked
    jacrev, jacfwd        the whole Jacobian, row by row (vjp) or column by column (jvp)
    hessian               jacfwd(jacrev(f))

They compose because each is built from the autograd of this package: grad
differentiates with create_graph=True, so its result is a graph that an outer
grad differentiates again (grad(grad(f))), and jvp opens a forward-mode level
of its own, so levels nest. In PyTorch (functorch) each transform wraps the
tensors of a level instead; the values are the same.

vmap here is a loop: it calls f once per slice of the batch dim and stacks
the results, where PyTorch runs f once on batched tensors. Values, in_dims
and out_dims, and the errors for mismatched inputs are PyTorch's; what a loop
cannot see is not checked (PyTorch refuses .item() and random ops inside
vmap; here they run, once per slice).
"""
import contextlib
import threading
import weakref

import numpy as np

from .autograd.forward_ad import make_dual_at, unpack_dual_at
from .autograd.functional import grad as autograd_grad
from .compat.more_functions import stack
from .core import grad_mode
from .forward_mode import dual
from .core.tensor import Tensor

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "vmap", "jacrev", "jacfwd", "hessian"]


# -- trees of tensors: args and outputs may be tuples, lists and dicts of tensors ------------

def tree_flatten(tree):
    """(leaves, spec): the leaves in order, and how to put them back."""
    if isinstance(tree, (tuple, list)):
        pairs = [tree_flatten(x) for x in tree]
        return [leaf for leaves, _ in pairs for leaf in leaves], (type(tree), None, [s for _, s in pairs])
    if isinstance(tree, dict):
        pairs = [tree_flatten(v) for v in tree.values()]
        return [leaf for leaves, _ in pairs for leaf in leaves], (dict, list(tree), [s for _, s in pairs])
    return [tree], None


def tree_unflatten(leaves, spec):
    leaves = iter(leaves)

    def build(s):
        if s is None:
            return next(leaves)
        kind, keys, children = s
        values = [build(c) for c in children]
        return dict(zip(keys, values)) if kind is dict else kind(values)
    return build(spec)


def spec_repr(spec):
    """As PyTorch's pytree prints a TreeSpec (for the messages)."""
    if spec is None:
        return "*"
    kind, keys, children = spec
    inner = ",\n  ".join(spec_repr(c) for c in children)
    return f"TreeSpec({kind.__name__}, {keys}, [{inner}])"


def _broadcast_dims(dims, tree):
    """in_dims / out_dims: one per leaf, an int or None applying to a whole subtree."""
    if dims is None or isinstance(dims, int):
        return [dims] * len(tree_flatten(tree)[0])
    if isinstance(tree, (tuple, list)) and isinstance(dims, (tuple, list)) and len(dims) == len(tree):
        return [d for sub_dims, sub in zip(dims, tree) for d in _broadcast_dims(sub_dims, sub)]
    if isinstance(tree, dict) and isinstance(dims, dict) and dims.keys() == tree.keys():
        return [d for k in tree for d in _broadcast_dims(dims[k], tree[k])]
    raise _Mismatch()


class _Mismatch(Exception):
    pass


# -- grad, grad_and_value, vjp: reverse mode ---------------------------------------------------

def _differentiable(x):
    """A tensor to differentiate with respect to: a view of x if x already
    requires grad (so an outer grad sees through it), else a new leaf."""
    if not isinstance(x, Tensor):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
    if not x.is_floating_point():
        raise RuntimeError("only Tensors of floating point dtype can require gradients")
    return x.view_as(x) if x.requires_grad else _made_here(_detach(x).requires_grad_())


def _detach(t):
    """t without history, with its tangents: an inner grad of an outer jvp
    (jacfwd(jacrev(f))) differentiates a dual tensor, and returns one."""
    out = t.detach()
    if dual.levels:
        dual.copy_tangents(t, out)
    return out


# The leaves the transforms made (id -> weak ref), and per thread those of the
# transforms still running: a result keeps its graph only to leaves of these.
_made = {}
_local = threading.local()


def _made_here(leaf):
    key = id(leaf)
    _made[key] = weakref.ref(leaf, lambda ref: _made.get(key) is ref and _made.pop(key))
    return leaf


@contextlib.contextmanager
def _running(own):
    """While a transform runs, an inner one keeps its results' graphs to own."""
    stack_ = _local.__dict__.setdefault("running", [])
    stack_.append({id(x) for x in own})
    try:
        yield
    finally:
        stack_.pop()


def _outer(t, own=()):
    """Keep t's graph only if it reaches a tensor that requires grad outside
    this transform (a running outer grad's input, a model's parameter):
    otherwise a tensor without history, as PyTorch returns it."""
    if not isinstance(t, Tensor) or t.grad_fn is None:
        return t
    stack_, seen = [t.grad_fn], set()
    running = set().union(*getattr(_local, "running", [set()]))
    while stack_:
        node = stack_.pop()
        variable = getattr(node, "variable", None)
        if variable is not None and (id(variable) not in _made or id(variable) in running):
            return t
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                stack_.append(nxt)
    return _detach(t)


def _argnums(argnums, args):
    nums = argnums if isinstance(argnums, tuple) else (argnums,)
    for n in nums:
        if not isinstance(n, int):
            raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(n)}")
        if not -len(args) <= n < len(args):
            raise RuntimeError(f"Got argnum={n}, but only {len(args)} positional inputs")
    return nums


def _leaves_of(args, nums):
    """The tensors of args[nums] made differentiable; the new args."""
    args, own = list(args), []
    for n in nums:
        leaves, spec = tree_flatten(args[n])
        leaves = [_differentiable(x) for x in leaves]
        own.extend(leaves)
        args[n] = tree_unflatten(leaves, spec)
    return args, own


def _call_on_leaves(func, args, kwargs, nums, has_aux, where):
    """func run on fresh leaves for args[nums]: (new args, those leaves, output, aux)."""
    new_args, own = _leaves_of(args, nums)
    with _running(own):
        output = func(*new_args, **kwargs)
    output, aux = _split_aux(output, has_aux, where)
    return new_args, own, output, aux


def grad_and_value(func, argnums=0, has_aux=False):
    """(gradient of func w.r.t. args[argnums], func's value). func returns one
    scalar Tensor (or (scalar, aux) with has_aux=True)."""
    def wrapper(*args, **kwargs):
        nums = _argnums(argnums, args)
        with grad_mode.enable_grad():
            new_args, own, output, aux = _call_on_leaves(func, args, kwargs, nums, has_aux,
                                                         "grad_and_value(f)(*args)")
            if not isinstance(output, Tensor):
                raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got "
                                   f"{type(output)}")
            if output.dim() != 0:
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                                   f"tensor with {output.dim()} dims. Maybe you wanted to use the vjp or jacrev "
                                   "APIs instead?")
            grads = _gradients(output, own, None)
        grads = [_outer(g, own) for g in grads]
        grads = _regroup(grads, new_args, nums, argnums)
        value = _outer(output, own)
        return (grads, (value, _tree_outer(aux, own))) if has_aux else (grads, value)
    return wrapper


def grad(func, argnums=0, has_aux=False):
    """The gradient of func w.r.t. args[argnums] (a function of the same arguments)."""
    def wrapper(*args, **kwargs):
        grads, value = grad_and_value(func, argnums, has_aux)(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads
    return wrapper


def _split_aux(output, has_aux, where):
    if not has_aux:
        return output, None
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(f"{where}: output of function f should be a tuple: (output, aux) if has_aux is True")
    return output


def _tree_outer(tree, own):
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([_outer(x, own) for x in leaves], spec)


def _gradients(outputs, own, cotangents):
    """d outputs / d own (zeros where unused), as a graph (create_graph): an
    outer transform may differentiate it again."""
    grads = autograd_grad(outputs, own, cotangents, retain_graph=True, create_graph=True, allow_unused=True)
    return [g if g is not None else x.detach().new_zeros(x.shape) for g, x in zip(grads, own)]


def _regroup(grads, args, nums, argnums):
    """One gradient per leaf, back in the shape of args[argnums]."""
    grads, out = iter(grads), []
    for n in nums:
        leaves, spec = tree_flatten(args[n])
        out.append(tree_unflatten([next(grads) for _ in leaves], spec))
    return tuple(out) if isinstance(argnums, tuple) else out[0]


def vjp(func, *primals, has_aux=False):
    """(func(*primals), vjp_fn): vjp_fn(v) is vᵀ·J, one gradient per primal;
    it may be called many times."""
    with grad_mode.enable_grad():
        args, own = _leaves_of(primals, range(len(primals)))
        with _running(own):
            output = func(*args)
        output, aux = _split_aux(output, has_aux, "vjp(f, *primals)")
    out_leaves, out_spec = tree_flatten(output)
    for o in out_leaves:
        if not isinstance(o, Tensor):
            raise RuntimeError(f"vjp(f, *primals): Expected f to be a function that has only Tensors as output, "
                               f"got {type(o)}")

    def vjp_fn(cotangents):
        leaves, spec = tree_flatten(cotangents)
        if spec != out_spec:
            raise RuntimeError("Expected pytree structure of cotangents to be the same as pytree structure of "
                               f"outputs to the function. cotangents: {spec_repr(spec)}, "
                               f"primal output: {spec_repr(out_spec)}")
        with grad_mode.enable_grad():
            grads = _gradients(out_leaves, own, leaves)
        return tuple(_regroup([_outer(g, own) for g in grads], args, range(len(args)), tuple(range(len(args)))))

    result = tree_unflatten([_outer(o, own) for o in out_leaves], out_spec)
    return (result, vjp_fn, _tree_outer(aux, own)) if has_aux else (result, vjp_fn)


# -- jvp: forward mode ---------------------------------------------------------------------

def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """(func(*primals), J·tangents) in one forward pass on dual tensors, at a
    forward-mode level of its own (so jvp of jvp nests)."""
    if not isinstance(primals, tuple):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals to be a tuple. E.g. it should be valid to "
                           "call f(*primals).")
    flat_p, spec_p = tree_flatten(primals)
    flat_t, spec_t = tree_flatten(tangents)
    if spec_p != spec_t:
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the same python "
                           f"structure. For example, if primals is a tuple of 3 tensors, tangents also must be. Got "
                           f"primals with structure {spec_repr(spec_p)} and tangents with structure "
                           f"{spec_repr(spec_t)}")
    level = dual.enter_level(nested_ok=True)
    try:
        duals = [make_dual_at(level, p, t) for p, t in zip(flat_p, flat_t)]
        output = func(*tree_unflatten(duals, spec_p))
        output, aux = _split_aux(output, has_aux, "jvp(f, primals, tangents)")
        flat_out, spec_out = tree_flatten(output)
        for o in flat_out:
            if not isinstance(o, Tensor):
                raise RuntimeError("jvp(f, primals, tangents): expected f(*primals) to return only tensors, got "
                                   f"unsupported type {type(o)}")
        pairs = [unpack_dual_at(level, o) for o in flat_out]
        outs = tree_unflatten([p for p, _ in pairs], spec_out)
        outs_t = tree_unflatten([t if t is not None else o.detach().new_zeros(o.shape)
                                 for (_, t), o in zip(pairs, flat_out)], spec_out)
    finally:
        dual.exit_level(level)
    return (outs, outs_t, aux) if has_aux else (outs, outs_t)


# -- vmap: a loop over the batch dim ----------------------------------------------------------

def _name(func):
    return getattr(func, "__name__", repr(func))


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """func over each slice of the inputs' dim in_dims, its outputs stacked at
    out_dims. Here a loop over the batch: one call of func per slice (see the
    module docstring); PyTorch calls it once on batched tensors."""
    if chunk_size is not None and chunk_size <= 0:
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    def wrapper(*args, **kwargs):
        size, flat_dims, flat_args, spec = _batched_inputs(func, in_dims, args)
        results = []
        for b in range(size):
            sliced = [x if d is None else x.select(d, b) for x, d in zip(flat_args, flat_dims)]
            results.append(func(*tree_unflatten(sliced, spec), **kwargs))
        return _stacked(func, results, out_dims)
    return wrapper


def _batched_inputs(func, in_dims, args):
    """PyTorch's checks of the inputs, then (batch size, one in_dim per leaf, leaves, spec)."""
    where = f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>)"
    if not isinstance(in_dims, (int, tuple)):
        raise ValueError(f"{where}: expected `in_dims` to be int or a (potentially nested) tuple matching the "
                         f"structure of inputs, got: {type(in_dims)}.")
    if not args:
        raise ValueError(f"vmap({_name(func)})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are "
                         "trying to vmap over a function with no inputs. The latter is unsupported.")
    flat_args, spec = tree_flatten(args)
    try:
        flat_dims = _broadcast_dims(in_dims, args)
    except _Mismatch:
        raise ValueError(f"{where}: in_dims is not compatible with the structure of `inputs`. in_dims has structure "
                         f"{spec_repr(tree_flatten(in_dims)[1])} but inputs has structure {spec_repr(spec)}.") from None
    for i, (x, d) in enumerate(zip(flat_args, flat_dims)):
        if d is None:
            continue
        if not isinstance(d, int):
            raise ValueError(f"{where}: Got in_dim={d} for an input but in_dim must be either an integer dimension "
                             "or None.")
        if not isinstance(x, Tensor):
            raise ValueError(f"{where}: Got in_dim={d} for an input but the input is of type {type(x)}. We cannot "
                             "vmap over non-Tensor arguments, please use None as the respective in_dim")
        if not -x.dim() <= d < x.dim():
            raise ValueError(f"{where}: Got in_dim={d} for some input, but that input is a Tensor of dimensionality "
                             f"{x.dim()} so expected in_dim to satisfy -{x.dim()} <= in_dim < {x.dim()}.")
        flat_dims[i] = d % x.dim()
    sizes = [x.shape[d] for x, d in zip(flat_args, flat_dims) if d is not None]
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(s != sizes[0] for s in sizes):
        raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                         f"{sizes} for the mapped dimension")
    if sizes[0] == 0:
        raise ValueError("autograd_teach: vmap is a loop over the batch, and a batch of size 0 gives it no slice "
                         "to learn the output's shape from")
    return sizes[0], flat_dims, flat_args, spec


def _stacked(func, results, out_dims):
    """The per-slice outputs stacked at out_dims (None: not batched, the first is kept)."""
    flat, spec = tree_flatten(results[0])
    if isinstance(results[0], Tensor):
        dims = list(out_dims) if isinstance(out_dims, tuple) and len(out_dims) == 1 else [out_dims]
        ok = isinstance(out_dims, int) or out_dims is None or len(dims) == 1 and not isinstance(out_dims, list)
    else:
        try:
            dims, ok = _broadcast_dims(out_dims, results[0]), True
        except _Mismatch:
            ok = False
    if not ok:
        raise ValueError(f"vmap({_name(func)}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible with "
                         f"the structure of `outputs`. out_dims has structure {spec_repr(tree_flatten(out_dims)[1])} "
                         f"but outputs has structure {spec_repr(spec)}.")
    columns = zip(*(tree_flatten(r)[0] for r in results))
    out = []
    for column, d in zip(columns, dims):
        if d is None:
            out.append(column[0])
            continue
        if not isinstance(column[0], Tensor):
            raise ValueError(f"vmap({_name(func)}, ...): `{_name(func)}` must only return Tensors, got type "
                             f"{type(column[0])}. Did you mean to set out_dims= to None for output?")
        out.append(stack(list(column), dim=d))
    return tree_unflatten(out, spec)


# -- whole Jacobians ---------------------------------------------------------------------------

def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None):
    """The Jacobian d func / d args[argnums], one row per output element (a vjp each)."""
    def wrapper(*args, **kwargs):
        nums = _argnums(argnums, args)
        with grad_mode.enable_grad():
            new_args, own, output, aux = _call_on_leaves(func, args, kwargs, nums, has_aux,
                                                         "jacrev(f, ...)(*args)")
            flat_out, spec_out = tree_flatten(output)
            per_output = [_rows(o, own) for o in flat_out]
        jacs = [_regroup([_outer(j, own) for j in jac], new_args, nums, argnums) for jac in per_output]
        result = tree_unflatten(jacs, spec_out)
        return (result, _tree_outer(aux, own)) if has_aux else result
    return wrapper


def _rows(out, own):
    """d out / d each of own, of shape out.shape + x.shape: a backward per element of out."""
    rows = []
    for j in range(out.numel()):
        onehot = np.zeros(out.numel(), dtype=out._data.dtype)
        onehot[j] = 1
        rows.append(_gradients([out], own, [Tensor._wrap(onehot.reshape(out._data.shape))]))
    return [stack([r[i] for r in rows]).reshape(tuple(out.shape) + tuple(x.shape)) if rows
            else x.detach().new_zeros(tuple(out.shape) + tuple(x.shape)) for i, x in enumerate(own)]


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The Jacobian d func / d args[argnums], one column per input element (a jvp each)."""
    def wrapper(*args, **kwargs):
        nums = _argnums(argnums, args)
        xs = [x for n in nums for x in tree_flatten(args[n])[0]]

        def of_leaves(*leaves):
            leaves, new_args = iter(leaves), list(args)
            for n in nums:
                flat, spec = tree_flatten(args[n])
                new_args[n] = tree_unflatten([next(leaves) for _ in flat], spec)
            return func(*new_args, **kwargs)

        columns, aux, spec_out, flat_out = [], None, None, None
        for i, x in enumerate(xs):
            columns.append([])
            for j in range(x.numel()):
                basis = [x_.detach().new_zeros(x_.shape) for x_ in xs]
                basis[i].view(-1)[j] = 1
                out, out_t, *rest = jvp(of_leaves, tuple(xs), tuple(basis), has_aux=has_aux)
                flat_out, spec_out = tree_flatten(out)
                columns[i].append(tree_flatten(out_t)[0])
                aux = rest[0] if rest else None
        jacs = [_regroup([_outer(_columns(columns[i], k, o, x)) for i, x in enumerate(xs)], args, nums, argnums)
                for k, o in enumerate(flat_out)]
        result = tree_unflatten(jacs, spec_out)
        return (result, aux) if has_aux else result
    return wrapper


def _columns(columns, k, out, x):
    cols = [c[k] for c in columns]
    if not cols:
        return x.detach().new_zeros(tuple(out.shape) + tuple(x.shape))
    return stack(cols, dim=-1).reshape(tuple(out.shape) + tuple(x.shape))


def hessian(func, argnums=0):
    """The Hessian of a function with one output element: jacfwd(jacrev(func))."""
    return jacfwd(jacrev(func, argnums), argnums)
