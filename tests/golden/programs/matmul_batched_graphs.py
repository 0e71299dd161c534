# matmul with a batched operand: PyTorch folds it into one mm/mv or expands it into one bmm,
# under _unsafe_view nodes; the graph, values, gradients and errors for 130 shape pairs,
# contiguous or not, with either or both operands requiring grad.
import torch, itertools
def g(fn):
    if fn is None: return ''
    return fn.name().replace('torch::autograd::', '') + '(' + ','.join(g(f) for f,_ in fn.next_functions if f is not None) + ')'
shapes = [(3,), (2,3), (3,2), (4,2,3), (4,3,2), (1,3), (2,4,2,3), (4,1,3,2), (1,2,3)]
out = []
for sa, sb in itertools.product(shapes, shapes):
    if len(sa) < 3 and len(sb) < 3: continue
    for ra, rb in [(True, True), (True, False), (False, True)]:
        for nc in [False, True]:
            a = torch.arange(1., 1. + torch.Size(sa).numel()).reshape(sa)
            if nc and len(sa) >= 2:
                a = a.transpose(-1, -2).contiguous().transpose(-1, -2)
            a.requires_grad_(ra)
            b = torch.arange(2., 2. + torch.Size(sb).numel()).reshape(sb).requires_grad_(rb)
            try:
                y = a @ b
                y.sum().backward()
                out.append(f"{sa}{'T' if nc else ''} {sb} {ra} {rb}: {list(y.shape)} {g(y.grad_fn)} {y.sum().item()} "
                           f"{None if a.grad is None else a.grad.sum().item()} {None if b.grad is None else b.grad.sum().item()}")
            except Exception as e:
                out.append(f"{sa}{'T' if nc else ''} {sb} {ra} {rb}: {type(e).__name__}: {str(e).splitlines()[0]}")
print("\n".join(out))

for sa, sb, ra, rb in [((1,2,3),(1,3,2),True,True), ((1,2,3),(1,3,2),True,False), ((1,2,3),(1,3,2),False,True),
                       ((2,3),(1,3,2),True,True), ((2,3),(1,3,2),False,True), ((1,2,3),(3,2),True,True), ((1,2,3),(3,2),True,False),
                       ((1,1,2,3),(4,3,2),True,False), ((4,1,2,3),(1,3,2),False,True), ((1,2,3),(3,),True,False), ((3,),(1,3,2),False,True),
                       ((1,2,3),(2,3,2),True,False), ((2,2,3),(1,3,2),False,True)]:
    a = torch.ones(sa, requires_grad=ra); b = torch.ones(sb, requires_grad=rb)
    try: y = a @ b; print(sa, sb, ra, rb, list(y.shape), g(y.grad_fn))
    except Exception as e: print(sa, sb, ra, rb, 'ERR', str(e).splitlines()[0])
