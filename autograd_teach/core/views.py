"""Views, in-place ops and the version counter: read this beside lesson 5.

Three facts, as in PyTorch:

1. A view (x.view, x.t(), x[0], ...) shares its base's storage *and* its
   version counter. `OpNode.apply` calls `_track_view` for every view op: the
   view remembers its base and the chain of view ops that made it.
2. Every in-place op (x.add_(1), x[0] = 5, x.data's writes excepted) bumps the
   version counter. Each node saved its inputs with the version they had
   (node.SavedTensor); if a saved tensor has moved on, backward refuses with
   "one of the variables needed for gradient computation has been modified
   by an inplace operation".
3. An in-place op inside a graph gives the tensor a new grad_fn. On a view,
   the base's history changes too: the base becomes CopySlices(old base,
   the op's node), and every live view of the base (the one written
   through and any made before) is re-derived from the new base by replaying
   its chain of view ops, as AsStridedBackward0. That is why `x.grad_fn` can
   read <CopySlices> after `x[0].mul_(2)`. As in PyTorch, a view is re-derived
   when its grad_fn is next read (the one written through: at once), so the
   new node's sequence number, and the order backward runs it in, is PyTorch's.

In PyTorch this is the work of the ADInplaceOrView dispatch key; here it is
the base class of Tensor, so that the attributes it writes stay its own.
"""
import threading
import weakref

import numpy as np

from . import grad_mode
from .. import ops as O
from ..compat import dtypes, overlap, signatures
from .node import SavedTensor, dual, op_name

# np.may_share_memory without numpy's Python-level __array_function__ dispatch,
# which costs more than the check (every view op runs it)
may_share_memory = getattr(np.may_share_memory, "_implementation", np.may_share_memory)

INFERENCE_INPLACE = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone "
                     "to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 "
                     "for more details.")
NO_GRAD_VIEW_INPLACE = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this use "
    "case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the "
    "inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if "
    "you want the inplace to be tracked).")
NO_GRAD_VIEW_REBASE = (
    "A view was created in no_grad mode and its base or another view of its base has been modified inplace with "
    "grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your "
    "code by moving both the view and the inplace either both inside the no_grad block (if you don't want the "
    "inplace to be tracked) or both outside (if you want the inplace to be tracked).")
MULTI_VIEW_REBASE = (
    "Output {} of {} is a view and its base or another view of its base has been modified inplace. This view is "
    "the output of a function that returns multiple views. Such functions do not allow the output views to be "
    "modified inplace. You should replace the inplace operation by an out-of-place one.")
CUSTOM_VIEW_REBASE = (
    "Output {} of {} is a view and its base or another view of its base has been modified inplace. This view was "
    "created inside a custom Function (or because an input was returned as-is) and the autograd logic to handle "
    "view+inplace would override the custom backward associated with the custom Function, leading to incorrect "
    "gradients. This behavior is forbidden. You can fix this by cloning the output of the custom Function.")
CUSTOM_VIEW_INPLACE = (
    "Output 0 of {} is a view and is being modified inplace. This view was created inside a custom Function (or "
    "because an input was returned as-is) and the autograd logic to handle view+inplace would override the custom "
    "backward associated with the custom Function, leading to incorrect gradients. This behavior is forbidden. You "
    "can fix this by cloning the output of the custom Function.")


