# Layers and products given tensors of another dtype (a float64 batch into a
# float32 model): PyTorch names the two dtypes, in its own words for each op.
import torch
import torch.nn as nn
import torch.nn.functional as F
def attempt(label, fn):
    try:
        print(label, "->", fn())
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])
lin = nn.Linear(2, 2)
attempt("linear f64 2d", lambda: lin(torch.ones(1, 2, dtype=torch.float64)))
attempt("linear f64 1d", lambda: lin(torch.ones(2, dtype=torch.float64)))
attempt("linear f64 3d", lambda: lin(torch.ones(1, 1, 2, dtype=torch.float64)))
attempt("linear int", lambda: lin(torch.ones(1, 2, dtype=torch.long)))
attempt("linear nobias f64", lambda: nn.Linear(2, 2, bias=False)(torch.ones(1, 2, dtype=torch.float64)))
attempt("linear nobias f64 1d", lambda: nn.Linear(2, 2, bias=False)(torch.ones(2, dtype=torch.float64)))
attempt("linear nobias f64 3d", lambda: nn.Linear(2, 2, bias=False)(torch.ones(1,1,2, dtype=torch.float64)))
attempt("F.linear f64 weight", lambda: F.linear(torch.ones(1, 2), torch.ones(2, 2, dtype=torch.float64)))
attempt("mm", lambda: torch.ones(1, 2, dtype=torch.float64).mm(torch.ones(2, 2)))
attempt("matmul", lambda: torch.ones(1, 2, dtype=torch.float64) @ torch.ones(2, 2))
attempt("matmul 1d", lambda: torch.ones(2, dtype=torch.float64) @ torch.ones(2, 2))
attempt("matmul 1d1d", lambda: torch.ones(2, dtype=torch.float64) @ torch.ones(2))
attempt("bmm", lambda: torch.ones(1, 1, 2, dtype=torch.float64).bmm(torch.ones(1, 2, 2)))
attempt("matmul 3d", lambda: torch.ones(1, 1, 2, dtype=torch.float64) @ torch.ones(2, 2))
attempt("conv f64", lambda: nn.Conv2d(1, 1, 1)(torch.ones(1, 1, 2, 2, dtype=torch.float64)))
attempt("addmm", lambda: torch.addmm(torch.ones(2), torch.ones(1, 2, dtype=torch.float64), torch.ones(2, 2)))
attempt("mv", lambda: torch.ones(2, 2, dtype=torch.float64).mv(torch.ones(2)))
attempt("dot", lambda: torch.ones(2, dtype=torch.float64).dot(torch.ones(2)))
attempt("linear int weight", lambda: lin(torch.ones(1, 2, dtype=torch.int32)))
attempt("emb float idx", lambda: nn.Embedding(3, 2)(torch.tensor([0.0])))
attempt("rnn f64", lambda: nn.RNN(2, 2)(torch.ones(1, 1, 2, dtype=torch.float64)))
attempt("bn f64", lambda: nn.BatchNorm1d(2)(torch.ones(3, 2, dtype=torch.float64)))
attempt("ln f64", lambda: nn.LayerNorm(2)(torch.ones(3, 2, dtype=torch.float64)))
x = torch.ones(3, 2)
for label, f in [("bn f64 stats", lambda: F.batch_norm(x, torch.zeros(2, dtype=torch.float64), torch.ones(2, dtype=torch.float64))), ("bn f64 weight", lambda: F.batch_norm(x, torch.zeros(2), torch.ones(2), torch.ones(2,dtype=torch.float64))), ("bn train f64 weight", lambda: F.batch_norm(x, torch.zeros(2), torch.ones(2), training=True, weight=torch.ones(2,dtype=torch.float64))),("bn double input", lambda: F.batch_norm(x.double(), None, None, training=True, weight=torch.ones(2))), ("ln double input", lambda: F.layer_norm(x.double(), (2,), torch.ones(2))), ("ln f64 bias", lambda: F.layer_norm(x, (2,), None, torch.ones(2, dtype=torch.float64))), ("bn long", lambda: F.batch_norm(x.long(), torch.zeros(2), torch.ones(2))), ("ln long", lambda: F.layer_norm(x.long(), (2,))),
  ("conv nobias f64", lambda: nn.Conv2d(1, 1, 1, bias=False)(torch.ones(1, 1, 2, 2, dtype=torch.float64))), ("conv1d f64", lambda: nn.Conv1d(1, 1, 1)(torch.ones(1, 1, 2, dtype=torch.float64))), ("conv f64 weight", lambda: F.conv2d(torch.ones(1,1,2,2), torch.ones(1,1,1,1,dtype=torch.float64))), ("conv f64 bias", lambda: F.conv2d(torch.ones(1,1,2,2), torch.ones(1,1,1,1), torch.ones(1, dtype=torch.float64))), ("conv long", lambda: nn.Conv2d(1,1,1)(torch.ones(1,1,2,2,dtype=torch.long))), ("ln no affine f64", lambda: nn.LayerNorm(2, elementwise_affine=False)(torch.ones(3, 2, dtype=torch.float64)).dtype)]:
    attempt(label, f)
