"""The backward engine and the autograd state around it.

What PyTorch does is the reference: where a test states an order, a value or
a message, it was observed in torch 2.13.0 (the run orders below were recorded
with Node.register_prehook on every node of the same graphs).
"""
import contextlib
import gc
import sys
import warnings
import weakref

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.core import engine
from autograd_teach.core.accumulate_grad import AccumulateGrad

FREED = "Trying to backward through the graph a second time"
MODIFIED = "one of the variables needed for gradient computation has been modified by an inplace operation"


def leaf(*values, dtype=torch.float32):
    return torch.tensor(list(values), dtype=dtype, requires_grad=True)


class Recorder:
    """An engine observer (engine.add_observer) that keeps every step."""

    def __init__(self):
        self.steps, self.began, self.ended = [], [], 0

    def begin(self, roots):
        self.began.append(list(roots))
        return self

    def step(self, node, grad_outputs, grad_inputs):
        self.steps.append((node, grad_outputs, grad_inputs))

    def end(self):
        self.ended += 1

    @property
    def nodes(self):
        return [s[0] for s in self.steps]

    @contextlib.contextmanager
    def watching(self):
        handle = engine.add_observer(self.begin)
        try:
            yield self
        finally:
            handle.remove()


# -- depth: no recursion ------------------------------------------------------------
def test_a_100000_op_chain_backwards_under_the_default_recursion_limit():
    assert sys.getrecursionlimit() == 1000       # Python's default: nobody raised it for us
    x = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.0001
    y.backward()
    assert x.grad.item() == pytest.approx(1.0001 ** 100_000, rel=1e-9)
    del y
    gc.collect()        # tearing the chain down must not recurse either


def test_graph_walks_are_iterative():
    x = torch.tensor(0.0, requires_grad=True)
    y = x
    for _ in range(20_000):
        y = y + 1
    assert len(engine.topological_order([y.grad_fn])) == 20_001
    assert len(engine.dependencies([y.grad_fn])) == 20_000
    assert torch.autograd.grad(y, x)[0].item() == 1.0


# -- order --------------------------------------------------------------------------------
def labels(root):
    """Name nodes `Name#k`, k their position in a depth-first walk from root
    that follows next_functions in order (the same walk was used in PyTorch)."""
    lab, stack = {}, [root]
    while stack:
        node = stack.pop()
        if node is None or node in lab:
            continue
        lab[node] = f"{node.name().split('::')[-1]}#{len(lab)}"
        stack.extend(n for n, _ in reversed(node.next_functions))
    return lab


def g_diamond():
    x = leaf(1.0, 2.0)
    return ((x * 2) + x.exp()).sum()


def g_two_leaves():
    x, w = leaf(1.0, 2.0), leaf(3.0, 4.0)
    return (x * w).sum()


def g_neuron():
    x, w, b = leaf(1.0, 2.0), leaf(3.0, 4.0), leaf(0.5)
    return ((x * w + b).relu() * x).sum()


def g_created_out_of_order():
    x = leaf(1.0, 2.0)
    b, a = x.sin(), x.cos()
    c, d = b * 2, a * 3
    return (d + c).sum()


def g_four_leaves():
    xs = [leaf(float(i)) for i in range(4)]
    return (xs[0] * xs[1] + xs[2] * xs[3]).sum()


def g_shared_intermediate():
    x, w = leaf(1.0, 2.0), leaf(3.0, 4.0)
    y = x * w
    z = y * x
    return (z + w).sum() + y.sum()


def g_linear_mse():
    x, w, b = torch.ones(2, 3, requires_grad=True), torch.ones(3, 2, requires_grad=True), leaf(1.0, 1.0)
    return torch.nn.functional.mse_loss(x @ w + b, torch.zeros(2, 2))


def g_selects():
    x = leaf(1.0, 2.0, 3.0)
    return x[0] * x[1] + x[2]


def g_sum_of_three():
    a, b, c = leaf(1.0, 2.0), leaf(1.0, 2.0), leaf(1.0, 2.0)
    return (a + b + c).sum()


