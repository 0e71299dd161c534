"""nn.RNN, nn.GRU, nn.LSTM and their one-step cells, built from ops the
package already has, in the order PyTorch runs them on the CPU
(aten/src/ATen/native/RNN.cpp), so the graph has PyTorch's nodes:

    x_w = linear(input, w_ih, b_ih)       one AddmmBackward0 for the whole sequence,
    for x_t in x_w.unbind(0):             then one UnbindBackward0,
        h = cell(x_t, h)                  the cell's nodes at every step
    output = stack(outputs, 0)            and StackBackward0 (CatBackward0 of
                                          the two directions if bidirectional)

The weights are the same Parameters at every step: their gradient is the sum
of every step's (backpropagation through time). PyTorch writes some of the
cells' ops in place (add_, sigmoid_, mul_); they record the same nodes as the
out-of-place ops used here.

Differences from PyTorch: an LSTM in float32 on the CPU runs in PyTorch as
one fused oneDNN kernel (MkldnnRnnLayerBackward0 per layer); here it is the
cell below, as PyTorch records it in float64. With batch_first PyTorch turns
the output around in place (TransposeBackward1); here it is transpose
(TransposeBackward0). No PackedSequence and no proj_size.
"""
import math
import numbers
import warnings

from ...compat import creation
from ...core.ops.multi_output import unsafe_chunk
from ...compat.more_functions import cat, stack
from ...compat.device import check as check_device
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


# -- the cells: one step ---------------------------------------------------------------------
def input_part(x, w_ih, b_ih):
    """x @ w_ih.T + b_ih. A layer passes w_ih=None: it has computed that
    already, for the whole sequence at once."""
    return x if w_ih is None else F.linear(x, w_ih, b_ih)


def rnn_tanh_cell(x, h, w_ih, w_hh, b_ih, b_hh):
    """h' = tanh(h @ w_hh.T + b_hh + x @ w_ih.T + b_ih)"""
    return F.linear(h, w_hh, b_hh).add(input_part(x, w_ih, b_ih)).tanh()


def rnn_relu_cell(x, h, w_ih, w_hh, b_ih, b_hh):
    """h' = relu(h @ w_hh.T + b_hh + x @ w_ih.T + b_ih)"""
    return F.linear(h, w_hh, b_hh).add(input_part(x, w_ih, b_ih)).relu()


def gru_cell(x, h, w_ih, w_hh, b_ih, b_hh):
    """Gates in PyTorch's order r, z, n (reset, update, new), each a third of
    x @ w_ih.T + b_ih (x_r, x_z, x_n) and of h @ w_hh.T + b_hh (h_r, h_z, h_n):
    r = sigmoid(h_r + x_r), z = sigmoid(h_z + x_z), n = tanh(x_n + h_n * r),
    h' = (h - n) * z + n   (that is, (1 - z) * n + z * h)."""
    x_r, x_z, x_n = unsafe_chunk(input_part(x, w_ih, b_ih), 3, 1)
    h_r, h_z, h_n = unsafe_chunk(F.linear(h, w_hh, b_hh), 3, 1)
    r = h_r.add(x_r).sigmoid()
    z = h_z.add(x_z).sigmoid()
    n = x_n.add(h_n.mul(r)).tanh()
    return h.sub(n).mul(z).add(n)


def lstm_cell(x, hc, w_ih, w_hh, b_ih, b_hh):
    """Gates in PyTorch's order i, f, g, o (input, forget, cell, output), each
    a quarter of h @ w_hh.T + b_hh + x @ w_ih.T + b_ih:
    c' = sigmoid(f) * c + sigmoid(i) * tanh(g),  h' = sigmoid(o) * tanh(c')."""
    h, c = hc
    gates = F.linear(h, w_hh, b_hh).add(input_part(x, w_ih, b_ih))
    i, f, g, o = unsafe_chunk(gates, 4, 1)
    i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
    c = f.mul(c).add(i.mul(g))
    return o.mul(c.tanh()), c


def _output_of(hidden):
    """What a step outputs: h (an LSTM's hidden is the pair (h, c))."""
    return hidden[0] if isinstance(hidden, tuple) else hidden


