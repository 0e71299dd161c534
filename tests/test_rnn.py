"""nn.RNN, nn.GRU, nn.LSTM and their cells (nn/modules/rnn.py): first and
second derivatives by finite differences in float64 through each module,
for the input, the initial state and every parameter; values against a
plain numpy loop written from the equations; and the cases off the happy
path: sequence length 1, batch 1, three layers, two bidirectional layers, a
state carried across batches with detach_, one module run 50 times (the
gradient of the shared weights is the sum), threads, and misuse. PyTorch's
own values, names, reprs and messages are in the goldens
(tests/golden/programs/nn_rnn.py, d2l_rnn_concise.py)."""
import threading

import numpy as np
import pytest

import autograd_teach as torch
from autograd_teach.autograd import GradcheckError, gradcheck, gradgradcheck

nn = torch.nn


def leaf(*shape, seed=0):
    data = np.random.default_rng(seed + 31 * len(shape) + sum(shape)).standard_normal(shape)
    return torch.tensor(data, dtype=torch.float64, requires_grad=True)


def module(cls, *args, seed=0, **kwargs):
    torch.manual_seed(seed)
    return cls(*args, **kwargs).double()


def flat(out):
    """(output, h) or (output, (h, c)) or h or (h, c) -> a flat tuple of tensors."""
    if not isinstance(out, tuple):
        return (out,)
    return tuple(t for o in out for t in flat(o))


def through(m, with_state):
    """f(x[, state...], *parameters) -> m's outputs. The parameters are passed
    so that gradcheck perturbs them (in place) and checks their gradients."""
    n_state = 2 if isinstance(m, (nn.LSTM, nn.LSTMCell)) else 1

    def f(x, *rest):
        if not with_state:
            return flat(m(x))
        state = rest[:n_state]
        return flat(m(x, state if n_state == 2 else state[0]))
    return f, n_state


def case(cls, args, kwargs, x_shape, state_shape=None):
    def make():
        m = module(cls, *args, **kwargs)
        f, n_state = through(m, state_shape is not None)
        states = () if state_shape is None else tuple(leaf(*state_shape, seed=5 + k) for k in range(n_state))
        return f, (leaf(*x_shape, seed=1), *states, *m.parameters())
    m = module(cls, *args, **kwargs)
    per_layer = len(m._all_weights[0]) if hasattr(m, "_all_weights") else 4
    make.first_layer_end = 1 + (0 if state_shape is None else through(m, True)[1]) + per_layer
    return make


CASES = [
    ("rnn_tanh", case(nn.RNN, (3, 2), {}, (4, 2, 3))),
    ("rnn_relu_h0", case(nn.RNN, (3, 2), dict(nonlinearity="relu"), (3, 2, 3), (1, 2, 2))),
    ("rnn_no_bias_batch_first", case(nn.RNN, (3, 2), dict(bias=False, batch_first=True), (2, 3, 3), (1, 2, 2))),
    ("rnn_unbatched_h0", case(nn.RNN, (2, 3), {}, (3, 2), (1, 3))),
    ("rnn_three_layers", case(nn.RNN, (2, 2), dict(num_layers=3), (3, 1, 2), (3, 1, 2))),
    ("rnn_seq_len_1_batch_1", case(nn.RNN, (2, 3), {}, (1, 1, 2))),
    ("gru", case(nn.GRU, (3, 2), {}, (3, 2, 3), (1, 2, 2))),
    ("gru_bidirectional_two_layers", case(nn.GRU, (2, 2), dict(num_layers=2, bidirectional=True), (2, 1, 2),
                                          (4, 1, 2))),
    ("gru_unbatched_batch_first", case(nn.GRU, (2, 2), dict(batch_first=True), (3, 2))),
    ("lstm", case(nn.LSTM, (3, 2), {}, (3, 2, 3), (1, 2, 2))),
    ("lstm_bidirectional_two_layers", case(nn.LSTM, (2, 2), dict(num_layers=2, bidirectional=True), (2, 1, 2),
                                           (4, 1, 2))),
    ("lstm_batch_first", case(nn.LSTM, (2, 2), dict(batch_first=True), (2, 3, 2), (1, 2, 2))),
    ("lstm_no_bias_unbatched", case(nn.LSTM, (2, 3), dict(bias=False), (2, 2), (1, 3))),
    ("rnn_cell", case(nn.RNNCell, (3, 2), {}, (2, 3), (2, 2))),
    ("rnn_cell_relu_unbatched", case(nn.RNNCell, (3, 2), dict(nonlinearity="relu"), (3,), (2,))),
    ("gru_cell", case(nn.GRUCell, (3, 2), {}, (2, 3), (2, 2))),
    ("gru_cell_no_state", case(nn.GRUCell, (3, 2), dict(bias=False), (2, 3))),
    ("lstm_cell", case(nn.LSTMCell, (3, 2), {}, (2, 3), (2, 2))),
    ("lstm_cell_unbatched", case(nn.LSTMCell, (3, 2), {}, (3,), (2,))),
]