# Recorded from torch 2.13.0 (prehooks on every node of the same graphs).
PYTORCH_ORDER = [
    (g_diamond, ["SumBackward0#0", "AddBackward0#1", "ExpBackward0#4", "MulBackward0#2", "AccumulateGrad#3"]),
    (g_two_leaves, ["SumBackward0#0", "MulBackward0#1", "AccumulateGrad#2", "AccumulateGrad#3"]),
    (g_neuron, ["SumBackward0#0", "MulBackward0#1", "ReluBackward0#2", "AddBackward0#3", "AccumulateGrad#7",
                "MulBackward0#4", "AccumulateGrad#5", "AccumulateGrad#6"]),
    (g_created_out_of_order, ["SumBackward0#0", "AddBackward0#1", "MulBackward0#2", "MulBackward0#5",
                              "CosBackward0#3", "SinBackward0#6", "AccumulateGrad#4"]),
    (g_four_leaves, ["SumBackward0#0", "AddBackward0#1", "MulBackward0#5", "AccumulateGrad#6", "AccumulateGrad#7",
                     "MulBackward0#2", "AccumulateGrad#3", "AccumulateGrad#4"]),
    (g_shared_intermediate, ["AddBackward0#0", "SumBackward0#7", "SumBackward0#1", "AddBackward0#2",
                             "MulBackward0#3", "MulBackward0#4", "AccumulateGrad#5", "AccumulateGrad#6"]),
    (g_linear_mse, ["MseLossBackward0#0", "AddBackward0#1", "AccumulateGrad#5", "MmBackward0#2",
                    "AccumulateGrad#3", "AccumulateGrad#4"]),
    (g_selects, ["AddBackward0#0", "SelectBackward0#5", "MulBackward0#1", "SelectBackward0#4", "SelectBackward0#2",
                 "AccumulateGrad#3"]),
    (g_sum_of_three, ["SumBackward0#0", "AddBackward0#1", "AccumulateGrad#5", "AddBackward0#2", "AccumulateGrad#3",
                      "AccumulateGrad#4"]),
]


def assert_topological(order, root):
    """Every reachable node runs exactly once, after every node that feeds it."""
    pos = {node: i for i, node in enumerate(order)}
    assert len(pos) == len(order), "a node ran twice"
    assert set(pos) == set(labels(root)), "a node did not run, or an unreachable one did"
    for node in order:
        for nxt, _ in node.next_functions:
            if nxt is not None:
                assert pos[nxt] > pos[node], f"{nxt.name()} ran before {node.name()}, which feeds it"


@pytest.mark.parametrize("graph, expected", PYTORCH_ORDER, ids=[g.__name__ for g, _ in PYTORCH_ORDER])
def test_run_order_is_topological_and_matches_pytorch(graph, expected):
    out = graph()
    lab = labels(out.grad_fn)
    planned = engine.topological_order([out.grad_fn])
    assert_topological(planned, out.grad_fn)
    rec = Recorder()
    with rec.watching():
        out.backward()
    assert_topological(rec.nodes, out.grad_fn)
    assert [lab[n] for n in rec.nodes] == expected
    assert rec.nodes == planned         # topological_order predicts the real run


def test_accumulate_grad_runs_as_soon_as_it_is_ready():
    # b is the most recently created leaf use, but its AccumulateGrad outranks
    # every op node once its gradient is complete.
    x, b = leaf(1.0, 2.0), leaf(3.0)
    out = ((x * 2 + b).exp() * 3).sum()
    order = [n.name() for n in engine.topological_order([out.grad_fn])]
    assert order.index("torch::autograd::AccumulateGrad") == order.index("AddBackward0") + 1


def test_among_ready_nodes_the_most_recently_created_runs_first():
    x = leaf(1.0)
    first, second = x.sin(), x.cos()     # both become ready together after AddBackward0
    order = engine.topological_order([(first + second).grad_fn])
    assert order.index(second.grad_fn) < order.index(first.grad_fn)


# -- graph release ---------------------------------------------------------------------
def graph_holding_an_array():
    """out = (a * a).sum() where only the graph still holds a's array."""
    x = leaf(1.0, 2.0)
    a = x * 3
    out = (a * a).sum()
    ref = weakref.ref(a._data)
    del a
    gc.collect()
    assert ref() is not None       # MulBackward0 saved it
    return x, out, ref