def run_layer(cell, input, hidden, weights, reverse=False):
    """One direction of one layer over the whole sequence (PyTorch's FullLayer):
    input (seq, batch, features) -> outputs (seq, batch, hidden), last hidden."""
    w_ih, w_hh, b_ih, b_hh = weights
    steps = F.linear(input, w_ih, b_ih).unbind(0)
    if len(steps) == 0:
        raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
    outputs = []
    for x_w in (reversed(steps) if reverse else steps):
        hidden = cell(x_w, hidden, None, w_hh, None, b_hh)
        outputs.append(_output_of(hidden))
    if reverse:
        outputs.reverse()
    return stack(outputs, 0), hidden


# -- the modules ----------------------------------------------------------------------------
class RNNBase(Module):
    """What RNN, GRU and LSTM share: the parameters of every layer and
    direction, PyTorch's checks and repr, and the stack of layers."""
    gates = {"RNN_TANH": 1, "RNN_RELU": 1, "GRU": 3, "LSTM": 4}

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        check_device(device)
        super().__init__()
        self.mode, self.input_size, self.hidden_size, self.num_layers = mode, input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        _check_arguments(input_size, hidden_size, num_layers, bias, batch_first, dropout, proj_size)
        if proj_size:
            raise NotImplementedError("autograd_teach: LSTM with proj_size > 0 is not implemented")
        self._flat_weights_names, self._all_weights = [], []
        for layer in range(num_layers):
            for suffix in ("", "_reverse")[:self.num_directions]:
                self._add_layer(layer, suffix, dtype)
        self.reset_parameters()

    @property
    def num_directions(self):
        return 2 if self.bidirectional else 1

    def _add_layer(self, layer, suffix, dtype):
        """weight_ih_l{layer}{suffix}, weight_hh_..., bias_ih_..., bias_hh_..., as PyTorch names them."""
        gate_size = self.gates[self.mode] * self.hidden_size
        layer_input = self.input_size if layer == 0 else self.hidden_size * self.num_directions
        shapes = {"weight_ih": (gate_size, layer_input), "weight_hh": (gate_size, self.hidden_size)}
        if self.bias:
            shapes.update(bias_ih=(gate_size,), bias_hh=(gate_size,))
        names = []
        for kind, shape in shapes.items():
            names.append(f"{kind}_l{layer}{suffix}")
            setattr(self, names[-1], Parameter(creation.empty(shape, dtype=dtype)))
        self._flat_weights_names.extend(names)
        self._all_weights.append(names)

    def reset_parameters(self):
        """Every parameter uniform(-1/sqrt(hidden_size), 1/sqrt(hidden_size)),
        in named_parameters() order, from the global generator."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    @property
    def all_weights(self):
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def _layer_weights(self, index):
        """(w_ih, w_hh, b_ih, b_hh) of layer-and-direction `index` (biases None without bias)."""
        names = self._all_weights[index]
        w_ih, w_hh = getattr(self, names[0]), getattr(self, names[1])
        return (w_ih, w_hh, getattr(self, names[2]), getattr(self, names[3])) if self.bias else (w_ih, w_hh, None, None)

    def check_input(self, input):
        weight = getattr(self, self._flat_weights_names[0])
        if input.dtype != weight.dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight.dtype}). "
                             f"Convert input: input.to({weight.dtype}), or convert model: model.to({input.dtype})")
        if input.dim() != 3:
            raise RuntimeError(f"input must have 3 dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                               f"got {input.size(-1)}")

    def get_expected_hidden_size(self, input):
        mini_batch = input.size(0) if self.batch_first else input.size(1)
        return (self.num_layers * self.num_directions, mini_batch, self.hidden_size)

    @staticmethod
    def check_hidden_size(hx, expected, msg="Expected hidden size {}, got {}"):
        if tuple(hx.size()) != expected:
            raise RuntimeError(msg.format(expected, list(hx.size())))

    def _zeros(self, input):
        """The default h0 (and c0): zeros (num_layers * num_directions, batch, hidden_size)."""
        return creation.zeros(self.get_expected_hidden_size(input), dtype=input.dtype)

    def _run(self, cell, input, hiddens):
        """The layers, bottom to top (PyTorch's apply_layer_stack); dropout
        between layers in training. Returns the output and each layer's last hidden."""
        if self.batch_first:
            input = input.transpose(0, 1)
        finals = []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(self.num_directions):
                index = layer * self.num_directions + direction
                out, last = run_layer(cell, input, hiddens[index], self._layer_weights(index), reverse=direction == 1)
                outputs.append(out)
                finals.append(last)
            input = outputs[0] if len(outputs) == 1 else cat(outputs, outputs[0].dim() - 1)
            if self.dropout != 0 and self.training and layer < self.num_layers - 1:
                input = F.dropout(input, self.dropout, True)
        return (input.transpose(0, 1) if self.batch_first else input), finals

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


def _check_arguments(input_size, hidden_size, num_layers, bias, batch_first, dropout, proj_size):
    """PyTorch's checks of RNNBase's arguments, in its order."""
    if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
        raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                         "element being zeroed")
    if dropout > 0 and num_layers == 1:
        warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                      f"expects num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
                      stacklevel=4)
    for name, value, kind in (("bias", bias, bool), ("batch_first", batch_first, bool),
                              ("input_size", input_size, int)):
        if not isinstance(value, kind):
            raise TypeError(f"{name} should be of type {kind.__name__}, got: {type(value).__name__}")
    if input_size <= 0:
        raise ValueError("input_size must be greater than zero")
    if not isinstance(hidden_size, int):
        raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
    if hidden_size <= 0:
        raise ValueError("hidden_size must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")


