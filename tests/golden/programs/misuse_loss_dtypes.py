# Losses called with tensors of the wrong dtype or shape: PyTorch's error for
# each (integer logits, integer targets where floats are needed and the
# reverse, a 2-D class target, a weight of the wrong size), in its order.
import warnings

import torch
import torch.nn.functional as F

warnings.simplefilter("ignore")   # kl_div's 'mean' warning and the size warnings: not the point here


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out, out.dtype)
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


i2 = torch.tensor([[1, 2], [3, 4]])
f2 = torch.tensor([[0.2, 0.8], [0.6, 0.4]])
for name in ["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy",
             "binary_cross_entropy_with_logits", "kl_div"]:
    fn = getattr(F, name)
    attempt(f"{name}(long, long)", lambda: fn(i2, i2))
    attempt(f"{name}(float, long)", lambda: fn(f2, i2))
    attempt(f"{name}(long, float)", lambda: fn(i2, f2))
    attempt(f"{name}(float, double)", lambda: fn(f2, f2.double()))
    attempt(f"{name}(double, float)", lambda: fn(f2.double(), f2))
    attempt(f"{name}(float, bool)", lambda: fn(f2, f2 > 0.5))
    attempt(f"{name}(bool, bool)", lambda: fn(f2 > 0.5, f2 > 0.5))
    attempt(f"{name}(int32, float)", lambda: fn(i2.int(), f2))
    attempt(f"{name}(float, uint8)", lambda: fn(f2, i2.to(torch.uint8)))

li = torch.tensor([0, 1])
for name in ["cross_entropy", "nll_loss"]:
    fn = getattr(F, name)
    attempt(f"{name}(long logits)", lambda: fn(i2, li))
    attempt(f"{name}(double logits)", lambda: fn(f2.double(), li))
    attempt(f"{name}(2-D target)", lambda: fn(f2, li[:, None]))
    attempt(f"{name}(float target of the input's shape)", lambda: fn(f2, f2))
    attempt(f"{name}(float 1-D target)", lambda: fn(f2, li.float()))
    attempt(f"{name}(int32 target)", lambda: fn(f2, li.int()))
    attempt(f"{name}(bool target)", lambda: fn(f2, li.bool()))
    attempt(f"{name}(uint8 target)", lambda: fn(f2, li.to(torch.uint8)))
    attempt(f"{name}(target out of range)", lambda: fn(f2, torch.tensor([0, 2])))
    attempt(f"{name}(negative target)", lambda: fn(f2, torch.tensor([0, -2])))
    attempt(f"{name}(batch sizes differ)", lambda: fn(f2, torch.tensor([0, 1, 1])))
    attempt(f"{name}(1-D input, 0-d target)", lambda: fn(f2[0], torch.tensor(1)))
    attempt(f"{name}(1-D input, 1-D target)", lambda: fn(f2[0], torch.tensor([1])))
    attempt(f"{name}(2-D input, 0-d target)", lambda: fn(f2, torch.tensor(1)))
    attempt(f"{name}(0-d input)", lambda: fn(torch.tensor(1.), torch.tensor(0)))
    attempt(f"{name}(weight of 3 for 2 classes)", lambda: fn(f2, li, weight=torch.ones(3)))
    attempt(f"{name}(weight of shape [1, 2])", lambda: fn(f2, li, weight=torch.ones(1, 2)))
    attempt(f"{name}(double weight)", lambda: fn(f2, li, weight=torch.ones(2, dtype=torch.float64)))
    attempt(f"{name}(long logits, float target)", lambda: fn(i2, li.float()))
attempt("cross_entropy(long probabilities)", lambda: F.cross_entropy(f2, torch.tensor([[0, 1], [1, 0]])))
attempt("cross_entropy(probabilities, ignore_index=1)", lambda: F.cross_entropy(f2, f2, ignore_index=1))
attempt("cross_entropy(label_smoothing=1.5)", lambda: F.cross_entropy(f2, li, label_smoothing=1.5))
attempt("cross_entropy(probabilities, label_smoothing=1.5)", lambda: F.cross_entropy(f2, f2, label_smoothing=1.5))
attempt("cross_entropy(label_smoothing=-0.5)", lambda: F.cross_entropy(f2, li, label_smoothing=-0.5))
attempt("cross_entropy(probabilities, label_smoothing=-0.5)", lambda: F.cross_entropy(f2, f2, label_smoothing=-0.5))
attempt("cross_entropy(long logits, label_smoothing=0.1)", lambda: F.cross_entropy(i2, li, label_smoothing=0.1))
attempt("cross_entropy(2-D target, label_smoothing=0.1)", lambda: F.cross_entropy(f2, li[:, None], label_smoothing=0.1))
attempt("cross_entropy(long logits, float probabilities)", lambda: F.cross_entropy(i2, f2))
attempt("cross_entropy(float, double probabilities)", lambda: F.cross_entropy(f2, f2.double()))
for t in (i2, i2 > 2):
    attempt(f"{t.dtype}.softmax(1)", lambda: t.softmax(1))
    attempt(f"{t.dtype}.softmax(0)", lambda: t.softmax(0))
    attempt(f"{t.dtype}.log_softmax(1)", lambda: t.log_softmax(1))
    attempt(f"{t.dtype}.log_softmax(0)", lambda: t.log_softmax(0))
    attempt(f"F.softmax({t.dtype}, 1)", lambda: F.softmax(t, 1))
    attempt(f"F.log_softmax({t.dtype}, -1)", lambda: F.log_softmax(t, -1))
attempt("long.log_softmax(1, dtype=float)", lambda: i2.log_softmax(1, dtype=torch.float32))
attempt("long 1-D softmax(0)", lambda: i2[0].softmax(0))