def test_backward_frees_saved_tensors():
    x, out, ref = graph_holding_an_array()
    out.backward()
    gc.collect()
    assert ref() is None
    assert out.grad_fn.next_functions[0][0].saved_freed
    with pytest.raises(RuntimeError, match=FREED):
        out.grad_fn.next_functions[0][0]._saved_self


def test_retain_graph_keeps_saved_tensors_for_a_second_backward():
    x, out, ref = graph_holding_an_array()
    out.backward(retain_graph=True)
    gc.collect()
    assert ref() is not None
    out.backward()
    assert x.grad.tolist() == [36.0, 72.0]     # 2 * d/dx (3x)^2 = 2 * 18x
    gc.collect()
    assert ref() is None


def test_autograd_grad_frees_too():
    x, out, ref = graph_holding_an_array()
    torch.autograd.grad(out, x)
    gc.collect()
    assert ref() is None


def test_second_backward_through_a_freed_graph_raises():
    x = leaf(1.0, 2.0)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError) as e:
        y.backward()
    assert str(e.value) == (
        "Trying to backward through the graph a second time (or directly access saved tensors after they have "
        "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
        "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if "
        "you need to access saved tensors after calling backward.")
    assert x.grad.tolist() == [2.0, 4.0]       # the failed call changed nothing


def test_a_graph_without_saved_tensors_can_be_backwarded_twice():
    # As in PyTorch: AddBackward0 and SumBackward0 save no tensors, so there is nothing to free.
    x = leaf(1.0, 2.0)
    y = (x + 2).sum()
    y.backward()
    y.backward()
    assert x.grad.tolist() == [2.0, 2.0]


# -- .grad ------------------------------------------------------------------------------
def test_gradients_accumulate_in_place():
    x = leaf(1.0, 2.0)
    (x * 2).sum().backward()
    g = x.grad
    assert g.tolist() == [2.0, 2.0] and g._version == 0 and not g.requires_grad
    (x * 3).sum().backward()
    assert x.grad is g                  # PyTorch adds into the existing tensor
    assert g.tolist() == [5.0, 5.0] and g._version == 1


def test_first_gradient_is_a_fresh_tensor():
    x = leaf(1.0, 2.0)
    up = torch.tensor([1.0, 1.0])
    (x * 1).backward(up)
    assert x.grad.tolist() == [1.0, 1.0]
    x.grad.add_(1)
    assert up.tolist() == [1.0, 1.0]    # .grad does not alias the incoming gradient


def test_zero_and_none_reset_the_gradient():
    x = leaf(1.0, 2.0)
    (x * 2).sum().backward()
    g = x.grad
    x.grad.zero_()
    (x * 5).sum().backward()
    assert x.grad is g and g.tolist() == [5.0, 5.0]
    x.grad = None
    (x * 7).sum().backward()
    assert x.grad is not g and x.grad.tolist() == [7.0, 7.0]
    assert g.tolist() == [5.0, 5.0]


def test_grad_can_be_assigned():
    x = leaf(1.0, 2.0)
    x.grad = torch.tensor([10.0, 20.0])
    (x * 2).sum().backward()
    assert x.grad.tolist() == [12.0, 22.0]


def test_leaves_without_requires_grad_get_nothing():
    x, c = leaf(1.0, 2.0), torch.tensor([3.0, 4.0])
    (x * c).sum().backward()
    assert c.grad is None and x.grad.tolist() == [3.0, 4.0]


def test_retain_grad():
    x = leaf(1.0, 2.0)
    y = x * 2
    y.retain_grad()
    assert y.retains_grad and not y.is_leaf
    z = (y * y).sum()
    z.backward(retain_graph=True)
    g = y.grad
    assert g.tolist() == [4.0, 8.0]
    z.backward()
    # PyTorch's retain_grad hook adds out of place: a new tensor each time.
    assert y.grad.tolist() == [8.0, 16.0] and y.grad is not g and g.tolist() == [4.0, 8.0]
    assert x.grad.tolist() == [16.0, 32.0]