def _dims(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


class InplaceOrView:
    """Tensor's views, versions and in-place ops, on Tensor's attributes:
    _data, _version_box (the counter, a one-element list that views and
    detach() share), _base and _view_chain (for a view: its base, and the
    view ops that made it from there)."""
    __slots__ = ()
    _views = None       # a base's live views (a WeakSet), re-derived after the base changes in place

    @property
    def _version(self):
        return self._version_box[0]

    def _bump_version(self):
        self._version_box[0] += 1
        base = self if self._base is None else self._base
        if base._views:      # each view's grad_fn is re-derived from the base when next read
            base._views_go_stale()

    def _track_view(self, base, op, params):
        """self was made from base by view op `op`: share its version counter
        and remember how to make self again from base's root."""
        if not may_share_memory(self._data, base._data):   # reshape may have had to copy
            return
        self._version_box = base._version_box
        if base._inference:   # a view of an inference tensor is one too
            self._inference = True
        if base._base is None:
            self._base, self._view_chain = base, ((op, params),)
        else:   # a view of a view: remember the whole way from the base
            self._base, self._view_chain = base._base, base._view_chain + ((op, params),)
        self._base._add_view(self)
        # (grad mode is read only if some thread has it off: grad_mode.threads_without_grad, as in node.py)
        if type(base) in _no_grad_types or (base._requires_grad and grad_mode.threads_without_grad
                                           and not grad_mode.flags.enabled
                                           and not getattr(op, "custom_function_output", False)):
            # made under no_grad from a tensor that requires grad (or a view of such a view): as in
            # PyTorch, it requires grad but has no history and no edge, and may not be changed in place
            # with grad mode on (CreationMeta::NO_GRAD_MODE)
            self.__class__ = _no_grad_view_class(type(self))
            self._requires_grad = True

    def _share_views(self, alias):
        """alias shares self's storage and version counter (detach()): a write
        through it changes the views of self's base as a write through self
        would, so they are re-derived too (PyTorch: their version moved on)."""
        root = self if self._base is None else self._base
        if root._requires_grad and root._views is None:
            root._views = weakref.WeakSet()
        alias._views = root._views

    def _add_view(self, view):
        if self._views is None:
            self._views = weakref.WeakSet()
        self._views.add(view)

    def _check_inplace(self, view=False):
        if not grad_mode.is_grad_enabled():
            return
        if self._no_grad_view:     # made under no_grad (no history), or a view made of one since
            raise RuntimeError(NO_GRAD_VIEW_INPLACE if self.grad_fn is None else
                               "Output 0 of {} is a view of a view which was created in no_grad mode and is being "
                               "modified inplace with grad mode enabled.{}".format(
                                   op_name(self.grad_fn.name()), NO_GRAD_VIEW_INPLACE.split("enabled.", 1)[1]))
        if self._requires_grad and any(getattr(op, "custom_function_view", False) for op, _ in self._view_chain):
            # a view a custom Function returned for its input, or a view of it
            raise RuntimeError(CUSTOM_VIEW_INPLACE.format(op_name(self.grad_fn.name())))
        if self._requires_grad and any(getattr(op, "multi_output_view", False) for op, _ in self._view_chain):
            # an output of unbind/split, or a view of one (ops/multi_output.py)
            raise RuntimeError(O.multi_output.MULTI_VIEW_INPLACE.format(self._output_nr,
                                                                        op_name(self.grad_fn.name())))
        if self._requires_grad and self.grad_fn is None:
            raise RuntimeError(("a view of a leaf Variable" if view else "a leaf Variable") +
                               " that requires grad is being used in an in-place operation.")
        base = self._base
        if base is not None and base._requires_grad and base.grad_fn is None:
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place "
                               "operation.")

    def _snapshot(self):
        """A copy of the values with the same history: what a node must see of
        self from before an in-place write."""
        t = self._wrap(self._data.copy(order="K"))
        t._copy_history(self)
        dual.copy_tangents(self, t)     # and its tangents (forward-mode AD)
        return t

    def _copy_history(self, other):
        self.grad_fn, self._requires_grad, self._acc = other.grad_fn, other._requires_grad, other._acc
        if other._output_nr:    # output k of a node with several outputs
            self._output_nr = other._output_nr

    def _take_history(self, node):
        """After an in-place op inside a graph, node made self's new values."""
        self._set_grad_fn(node)
        if self._retains_grad:   # the retained gradient now comes from the new node
            self._retains_grad = False
            self.retain_grad()

    def _inplace(self, op, *args, view=False, read_first=False):
        """Run op out of place, write the result into self's storage, bump the
        version, and (inside a graph) make the new node self's grad_fn.
        (read_first: the op reads its tensor arguments before it writes, as
        fill_ reads its value, so they may overlap self.)"""
        if self.is_inference() and not grad_mode.is_inference_mode_enabled():
            raise RuntimeError(INFERENCE_INPLACE)
        self._check_inplace(view)
        if self._data.size and any(st == 0 and n > 1 for st, n in zip(self._data.strides, self._data.shape)):  # expand
            raise RuntimeError(overlap.EXPAND_OVERLAP)
        if not (view or read_first):     # (x[index] = v checks the region it writes: indexing.setitem)
            for a in args:
                if hasattr(a, "_data") and may_share_memory(self._data, a._data):
                    overlap.check_no_partial_overlap(self._data, a._data)
        needs_graph = grad_mode.is_grad_enabled() and (
            self._requires_grad or any(getattr(a, "_requires_grad", False) for a in args))
        result = op(self._snapshot() if needs_graph else self, *args)
        self._check_inplace_result(result)
        dual.after_inplace(self, result, self._base, self._view_chain)     # forward mode: self's tangent is result's
        if needs_graph and self._base is not None and result.grad_fn is not None:
            return self._rewrite_base_history(result)
        self._data[...] = result._data
        self._bump_version()
        if result.grad_fn is not None:
            self._take_history(result.grad_fn)
            self._saved_as_result(result.grad_fn)
        return self

    def _saved_as_result(self, node):
        """In PyTorch an in-place op's output is self: a node that saved its
        result (sigmoid_, exp_, relu_...) saved self, at the version the op
        left it, so that changing self in place again makes backward refuse."""
        saved = getattr(node, "saved_values", None) or {}
        for name, s in saved.items():
            if type(s) is tuple and s[3] is None:      # compact (node.py): (data, box, version, ref, ...)
                saved[name] = (self._data, self._version_box, self._version_box[0]) + s[3:]
            elif type(s) is SavedTensor and s.ref is None and s.hooks is None:
                s.data, s.box, s.version = self._data, self._version_box, self._version_box[0]

    def _check_inplace_result(self, result):
        if result.dtype is not self.dtype and not dtypes.can_cast(result.dtype, self.dtype):
            raise RuntimeError(f"result type {result.dtype.legacy_name} can't be cast to the desired output "
                               f"type {self.dtype.legacy_name}")
        if result.shape != self.shape:
            raise RuntimeError(f"output with shape {_dims(self.shape)} doesn't match the broadcast shape "
                               f"{_dims(result.shape)}")

    def _rewrite_base_history(self, result):
        """An in-place op on a view, inside a graph: the base becomes
        CopySlices(old base, result), holding result's node as PyTorch's does,
        and self is re-derived from the new base."""
        base = self._base
        new_base = O.CopySlices.apply(base._snapshot(), result, self._view_chain, Ellipsis)
        if new_base.grad_fn is not None:
            new_base.grad_fn.hold(result.grad_fn)   # PyTorch's CopySlices holds the op's node
        base._data[...] = new_base._data        # writes self's region too: it is a view
        base._bump_version()
        base._take_history(new_base.grad_fn)
        self.grad_fn   # noqa: B018 -- read: self is re-derived from base now, as PyTorch's rebase_history does
        self._saved_as_result(result.grad_fn)
        return self

    def _views_go_stale(self):
        """This base changed in place (_bump_version): each live view must be
        re-derived from it (AsStridedBackward0, as PyTorch names it), so that
        a view made before the change sees the change's gradient too. As in
        PyTorch, that happens when the view's grad_fn is next read."""
        for view in list(self._views):
            _mark_stale(view)

    def _rederive_view(self):
        """Reading grad_fn of a view whose base changed: its new history is
        AsStridedBackward0 of the base (made even under no_grad, as PyTorch's)."""
        fresh = _fresh_classes[type(self)]
        if self._no_grad_view:     # PyTorch refuses to give it a history (its repr: grad_fn=<Invalid>)
            raise RuntimeError(NO_GRAD_VIEW_REBASE)
        refused = _refused_on_rebase(self)   # an output of split/unbind or of a custom Function (or a view of one)
        if refused:
            raise RuntimeError(refused.format(self._output_nr, op_name(fresh.grad_fn.__get__(self).name())))
        if fresh.grad_fn.__get__(self) is None and not self._base._requires_grad:
            self.__class__ = fresh      # no history before, none to take now
            return
        if grad_mode.is_grad_enabled():
            node = O.AsStridedBackward0.apply(self._base, self._view_chain).grad_fn
        else:
            with grad_mode.enable_grad():
                node = O.AsStridedBackward0.apply(self._base, self._view_chain).grad_fn
        self._take_history(node)

    # -- the in-place ops ------------------------------------------------------
    def add_(self, other, alpha=1):
        other = other if isinstance(other, (InplaceOrView, int, float)) else signatures.checked(other, "add_", InplaceOrView)
        return self._inplace(type(self).add, other, alpha)

    def sub_(self, other, alpha=1):
        other = other if isinstance(other, (InplaceOrView, int, float)) else signatures.checked(other, "sub_", InplaceOrView)
        return self._inplace(type(self).sub, other, alpha)

    def mul_(self, other):
        other = other if isinstance(other, (InplaceOrView, int, float)) else signatures.checked(other, "mul_", InplaceOrView)
        return self._inplace(type(self).mul, other)

    def div_(self, other, **rounding_mode):
        other = other if isinstance(other, (InplaceOrView, int, float)) else signatures.checked(other, "div_", InplaceOrView)
        return self._inplace(lambda t, o: t.div(o, **rounding_mode), other)

    def pow_(self, exponent):
        return self._inplace(type(self).pow, signatures.checked(exponent, "pow_", InplaceOrView))

    def clamp_(self, min=None, max=None):
        return self._inplace(type(self).clamp, min, max)

    def zero_(self):
        return self._inplace(O.ZeroBackward0.apply)

    def fill_(self, value):
        if hasattr(value, "_data"):      # a tensor value is fill_.Tensor: its gradient is grad.sum()
            if value.dim() != 0:
                raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                                   f"{value.dim()} dimensions.")
            return self._inplace(O.FillBackward3.apply, value, read_first=True)
        return self._inplace(O.FillBackward2.apply, value)

    def uniform_(self, a=0.0, b=1.0, *, generator=None):
        return self._inplace(O.UniformBackward0.apply, a, b, generator)

    def normal_(self, mean=0.0, std=1.0, *, generator=None):
        return self._inplace(O.NormalBackward0.apply, mean, std, generator)

    # in-place forms of ops the nn code uses
    def masked_fill_(self, mask, value):
        return self._inplace(O.selection.masked_fill, mask, value, True)

    def exp_(self):
        return self._inplace(type(self).exp)

    def log_(self):
        return self._inplace(type(self).log)

    def sqrt_(self):
        return self._inplace(type(self).sqrt)

    def abs_(self):
        return self._inplace(type(self).abs)

    def neg_(self):
        return self._inplace(type(self).neg)

    def reciprocal_(self):
        return self._inplace(type(self).reciprocal)

    def sin_(self):
        return self._inplace(type(self).sin)

    def cos_(self):
        return self._inplace(type(self).cos)

    def tanh_(self):
        return self._inplace(type(self).tanh)

    def sigmoid_(self):
        return self._inplace(type(self).sigmoid)

    def relu_(self):
        return self._inplace(type(self).relu)

    def square_(self):
        return self._inplace(type(self).square)

    def clip_(self, min=None, max=None):
        return self.clamp_(min, max)

    def remainder_(self, other):
        return self._inplace(type(self).remainder, signatures.checked(other, "remainder_", InplaceOrView))



