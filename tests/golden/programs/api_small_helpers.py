# The small API a learner meets in other people's code: finfo/iinfo,
# new_zeros & co., count_nonzero/nonzero, atan2, Variable, torch.cuda on a
# CPU machine, and anomaly detection naming the node that made a nan.
import torch


def attempt(f):
    try:
        print(f())
    except Exception as e:  # noqa: BLE001 - the error is what is printed
        print(type(e).__name__, e)


for dt in [torch.float32, torch.float64, torch.float16]:
    f = torch.finfo(dt)
    print(f, f.bits, f.eps, f.max, f.min, f.tiny, f.resolution, f.dtype)
print(torch.finfo())
for dt in [torch.int64, torch.int32, torch.uint8, torch.int8, torch.int16, torch.bool]:
    attempt(lambda: (torch.iinfo(dt), torch.iinfo(dt).bits, torch.iinfo(dt).max, torch.iinfo(dt).min))
attempt(lambda: torch.finfo(torch.int64))
attempt(lambda: torch.iinfo(torch.float32))
x = torch.tensor([[1., 0.], [3., 4.]], requires_grad=True)
print(x.new_zeros(2), x.new_ones((1, 2)), x.new_full((2,), 3), x.new_full((2,), 3, dtype=torch.int64),
      x.new_tensor([1, 2]), x.new_tensor([1., 2.], requires_grad=True), x.new_empty(0), x.new_zeros(2, 3).shape)
print(torch.count_nonzero(x), x.count_nonzero(0), torch.count_nonzero(x, dim=1), x.nonzero(),
      torch.nonzero(x > 3, as_tuple=True), torch.nonzero(torch.tensor(5)))
print(torch.autograd.Variable(torch.ones(2), requires_grad=True), torch.autograd.Variable(torch.ones(2)).requires_grad)
print(torch.cuda.is_available(), torch.cuda.device_count(), torch.device("cuda" if torch.cuda.is_available() else "cpu"))
y = torch.atan2(x, x + 1)
print(y)
y.sum().backward()
print(x.grad)
x.grad = None
with torch.autograd.detect_anomaly():
    print((x * 2).sum())
print(torch.is_anomaly_enabled())
z = torch.tensor([0., 1.], requires_grad=True)
torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled())
attempt(lambda: (z.sqrt() * 0).sum().backward())
print(z.grad)
attempt(lambda: (z / z).sum().backward())
print(z.grad)
torch.autograd.set_detect_anomaly(False)
(z / z).sum().backward()
print(z.grad, torch.is_anomaly_enabled())
z.grad = None
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    (z / z).sum().backward()
    print(z.grad, torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
print(torch.is_anomaly_enabled())