@pytest.mark.parametrize("name, make", CASES, ids=[c[0] for c in CASES])
def test_gradients_match_finite_differences(name, make):
    f, inputs = make()
    assert gradcheck(f, inputs)


@pytest.mark.parametrize("name, make", CASES, ids=[c[0] for c in CASES])
def test_second_derivatives_match_finite_differences(name, make):
    """The input, the state and the first layer's parameters (the others are
    used, not perturbed: each perturbation costs a double backward)."""
    f, inputs = make()
    assert gradgradcheck(f, inputs[:make.first_layer_end])


def test_dropout_between_layers_is_checked_with_a_fixed_mask():
    """In training, dropout draws a mask from the global generator: re-seeded
    before each evaluation, the function is deterministic and differentiable."""
    m = module(nn.GRU, 2, 2, num_layers=2, dropout=0.5)

    def f(x, *params):
        torch.manual_seed(3)
        return m(x)[0]
    x = leaf(3, 2, 2)
    assert gradcheck(f, (x, *m.parameters()))
    torch.manual_seed(3)
    dropped = m(x)[0]
    m.eval()
    assert not torch.allclose(dropped, m(x)[0])      # the mask changed something in training


# -- values against numpy -------------------------------------------------------------------
def sigmoid(a):
    return 1 / (1 + np.exp(-a))


def numpy_layer(kind, x, h, c, w_ih, w_hh, b_ih, b_hh):
    """The textbook equations, one step at a time, in numpy."""
    outs = []
    for x_t in x:
        gi, gh = x_t @ w_ih.T + b_ih, h @ w_hh.T + b_hh
        if kind == "RNN":
            h = np.tanh(gi + gh)
        elif kind == "GRU":
            (i_r, i_z, i_n), (h_r, h_z, h_n) = np.split(gi, 3, 1), np.split(gh, 3, 1)
            r, z = sigmoid(i_r + h_r), sigmoid(i_z + h_z)
            n = np.tanh(i_n + r * h_n)
            h = (1 - z) * n + z * h
        else:
            i, f, g, o = np.split(gi + gh, 4, 1)
            c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
            h = sigmoid(o) * np.tanh(c)
        outs.append(h)
    return np.stack(outs), h, c