def test_retain_grad_on_a_leaf_is_a_no_op():
    x = leaf(1.0)
    x.retain_grad()
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0]


def test_grad_of_a_non_leaf_warns():
    x = leaf(1.0, 2.0)
    y = x * 2
    y.sum().backward()
    with pytest.warns(UserWarning, match=r"^The \.grad attribute of a Tensor that is not a leaf Tensor is being "
                                         r"accessed\. Its \.grad attribute won't be populated"):
        assert y.grad is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x.grad              # a leaf: no warning
        y.retain_grad()
        y.grad              # retains grad: no warning


# -- grad mode ----------------------------------------------------------------------------
def test_no_grad_context():
    x = leaf(1.0)
    assert torch.is_grad_enabled()
    with torch.no_grad():
        assert not torch.is_grad_enabled()
        y = x * 2
    assert torch.is_grad_enabled()
    assert not y.requires_grad and y.grad_fn is None


def test_enable_grad_inside_no_grad_and_nesting():
    x = leaf(1.0)
    with torch.no_grad():
        with torch.enable_grad():
            assert torch.is_grad_enabled()
            y = x * 2
            with torch.no_grad():
                z = x * 2
            assert torch.is_grad_enabled()
        assert not torch.is_grad_enabled()
    assert y.requires_grad and not z.requires_grad


def test_grad_modes_as_decorators():
    x = leaf(1.0)

    @torch.no_grad()
    def off():
        return x * 2, torch.is_grad_enabled()

    @torch.no_grad
    def off_bare():
        return x * 2

    @torch.enable_grad()
    def on():
        return x * 2

    @torch.set_grad_enabled(False)
    def set_off():
        return x * 2

    assert torch.is_grad_enabled()       # decorating changed nothing
    y, inside = off()
    assert not y.requires_grad and not inside
    assert not off_bare().requires_grad
    assert not set_off().requires_grad
    with torch.no_grad():
        assert on().requires_grad
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()
    assert off.__name__ == "off"


def test_decorated_functions_restore_the_mode_after_an_exception():
    @torch.no_grad()
    def boom():
        raise ValueError

    with pytest.raises(ValueError):
        boom()
    assert torch.is_grad_enabled()
    with pytest.raises(ValueError):
        with torch.no_grad():
            raise ValueError
    assert torch.is_grad_enabled()


def test_set_grad_enabled():
    x = leaf(1.0)
    with torch.set_grad_enabled(False):
        assert not (x * 2).requires_grad
        with torch.set_grad_enabled(True):
            assert (x * 2).requires_grad
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()
    torch.set_grad_enabled(False)       # a plain call takes effect at once
    try:
        assert not torch.is_grad_enabled()
        assert not (x * 2).requires_grad
    finally:
        torch.set_grad_enabled(True)
    assert (x * 2).requires_grad


def test_backward_under_no_grad_still_works():
    x = leaf(1.0, 2.0)
    y = (x * x).sum()
    with torch.no_grad():
        y.backward()
    assert x.grad.tolist() == [2.0, 4.0]


# -- detach and .data ------------------------------------------------------------------------
def test_detach_shares_memory_and_version_counter():
    x = leaf(1.0, 2.0)
    d = x.detach()
    assert not d.requires_grad and d.grad_fn is None and d.is_leaf
    d.add_(1)
    assert x.tolist() == [2.0, 3.0]
    assert x._version == d._version == 1
    assert d.data_ptr() == x.data_ptr()


def test_detach_invalidates_a_saved_tensor():
    x = leaf(1.0, 2.0)
    y = x.exp()
    z = y.sum()
    y.detach().zero_()          # shares y's version counter: backward notices
    with pytest.raises(RuntimeError, match=MODIFIED):
        z.backward()


def test_data_shares_memory_but_not_the_version_counter():
    x = leaf(1.0, 2.0)
    d = x.data
    assert not d.requires_grad and d.grad_fn is None
    d.add_(1)
    assert x.tolist() == [2.0, 3.0]
    assert x._version == 0 and d._version == 1