class _OneHidden(RNNBase):
    """RNN and GRU: the hidden state is one tensor (num_layers * num_directions, batch, hidden_size)."""
    name = None

    def forward(self, input, hx=None):
        if input.dim() not in (2, 3):
            raise ValueError(f"{self.name}: Expected input to be 2D or 3D, got {input.dim()}D{self.tensor_word} "
                             "instead")
        batched, batch_dim = input.dim() == 3, 0 if self.batch_first else 1
        if not batched:
            input = input.unsqueeze(batch_dim)
            if hx is not None:
                if hx.dim() != 2:
                    raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor")
                hx = hx.unsqueeze(1)
        elif hx is not None and hx.dim() != 3:
            raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
        if hx is None:
            hx = self._zeros(input)
        self.check_input(input)
        self.check_hidden_size(hx, self.get_expected_hidden_size(input))
        output, finals = self._run(self.cell, input, hx.unbind(0))
        hidden = stack(finals, 0)
        if not batched:
            return output.squeeze(batch_dim), hidden.squeeze(1)
        return output, hidden


class RNN(_OneHidden):
    """h_t = tanh(x_t @ w_ih.T + b_ih + h_(t-1) @ w_hh.T + b_hh)   (or relu)"""
    name, tensor_word = "RNN", " tensor"     # PyTorch's RNN says "got 4D tensor instead", its GRU "got 4D instead"

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__("RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU", *args, **kwargs)

    def cell(self, *args):
        return (rnn_tanh_cell if self.mode == "RNN_TANH" else rnn_relu_cell)(*args)


class GRU(_OneHidden):
    """The gated recurrent unit: gru_cell at every step."""
    name, tensor_word = "GRU", ""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    cell = staticmethod(gru_cell)