@pytest.mark.parametrize("cls", [nn.RNN, nn.GRU, nn.LSTM], ids=["RNN", "GRU", "LSTM"])
def test_values_match_the_equations_in_numpy(cls):
    m = module(cls, 3, 4, num_layers=2, bidirectional=True)
    x = np.random.default_rng(0).standard_normal((5, 2, 3))
    out, state = m(torch.tensor(x))
    h_n = state[0] if cls is nn.LSTM else state
    layer_in, finals = x, []
    for layer in range(2):
        outs = []
        for d, suffix in enumerate(("", "_reverse")):
            w = [getattr(m, f"{k}_l{layer}{suffix}").detach().numpy() for k in ("weight_ih", "weight_hh",
                                                                               "bias_ih", "bias_hh")]
            zeros = np.zeros((2, 4))
            seq = layer_in[::-1] if d else layer_in
            o, h, _ = numpy_layer(cls.__name__, seq, zeros, zeros, *w)
            outs.append(o[::-1] if d else o)
            finals.append(h)
        layer_in = np.concatenate(outs, axis=2)
    np.testing.assert_allclose(out.detach().numpy(), layer_in, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(h_n.detach().numpy(), np.stack(finals), rtol=1e-12, atol=1e-12)


def test_a_layer_is_its_cell_run_over_the_sequence():
    for layer_cls, cell_cls in ((nn.RNN, nn.RNNCell), (nn.GRU, nn.GRUCell), (nn.LSTM, nn.LSTMCell)):
        layer, cell = module(layer_cls, 3, 2), module(cell_cls, 3, 2)
        x = leaf(4, 2, 3)
        out, _ = layer(x)
        state = None
        for t in range(4):
            state = cell(x[t], state)
            h = state[0] if isinstance(state, tuple) else state
            np.testing.assert_allclose(h.detach().numpy(), out[t].detach().numpy(), rtol=1e-13, atol=1e-13)


# -- off the happy path ---------------------------------------------------------------------
def test_a_module_run_fifty_times_sums_the_gradients_of_its_shared_weights():
    m = module(nn.GRU, 2, 3)
    xs = [leaf(2, 1, 2, seed=s) for s in range(50)]
    for x in xs:
        m(x)[0].sum().backward()
    summed = {n: p.grad.numpy().copy() for n, p in m.named_parameters()}
    for p in m.parameters():
        p.grad = None
    total = sum(m(x)[0].sum() for x in xs)
    total.backward()
    for n, p in m.named_parameters():
        np.testing.assert_allclose(p.grad.numpy(), summed[n], rtol=1e-12, atol=1e-12)
        assert np.abs(summed[n]).sum() > 0


def test_a_state_detached_between_batches_stops_the_gradient_there():
    """d2l's sequential partitioning: state.detach_() keeps the value and cuts
    the graph, so each backward only reaches back to the start of its batch."""
    m = module(nn.LSTM, 2, 3)
    xs = [leaf(3, 1, 2, seed=s) for s in range(3)]
    state = None
    for x in xs:
        out, state = m(x, state)
        for p in m.parameters():
            p.grad = None
        out.sum().backward()
        for s in state:
            s.detach_()
        assert all(not s.requires_grad and s.grad_fn is None for s in state)
    alone = module(nn.LSTM, 2, 3)
    out, _ = alone(xs[-1], tuple(s.clone() for s in state_before_last(m, xs)))
    out.sum().backward()
    for p, q in zip(m.parameters(), alone.parameters()):
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-12, atol=1e-12)


def state_before_last(m, xs):
    with torch.no_grad():
        state = None
        for x in xs[:-1]:
            _, state = m(x, state)
    return state


def test_a_state_kept_across_batches_without_detach_reaches_the_first_batch():
    m = module(nn.RNN, 2, 2)
    x0, x1 = leaf(2, 1, 2), leaf(2, 1, 2, seed=1)
    _, h = m(x0)
    out, _ = m(x1, h)
    out.sum().backward()
    assert x0.grad is not None and np.abs(x0.grad.numpy()).sum() > 0


def test_the_graph_has_one_node_per_op_per_step():
    """PyTorch's CPU graph: one input linear for the sequence, its unbind, then per step
    AddmmBackward0 (hidden), AddBackward0, TanhBackward0; one StackBackward0."""
    m = module(nn.RNN, 2, 3)
    out, _ = m(leaf(4, 1, 2))
    seen, todo, count = set(), [out.grad_fn], {}
    while todo:
        fn = todo.pop()
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        count[type(fn).__name__] = count.get(type(fn).__name__, 0) + 1
        todo.extend(f for f, _ in fn.next_functions)
    assert count["StackBackward0"] == 1 and count["UnbindBackward0"] == 1
    assert count["TanhBackward0"] == count["AddBackward0"] == 4
    assert count["AddmmBackward0"] == 5        # 4 steps + the whole sequence's input linear
    assert count["AccumulateGrad"] == 4 + 1     # the 4 parameters and the input