def test_modifying_a_saved_tensor_through_data_goes_unnoticed():
    x = leaf(1.0, 2.0)
    y = x.exp()
    z = (y * y).sum()
    y.data.mul_(0)
    z.backward()                          # no error: .data hides the change
    assert x.grad.tolist() == [0.0, 0.0]  # and the gradient uses the new values


# -- version counter --------------------------------------------------------------------------------
INPLACE = [
    ("add_", lambda t: t.add_(1)),
    ("sub_", lambda t: t.sub_(1)),
    ("mul_", lambda t: t.mul_(2)),
    ("div_", lambda t: t.div_(2)),
    ("pow_", lambda t: t.pow_(2)),
    ("clamp_", lambda t: t.clamp_(0, 5)),
    ("zero_", lambda t: t.zero_()),
    ("fill_", lambda t: t.fill_(2.0)),
    ("copy_", lambda t: t.copy_(torch.ones(2))),
    ("setitem_int", lambda t: t.__setitem__(0, 3.0) or t),
    ("setitem_slice", lambda t: t.__setitem__(slice(None), torch.ones(2)) or t),
    ("uniform_", lambda t: t.uniform_()),
    ("normal_", lambda t: t.normal_()),
    ("iadd", lambda t: t.__iadd__(1)),
    ("isub", lambda t: t.__isub__(1)),
    ("imul", lambda t: t.__imul__(2)),
    ("itruediv", lambda t: t.__itruediv__(2)),
]


@pytest.mark.parametrize("op", [f for _, f in INPLACE], ids=[n for n, _ in INPLACE])
@pytest.mark.parametrize("in_graph", [False, True], ids=["plain", "non_leaf"])
def test_every_inplace_op_bumps_the_version_once(op, in_graph):
    t = leaf(1.0, 2.0) * 1 if in_graph else torch.tensor([1.0, 2.0])
    ptr = t.data_ptr()
    assert t._version == 0
    assert op(t) is t
    assert t._version == 1
    assert t.data_ptr() == ptr      # really in place: the same storage
    op(t)
    assert t._version == 2


def test_views_share_the_version_counter():
    # torch 2.13: x[0].add_(1) -> versions [1, 1]; x.t().mul_(2) -> 2; x.view(6)[0] = 5 -> 3
    x = torch.ones(2, 3)
    v = x[0]
    v.add_(1)
    assert (x._version, v._version) == (1, 1)
    x.t().mul_(2)
    assert x._version == 2
    x.view(6)[0] = 5
    assert x._version == 3
    assert x.tolist() == [[5.0, 4.0, 4.0], [2.0, 2.0, 2.0]]


def test_operations_that_are_not_in_place_leave_the_version_alone():
    x = torch.ones(3)
    x + 1, x * 2, x.exp(), x.sum(), x.view(3), x[0], x.clone(), x.detach()
    assert x._version == 0


@pytest.mark.parametrize("modify, node", [
    (lambda a: a.add_(1), "Add"),
    (lambda a: a.mul_(2), "Mul"),
    (lambda a: a.__setitem__(0, 5.0), "Add"),
    (lambda a: a.zero_(), "Add"),
])
def test_modifying_a_saved_input_raises(modify, node):
    x = leaf(1.0, 2.0)
    a = x + 1
    out = (a * a).sum()
    modify(a)
    with pytest.raises(RuntimeError) as e:
        out.backward()
    # PyTorch reports the tensor by the grad_fn it has now (after the in-place op).
    first = str(e.value).split(" Hint")[0]
    assert first.startswith(MODIFIED)
    assert "[torch.FloatTensor [2]]" in first and "is at version 1; expected version 0 instead." in first
    assert x.grad is None


def test_modifying_a_saved_output_raises_with_pytorchs_message():
    x = leaf(1.0, 2.0)
    y = x.exp()
    y.add_(1)
    with pytest.raises(RuntimeError) as e:
        y.sum().backward()
    assert str(e.value) == (   # torch 2.13.0, verbatim
        "one of the variables needed for gradient computation has been modified by an inplace operation: "
        "[torch.FloatTensor [2]], which is output 0 of Exp, is at version 1; expected version 0 instead. "
        "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False).")


