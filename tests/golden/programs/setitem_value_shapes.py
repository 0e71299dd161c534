# x[index] = value where value's shape is not the region's: PyTorch views the
# value without its leading 1s and expands it (copy_to), so a (1, 1) value
# fills one element and a (1, 3) value a row; the gradient flows back through
# ViewBackward0 / ExpandBackward0 to the value's shape. (d2l 8.1's
# multistep_preds[i] = net(...) writes a (1, 1) output into one element.)
import torch


def show(fn, depth=0):
    print("  " * depth + (type(fn).__name__ if fn is not None else "None"))
    if fn is not None:
        for g, _ in fn.next_functions:
            show(g, depth + 1)


x = torch.arange(5.0, requires_grad=True)
for vshape, idx in [((1, 1), 2), ((1,), 2), ((1, 3), slice(1, 4)), ((3,), slice(1, 4)), ((1, 1), slice(1, 4)),
                    ((), 2), ((2, 1), slice(0, 2)), ((1, 1, 1), -1)]:
    v = torch.full(vshape, 7.0, requires_grad=True)
    y = x.clone()
    try:
        y[idx] = v * 2
    except Exception as e:
        print(vshape, idx, type(e).__name__, e)
        continue
    print(vshape, idx, y)
    show(y.grad_fn)
    (y * torch.arange(1.0, 6.0)).sum().backward()
    print(x.grad, v.grad)
    x.grad = None

m = torch.zeros(2, 3)
m[0] = torch.ones(1, 3)
m[1, :] = torch.tensor([[5.0]])
m[:, 1] = torch.tensor([[8.0, 9.0]])
m[0:2] = torch.tensor([1.0, 2.0, 3.0])        # a row broadcast to the region: viewed, then expanded
print(m)
for bad in ((2, 3), (3, 1)):
    try:
        m[0] = torch.ones(bad)
    except Exception as e:
        print(bad, type(e).__name__, e)

# advanced indices: index_put_ on the tensor itself (IndexPutBackward0) when
# beside them there are only `...` and whole-dim slices, else a view first
# (CopySlices); the value is viewed without its leading 1s and broadcast
w = torch.zeros(3, 3, requires_grad=True)
cases = [([0, 2], (1, 3)), ([0, 2], (3,)), ([0, 2], (1, 1, 3)), ((0, [0, 2]), (1, 2)), ([0, 2], (2, 1)),
         ((slice(None), [0, 2]), ()), ((Ellipsis, [1]), (3, 1)), ((slice(1, None), [0]), ()),
         (torch.tensor([True, False, True]), (3,)), ((torch.tensor([0, 1]), torch.tensor([1, 2])), (2,)),
         ([0, 0], (2, 3))]
for idx, vshape in cases:
    v = torch.arange(float(torch.Size(vshape).numel())).reshape(vshape).requires_grad_()
    y = w.clone()
    y[idx] = v * 2
    print(idx, vshape, y.grad_fn.name(), y.detach())
    if y.grad_fn.name() == "IndexPutBackward0":
        print(y.grad_fn._saved_indices, y.grad_fn._saved_accumulate)
    (y * torch.arange(9.0).reshape(3, 3)).sum().backward()
    print(w.grad, v.grad)
    w.grad = None
x = torch.ones(3, requires_grad=True)
for label, index in [("x[[0]] = 2", [0]), ("x[0] = 2", 0), ("x[..., [1]] = 2", (Ellipsis, [1]))]:
    try:
        x[index] = 2.0
    except RuntimeError as e:
        print(label, e)
# the double backward of x[indices] = v (the rule records IndexPutBackward0)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = w.clone()
y[[1]] = v * v
g, = torch.autograd.grad((y * y).sum(), v, create_graph=True)
print(g, g.grad_fn.name())
print(torch.autograd.grad(g.sum(), v))