def test_threads_get_the_gradients_of_one_thread():
    m = module(nn.LSTM, 2, 3)
    xs = [leaf(3, 2, 2, seed=s) for s in range(6)]
    expected = []
    for x in xs:
        out, _ = m(x)
        expected.append(torch.autograd.grad(out.sum(), list(m.parameters()) + [x]))
    results = [None] * len(xs)

    def work(i):
        out, _ = m(xs[i])
        results[i] = torch.autograd.grad(out.sum(), list(m.parameters()) + [xs[i]])
    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(xs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got, want in zip(results, expected):
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.numpy(), w.numpy())


def test_init_draws_every_parameter_in_order_from_the_global_generator():
    torch.manual_seed(0)
    m = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    torch.manual_seed(0)
    expected = [torch.empty(p.shape).uniform_(-0.5, 0.5) for p in m.parameters()]
    for p, e in zip(m.parameters(), expected):
        np.testing.assert_array_equal(p.detach().numpy(), e.numpy())
    assert len(expected) == 16 and all(p.abs().max().item() <= 0.5 for p in m.parameters())


def test_to_double_keeps_the_parameters_the_layers_use():
    m = module(nn.GRU, 2, 2)
    out, h = m(leaf(2, 1, 2))
    assert out.dtype == torch.float64 and h.dtype == torch.float64
    assert [n for n, _ in m.named_parameters()] == ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"]


@pytest.mark.parametrize("call, error, message", [
    (lambda: nn.LSTM(4, 3, proj_size=2), NotImplementedError, "proj_size"),
    (lambda: nn.RNN(4, 3)(torch.randn(0, 2, 4)), RuntimeError, "Expected sequence length to be larger than 0 in RNN"),
    (lambda: nn.GRU(4, 3)(torch.randn(2, 2, 3)), RuntimeError, "input.size(-1) must be equal to input_size"),
    (lambda: nn.LSTMCell(4, 3)(torch.randn(2, 4), (torch.randn(2, 3),)), RuntimeError,
     "lstm_cell expects two hidden states"),
])
def test_misuse_raises(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert message in str(info.value)


def test_the_checks_can_fail():
    """A wrong derivative is caught: a GRU cell behind an identity whose
    backward doubles the gradient fails gradcheck."""
    m = module(nn.GRUCell, 2, 2)

    class Wrong(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1

        @staticmethod
        def backward(ctx, g):
            return g * 2

    def f(x, h):
        return m(Wrong.apply(x), h)
    with pytest.raises(GradcheckError):
        gradcheck(f, (leaf(2, 2), leaf(2, 2, seed=1)))


@pytest.mark.parametrize("join", [lambda a: torch.stack([a.sin()], 1), lambda a: torch.cat([a.sin()])],
                         ids=["stack", "cat"])
def test_a_join_of_one_tensor_has_a_second_derivative(join):
    """A one-layer RNN's h_n is stack() of one tensor: its double backward
    once failed (the rule's list of one gradient was taken for the gradient)."""
    assert gradgradcheck(join, (leaf(2, 3),))


@pytest.mark.parametrize("cls", [nn.RNN, nn.GRU, nn.LSTM], ids=["RNN", "GRU", "LSTM"])
def test_an_empty_batch_gives_empty_outputs_and_zero_gradients(cls):
    m = module(cls, 2, 3)
    out, state = m(leaf(4, 0, 2))
    h = state[0] if isinstance(state, tuple) else state
    assert tuple(out.shape) == (4, 0, 3) and tuple(h.shape) == (1, 0, 3)
    out.sum().backward()
    assert all(p.grad is not None and not p.grad.numpy().any() for p in m.parameters())


def test_a_long_sequence_backpropagates_through_every_step():
    """2000 steps: a deep graph (some 8000 nodes) that the engine walks without recursion."""
    m = module(nn.RNN, 1, 1)
    x = leaf(2000, 1, 1)
    out, h = m(x)
    h.sum().backward()
    assert x.grad[0].abs().item() < x.grad[-1].abs().item()     # the first step's influence has faded
    assert np.isfinite(m.weight_hh_l0.grad.numpy()).all()