def test_modifying_an_unsaved_input_is_fine():
    x = leaf(1.0, 2.0)
    a = x * 1
    out = (a + 2).sum()     # AddBackward0 saves nothing
    a.add_(10)
    out.backward()
    assert x.grad.tolist() == [1.0, 1.0]


# -- a failed backward changes nothing -------------------------------------------------------
# A deliberate difference from PyTorch, which keeps what AccumulateGrad wrote before the
# error: the project promises that bad input never leaves a half-updated .grad behind.
def test_failed_backward_restores_every_grad():
    x, w, u = leaf(1.0, 2.0), leaf(3.0, 4.0), leaf(5.0, 6.0)
    ((x + w) * u).sum().backward()        # give x, w, u a .grad
    before = {name: (t.grad, t.grad.tolist()) for name, t in (("x", x), ("w", w), ("u", u))}
    fresh = leaf(1.0, 1.0)                 # no .grad yet

    a = x * 2
    p = a * a                   # saves a
    a.add_(1)                   # ... which is now stale
    h = (w * fresh).exp()       # created later, so this branch runs first
    h.retain_grad()
    loss = p.sum() + (h * u).sum()

    rec = Recorder()
    with pytest.raises(RuntimeError, match=MODIFIED), rec.watching():
        loss.backward()
    ran = {n.variable for n in rec.nodes if isinstance(n, AccumulateGrad)}
    assert {id(t) for t in ran} >= {id(w), id(u), id(fresh)}, "the test needs leaves accumulated before the failure"
    for name, t in (("x", x), ("w", w), ("u", u)):
        grad, values = before[name]
        assert t.grad is grad, f"{name}.grad was replaced"
        assert t.grad.tolist() == values, f"{name}.grad was changed"
    assert fresh.grad is None
    assert h.grad is None


def test_gradient_shape_mismatch_raises_before_anything_runs():
    x = leaf(1.0, 2.0, 3.0)
    (x * 2).sum().backward()
    g = x.grad
    y = x * 2
    with pytest.raises(RuntimeError, match=r"^Mismatch in shape: grad_output\[0\] has a shape of "
                                           r"torch\.Size\(\[2\]\) and output\[0\] has a shape of "
                                           r"torch\.Size\(\[3\]\)\.$"):
        y.backward(torch.ones(2))
    assert x.grad is g and g.tolist() == [2.0, 2.0, 2.0]
    y.backward(torch.ones(3))       # the graph was not freed by the failed call
    assert g.tolist() == [4.0, 4.0, 4.0]


# -- autograd.grad and backward(inputs=...) ---------------------------------------------------------
def test_autograd_grad_leaves_grad_alone():
    x, w = leaf(1.0, 2.0), leaf(3.0, 4.0)
    x.grad = torch.tensor([100.0, 100.0])
    gx, gw = torch.autograd.grad((x * w).sum(), [x, w])
    assert gx.tolist() == [3.0, 4.0] and gw.tolist() == [1.0, 2.0]
    assert x.grad.tolist() == [100.0, 100.0] and w.grad is None
    assert not gx.requires_grad and gx.is_leaf


def test_autograd_grad_allow_unused():
    x, w = leaf(1.0, 2.0), leaf(5.0)
    gx, gw = torch.autograd.grad((x * 2).sum(), [x, w], allow_unused=True)
    assert gx.tolist() == [2.0, 2.0] and gw is None
    with pytest.raises(RuntimeError, match="^The differentiated Tensor at index 1 appears to not have been used "
                                           "in the graph. Set allow_unused=True if this is the desired behavior.$"):
        torch.autograd.grad((x * 2).sum(), [x, w])


def test_autograd_grad_with_respect_to_an_intermediate_and_a_leaf_below_it():
    x = leaf(1.0, 2.0)
    a = x * 3
    ga, gx = torch.autograd.grad((a * a).sum(), [a, x])
    assert ga.tolist() == [6.0, 12.0] and gx.tolist() == [18.0, 36.0]