class LSTM(RNNBase):
    """Long short-term memory: lstm_cell at every step; the state is (h, c)."""

    cell = staticmethod(lstm_cell)

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def forward(self, input, hx=None):
        if input.dim() not in (2, 3):
            raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.dim()}D instead")
        batched, batch_dim = input.dim() == 3, 0 if self.batch_first else 1
        if not batched:
            input = input.unsqueeze(batch_dim)
        if hx is None:
            hx = (self._zeros(input), self._zeros(input))
        else:
            _check_state_dims(hx, batched)
            if not batched:
                hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        self.check_input(input)
        expected = self.get_expected_hidden_size(input)
        self.check_hidden_size(hx[0], expected, "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hx[1], expected, "Expected hidden[1] size {}, got {}")
        output, finals = self._run(self.cell, input, list(zip(hx[0].unbind(0), hx[1].unbind(0))))
        h, c = stack([h for h, _ in finals], 0), stack([c for _, c in finals], 0)
        if not batched:
            return output.squeeze(batch_dim), (h.squeeze(1), c.squeeze(1))
        return output, (h, c)


def _check_state_dims(hx, batched):
    dims = (hx[0].dim(), hx[1].dim())
    if batched and dims != (3, 3):
        raise RuntimeError(f"For batched 3-D input, hx and cx should also be 3-D but got ({dims[0]}-D, {dims[1]}-D) "
                           "tensors")
    if not batched and dims != (2, 2):
        raise RuntimeError(f"For unbatched 2-D input, hx and cx should also be 2-D but got ({dims[0]}-D, "
                           f"{dims[1]}-D) tensors")


# -- the cells as modules: one step, input (batch, input_size) or (input_size,) --------------
class RNNCellBase(Module):
    """weight_ih (chunks * hidden, input), weight_hh (chunks * hidden, hidden),
    bias_ih and bias_hh, initialised as the layers' are."""
    name, chunks = None, 1

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        check_device(device)
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        gate_size = self.chunks * hidden_size
        self.weight_ih = Parameter(creation.empty((gate_size, input_size), dtype=dtype))
        self.weight_hh = Parameter(creation.empty((gate_size, hidden_size), dtype=dtype))
        if bias:
            self.bias_ih = Parameter(creation.empty(gate_size, dtype=dtype))
            self.bias_hh = Parameter(creation.empty(gate_size, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    reset_parameters = RNNBase.reset_parameters

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def forward(self, input, hx=None):
        """A 1-D input (and state) is a batch of one; a missing state is zeros."""
        if input.dim() not in (1, 2):
            raise ValueError(f"{self.name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        self._check_state_dims(hx)
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = self._zeros(input)
        elif not batched:
            hx = tuple(h.unsqueeze(0) for h in hx) if isinstance(hx, tuple) else hx.unsqueeze(0)
        _check_cell(input, hx, self.input_size, self.hidden_size)
        out = self.cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        if not batched:
            return tuple(o.squeeze(0) for o in out) if isinstance(out, tuple) else out.squeeze(0)
        return out

    def _check_state_dims(self, hx):
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{self.name}: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")

    def _zeros(self, input):
        return creation.zeros((input.size(0), self.hidden_size), dtype=input.dtype)


class RNNCell(RNNCellBase):
    """One step of RNN: rnn_tanh_cell (or rnn_relu_cell)."""
    name = "RNNCell"

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        check_device(device)
        super().__init__(input_size, hidden_size, bias, device, dtype)
        self.nonlinearity = nonlinearity

    def cell(self, *args):
        if self.nonlinearity == "tanh":
            return rnn_tanh_cell(*args)
        if self.nonlinearity == "relu":
            return rnn_relu_cell(*args)
        raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")


class GRUCell(RNNCellBase):
    """One step of GRU: gru_cell."""
    name, chunks = "GRUCell", 3
    cell = staticmethod(gru_cell)


class LSTMCell(RNNCellBase):
    """One step of LSTM: lstm_cell; the state is the pair (h, c)."""
    name, chunks = "LSTMCell", 4
    cell = staticmethod(lstm_cell)

    def _check_state_dims(self, hx):
        for idx, value in enumerate(hx or ()):
            if value.dim() not in (1, 2):
                raise ValueError(f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got {value.dim()}D instead")

    def _zeros(self, input):
        zeros = super()._zeros(input)
        return zeros, zeros


def _check_cell(input, hidden, input_size, hidden_size):
    """PyTorch's checks in rnn_tanh_cell, gru_cell, lstm_cell (check_rnn_cell_forward_*)."""
    if isinstance(hidden, tuple) and len(hidden) != 2:
        raise RuntimeError("lstm_cell expects two hidden states")
    if input.size(1) != input_size:
        raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected {input_size}")
    for label, h in enumerate(hidden if isinstance(hidden, tuple) else (hidden,)):
        if input.size(0) != h.size(0):
            raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{label} batch size {h.size(0)}")
        if h.size(1) != hidden_size:
            raise RuntimeError(f"hidden{label} has inconsistent hidden_size: got {h.size(1)}, expected {hidden_size}")