# -- plumbing: how a stale view re-derives its grad_fn when it is read --------------
# PyTorch checks a view's version on every read of grad_fn. Here grad_fn is a
# plain slot, read by every op, so a check on each read would slow down every
# op: instead a view whose base changed is switched to a subclass of its class
# (same name, same slots) whose grad_fn and _requires_grad are properties that
# re-derive the view, then switch it back. Other tensors never pay for it.

_stale_lock = threading.RLock()   # one view re-derived by one thread; the others wait and read its result
_stale_classes = {}               # Tensor -> its stale-view subclass, made on first use
_fresh_classes = {}               # ... and back


def _mark_stale(view):
    cls = type(view)
    if cls in _fresh_classes:
        return                      # stale already
    stale = _stale_classes.get(cls)
    if stale is None:
        stale = _stale_class(cls)
    view.__class__ = stale


def _stale_class(cls):
    with _stale_lock:
        if cls not in _stale_classes:
            stale = _stale_classes[cls] = type(cls.__name__, (cls,), {
                "__slots__": (), "__module__": cls.__module__, "__qualname__": cls.__qualname__,
                "grad_fn": property(_stale_grad_fn, _set_fresh_grad_fn),
                "_requires_grad": property(_stale_requires_grad, _set_stale_requires_grad),
                "__reduce_ex__": _fresh_reduce_ex})
            _fresh_classes[stale] = cls
            if cls in _no_grad_types:
                _no_grad_types.add(stale)
        return _stale_classes[cls]