def test_autograd_grad_runs_only_the_part_of_the_graph_it_needs():
    # PyTorch runs only nodes on a path to the inputs: a stale saved tensor or
    # a freed graph elsewhere does not matter.
    x, w = leaf(1.0, 2.0), leaf(1.0, 2.0)
    a = x * 2
    p = a * a
    a.add_(1)
    assert torch.autograd.grad(p.sum() + (w * 3).sum(), [w])[0].tolist() == [3.0, 3.0]
    q = (x * x).sum()
    q.backward()
    assert torch.autograd.grad(q + (w * w).sum(), [w])[0].tolist() == [2.0, 4.0]


def test_backward_inputs_accumulates_only_into_those():
    x, w = leaf(1.0, 2.0), leaf(5.0)
    (x * w).sum().backward(inputs=[x])
    assert x.grad.tolist() == [5.0, 5.0] and w.grad is None
    (x * w).sum().backward(inputs=[w])
    assert w.grad.tolist() == [3.0] and x.grad.tolist() == [5.0, 5.0]
    (x * 2).sum().backward(inputs=[w])     # w unused: nothing happens, as in PyTorch
    assert w.grad.tolist() == [3.0]


@pytest.mark.filterwarnings("ignore:The .grad attribute of a Tensor that is not a leaf")
def test_backward_inputs_can_be_non_leaves():
    x = leaf(1.0, 2.0)
    a = x * 3
    (a * a).sum().backward(inputs=[a, x])
    assert a.grad.tolist() == [6.0, 12.0] and x.grad.tolist() == [18.0, 36.0]
    y = x * 2
    (y * y).sum().backward(inputs=[y])
    assert y.grad.tolist() == [4.0, 8.0] and x.grad.tolist() == [18.0, 36.0]


def test_backward_inputs_skips_unneeded_branches():
    x, w = leaf(1.0, 2.0), leaf(1.0, 2.0)
    a = x * 2
    p = a * a
    a.add_(1)
    (p.sum() + (w * 3).sum()).backward(inputs=[w])
    assert w.grad.tolist() == [3.0, 3.0] and x.grad is None


# -- the recorder hook ------------------------------------------------------------------------------
def test_recorder_sees_every_step_in_order_with_aligned_gradients():
    x, w = leaf(1.0, 2.0), leaf(3.0, 4.0)
    out = (x * w).sum()
    mul = out.grad_fn.next_functions[0][0]
    rec = Recorder()
    with rec.watching():
        out.backward()
    assert rec.began == [[out.grad_fn]] and rec.ended == 1
    assert [n.name() for n in rec.nodes] == ["SumBackward0", "MulBackward0", "torch::autograd::AccumulateGrad",
                                            "torch::autograd::AccumulateGrad"]
    for node, grad_outputs, grad_inputs in rec.steps:
        assert len(grad_inputs) == len(node.next_functions)
    (_, go_sum, gi_sum), (_, go_mul, gi_mul) = rec.steps[:2]
    assert go_sum[0].tolist() == 1.0 and gi_sum[0].tolist() == [1.0, 1.0]
    assert [g.tolist() for g in gi_mul] == [[3.0, 4.0], [1.0, 2.0]]   # d/dx = w, d/dw = x
    assert [mul.next_functions[i][0].variable for i in (0, 1)] == [x, w]
    assert rec.steps[2][0].variable is x and rec.steps[2][1][0].tolist() == [3.0, 4.0]


def test_an_observer_sees_backward_and_is_told_when_it_ends():
    rec = Recorder()
    x = leaf(2.0)
    with rec.watching():
        (x * x).sum().backward()
        assert [n.name() for n in rec.nodes] == ["SumBackward0", "MulBackward0", "torch::autograd::AccumulateGrad"]
        assert rec.ended == 1
        with pytest.raises(RuntimeError):
            y = (x * x).sum()
            y.backward()
            y.backward()
    assert rec.ended == 3       # end() runs even when backward fails


def test_recorder_gets_none_for_inputs_that_need_no_gradient():
    x, c = leaf(1.0), torch.tensor([2.0])
    rec = Recorder()
    with rec.watching():
        (x * c).sum().backward()
    mul_step = rec.steps[1]
    assert mul_step[0].next_functions[1] == (None, 0)
    assert mul_step[2][1] is None and mul_step[2][0].tolist() == [2.0]
