# Asking a CPU-only PyTorch for a GPU: device strings parse, but a tensor (or a
# module's parameters) cannot be put there. Loading a BatchNorm state dict
# that lacks num_batches_tracked, and backward/grad with empty inputs.
import torch
import torch.nn as nn


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


t = torch.ones(2)
# ('mps' factories and 'meta' differ: PyTorch's CPU build makes meta tensors; here only the CPU is)
for d in ["cuda", "cuda:0", "cuda:1", "cpu", "cpu:0", "gpu", "CUDA", "xpu", 0, "cuda:x", "gpu:0"]:
    attempt(f"to({d!r})", lambda: t.to(d))
    attempt(f"to(device={d!r})", lambda: t.to(device=d))
    attempt(f"ones(device={d!r})", lambda: torch.ones(2, device=d))
    attempt(f"tensor(device={d!r})", lambda: torch.tensor([1.], device=d))
    attempt(f"torch.device({d!r})", lambda: repr(torch.device(d)))
attempt("to('mps')", lambda: t.to("mps"))
attempt("tensor(device='mps')", lambda: torch.tensor([1.], device="mps"))
attempt("torch.device('cuda', 1)", lambda: repr(torch.device("cuda", 1)))
attempt("device('cpu') == 'cpu'", lambda: torch.device("cpu") == "cpu")
attempt("device('cpu') == device('cpu')", lambda: torch.device("cpu") == torch.device("cpu"))
attempt("t.device == device('cpu:0')", lambda: t.device == torch.device("cpu:0"))
attempt("to(torch.device('cuda'))", lambda: t.to(torch.device("cuda")))
attempt("to(torch.device('cpu'))", lambda: t.to(torch.device("cpu")))
attempt("to('cuda', torch.float64)", lambda: t.to("cuda", torch.float64))
attempt("to('cpu', torch.float64)", lambda: t.to("cpu", torch.float64))
attempt("to(other)", lambda: t.to(torch.ones(1, dtype=torch.float64)))
attempt("t.cuda()", lambda: t.cuda())
attempt("t.cuda(0)", lambda: t.cuda(0))
attempt("t.cpu()", lambda: t.cpu())
attempt("Linear.to('cuda:0')", lambda: nn.Linear(2, 2).to("cuda:0"))
attempt("Linear.to(device='cuda')", lambda: nn.Linear(2, 2).to(device="cuda"))
attempt("Linear.to('cpu')", lambda: nn.Linear(2, 2).to("cpu"))
attempt("Linear.cuda()", lambda: nn.Linear(2, 2).cuda())
attempt("Linear.cpu()", lambda: nn.Linear(2, 2).cpu())
attempt("Linear(device='cuda')", lambda: nn.Linear(2, 2, device="cuda"))
attempt("Conv2d(device='cuda')", lambda: nn.Conv2d(1, 1, 3, device="cuda"))
attempt("BatchNorm1d(device='cuda')", lambda: nn.BatchNorm1d(2, device="cuda"))
attempt("Embedding(device='cuda')", lambda: nn.Embedding(2, 2, device="cuda"))
attempt("LayerNorm(device='cuda')", lambda: nn.LayerNorm(2, device="cuda"))
attempt("GRU(device='cuda')", lambda: nn.GRU(2, 2, device="cuda"))
attempt("Linear.to(torch.float64)", lambda: nn.Linear(2, 2).to(torch.float64).weight.dtype)
for name in ["zeros", "ones", "empty", "rand", "randn", "arange", "eye"]:
    attempt(f"{name}(device='cuda')", lambda: getattr(torch, name)(2, device="cuda"))
for name in ["zeros_like", "ones_like", "empty_like", "rand_like", "randn_like"]:
    attempt(f"{name}(device='cuda')", lambda: getattr(torch, name)(t, device="cuda"))
attempt("full(device='cuda')", lambda: torch.full((2,), 1.0, device="cuda"))
attempt("linspace(device='cuda')", lambda: torch.linspace(0, 1, 3, device="cuda"))
attempt("randint(device='cuda')", lambda: torch.randint(3, (2,), device="cuda"))
attempt("randperm(device='cuda')", lambda: torch.randperm(3, device="cuda"))
for name in ["new_zeros", "new_ones", "new_empty"]:
    attempt(f"t.{name}(device='cuda')", lambda: getattr(t, name)(2, device="cuda"))
attempt("t.new_full(device='cuda')", lambda: t.new_full((2,), 1.0, device="cuda"))
attempt("t.new_tensor(device='cuda')", lambda: t.new_tensor([1.0], device="cuda"))
attempt("t.device, t.is_cuda", lambda: (t.device, t.is_cuda))
attempt("cuda.is_available()", lambda: torch.cuda.is_available())
device = "cuda" if torch.cuda.is_available() else "cpu"
attempt("the usual idiom", lambda: nn.Linear(2, 1).to(device)(torch.ones(1, 2, device=device)).shape)


# -- a BatchNorm state dict without num_batches_tracked ------------------------
def load(strict, plain, seq=False, track=True):
    m = nn.BatchNorm1d(3, track_running_stats=track)
    if seq:
        m = nn.Sequential(nn.Linear(3, 3), m)
    m.train()
    m(torch.randn(4, 3))
    m(torch.randn(4, 3))
    sd = m.state_dict()
    key = "1.num_batches_tracked" if seq else "num_batches_tracked"
    if key in sd:
        del sd[key]
    if plain:   # a dict built by hand carries no version metadata
        sd = {k: v for k, v in sd.items()}
    result = m.load_state_dict(sd, strict=strict)
    return result, (m[1] if seq else m).num_batches_tracked


for strict in (True, False):
    for plain in (False, True):
        for seq in (False, True):
            attempt(f"load strict={strict} plain={plain} in Sequential={seq}", lambda: load(strict, plain, seq))
attempt("load without running stats", lambda: load(True, False, track=False))
attempt("state_dict()._metadata", lambda: dict(nn.Sequential(nn.Linear(1, 1), nn.BatchNorm1d(1)).state_dict()._metadata))


def unexpected_and_missing():
    m = nn.BatchNorm1d(3)
    sd = m.state_dict()
    sd["foo"] = torch.ones(1)
    del sd["running_mean"]
    return m.load_state_dict(sd)


attempt("unexpected and missing keys", unexpected_and_missing)

# -- backward / grad with no inputs --------------------------------------------
x = torch.ones(2, requires_grad=True)
attempt("backward(inputs=[])", lambda: (x * 2).sum().backward(inputs=[]))
attempt("backward(inputs=())", lambda: (x * 2).sum().backward(inputs=()))
attempt("autograd.backward(inputs=[])", lambda: torch.autograd.backward((x * 2).sum(), inputs=[]))
attempt("autograd.grad(y, [])", lambda: torch.autograd.grad((x * 2).sum(), []))
attempt("backward(inputs=x)", lambda: ((x * 2).sum().backward(inputs=x), x.grad))