# The same for a view made under no_grad (see _track_view): its subclass says
# so (_no_grad_view) and gives no edge, so that the edge of every other tensor
# (every op reads one) is found without a check.
_no_grad_classes = {}             # Tensor -> its no_grad-view subclass, made on first use
_no_grad_types = set()            # those subclasses and their stale subclasses


def _no_grad_view_class(cls):
    with _stale_lock:
        if cls not in _no_grad_classes and cls not in _no_grad_types:
            sub = _no_grad_classes[cls] = type(cls.__name__, (cls,), {
                "__slots__": (), "__module__": cls.__module__, "__qualname__": cls.__qualname__,
                "_no_grad_view": True, "_grad_edge": _no_grad_view_edge})
            _no_grad_types.add(sub)
        return cls if cls in _no_grad_types else _no_grad_classes[cls]


def _no_grad_view_edge(view):
    """No edge: gradients stop at a view made under no_grad (a view of one made
    with grad mode on has its own node, whose edge leads nowhere)."""
    return (None, 0) if view.grad_fn is None else (view.grad_fn, view._output_nr)


def plain_class(cls):
    """The class below the marking subclasses (stale, no_grad view): what
    pickle and copy name (Tensor, Parameter)."""
    while cls in _no_grad_types or cls in _fresh_classes:
        cls = cls.__bases__[0]
    return cls


