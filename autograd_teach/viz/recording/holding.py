"""How a recording holds the nodes it ran: weakly, so that it never keeps a
graph alive; PyTorch's C++ nodes, which take no weak reference, by a
:class:`Holder` until the tensors their backward started from are gone."""
import functools
import weakref


def reference(obj):
    """A weak reference when the object allows one, else a stand-in holding it."""
    try:
        return weakref.ref(obj)
    except TypeError:                 # PyTorch's C++ nodes, when no Holder holds them
        return lambda: obj


class Holder:
    """PyTorch's nodes of one run, held until the tensors that run started from
    are gone.  Its C++ nodes take no weak reference, and a node's Python object
    is made anew when nobody holds it (so ``is`` no longer finds it): the
    recording holds them, but only as long as the learner can still draw them."""
    __slots__ = ("nodes", "_index", "outputs", "__weakref__")

    def __init__(self):
        self.nodes, self._index, self.outputs = [], {}, []

    def ref(self, node):
        """A callable giving ``node`` back, or None once released."""
        i = self._index.get(node)
        if i is None:
            i = self._index[node] = len(self.nodes)
            self.nodes.append(node)
        return _HeldRef(self, i)

    def hold_while(self, tensors):
        gone = functools.partial(_output_gone, weakref.ref(self))
        for t in tensors:
            try:
                self.outputs.append(weakref.ref(t, gone))
            except TypeError:         # a GradientEdge: nothing to watch
                pass

    def release(self):
        self.nodes = self._index = None


def _output_gone(holder_ref, _dead):
    holder = holder_ref()
    if holder is not None and not any(ref() is not None for ref in holder.outputs):
        holder.release()


class _HeldRef:
    __slots__ = ("holder", "i")

    def __init__(self, holder, i):
        self.holder, self.i = holder, i

    def __call__(self):
        nodes = self.holder.nodes
        return None if nodes is None else nodes[self.i]