def mark_custom_function_view(out, inputs, mark):
    """out, returned by a custom Function's forward, is a view of one of its
    inputs: its chain of view ops ends with `mark` (CustomFunctionView), and
    it is no no_grad view, though made under the forward's no_grad."""
    if out._base is None or not any(out._base is a or out._base is getattr(a, "_base", None) for a in inputs):
        return
    if not any(getattr(op, "custom_function_output", False) for op, _ in out._view_chain):
        out._view_chain += ((mark, (tuple(out.shape),)),)
    out.__class__ = plain_class(type(out))


def is_invalid(view):
    """A view whose base has changed in place since it was made under no_grad,
    or by split/unbind or a custom Function: it has no valid history (reading
    grad_fn raises; PyTorch prints grad_fn=<Invalid>)."""
    return type(view) in _fresh_classes and (type(view) in _no_grad_types or _refused_on_rebase(view) is not None)


def _refused_on_rebase(view):
    """PyTorch's message (to format with the output's number and node) for a
    view with a history that may not be re-derived from its changed base: an
    output of split/unbind or of a custom Function, or a view of one."""
    kinds = {k for op, _ in view._view_chain for k in ("multi_output_view", "custom_function_view")
             if getattr(op, k, False)}
    if not kinds or _fresh_classes[type(view)].grad_fn.__get__(view) is None:
        return None
    return MULTI_VIEW_REBASE if "multi_output_view" in kinds else CUSTOM_VIEW_REBASE


def _stale_grad_fn(view):
    with _stale_lock:
        if type(view) in _fresh_classes:   # not re-derived meanwhile by another thread
            view._rederive_view()
    return view.grad_fn


def _stale_requires_grad(view):
    if type(view) in _no_grad_types:      # it requires grad as its base does; only its grad_fn is invalid now
        return True
    if _refused_on_rebase(view):
        return True     # as in PyTorch, requires_grad (and an op under no_grad) does not read its invalid grad_fn
    _stale_grad_fn(view)
    return view._requires_grad


def _set_fresh_grad_fn(view, node):
    """A new history is written: the view is up to date again."""
    fresh = _fresh_classes[type(view)]
    fresh.grad_fn.__set__(view, node)
    view.__class__ = fresh


def _fresh_reduce_ex(view, protocol):
    """pickle and copy see the view re-derived: a plain Tensor again."""
    _stale_grad_fn(view)
    return view.__reduce_ex__(protocol)


def _set_stale_requires_grad(view, value):
    _fresh_classes[type(view)]._requires_grad.__set__(view, value)
