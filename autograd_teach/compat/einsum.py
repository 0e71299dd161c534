"""torch.einsum, built as PyTorch builds it (aten/src/ATen/native/Linear.cpp)
from ops that are already recorded, so its backward needs no rule of its own
and the graph has PyTorch's nodes (PermuteBackward0, BmmBackward0, ...):

1. parse: the labels of each operand, and the order of the result's dims:
   the output's labels first (or, without "->", the labels seen once, in
   alphabetical order), then the labels summed over;
2. align: each operand takes the diagonal of a repeated label, gets a dim of
   size 1 for each label it lacks, and is permuted to that order;
3. contract, left to right: two operands become one by `sumproduct_pair`, a
   bmm between permuted and reshaped views (the dims summed kept as size 1);
   a label no later operand has is summed as soon as possible. At the end
   the summed dims are dropped (a view; one operand alone: a sum).
"""
import string

from ..core.tensor import Tensor

ELLIPSIS = "..."


def einsum(equation, *operands):
    """einsum("ij,jk->ik", a, b) is a @ b; einsum("ii", a) its trace; ..."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])          # einsum(eq, [a, b]), the older form
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    for t in operands:
        if not isinstance(t, Tensor):
            raise TypeError(f"einsum(): argument 'operands' must be tuple of Tensors, not {type(t).__name__}")
    op_labels, output, ell_dims = _parse(equation, operands)
    order, out_num_dim = _result_order(op_labels, output, ell_dims)
    ops, dim_counts = _aligned(operands, op_labels, order, ell_dims)
    return _contracted(ops, dim_counts, out_num_dim, len(order))


# -- 1. parse ------------------------------------------------------------------------------------

def _labels(text, where_offset, operand):
    """The labels of one term: letters, and "..." as one label."""
    labels, i = [], 0
    while i < len(text):
        c = text[i]
        if c == " ":
            i += 1
        elif c == ".":
            if ELLIPSIS in labels:
                raise RuntimeError(f"einsum(): found '.' for operand {operand} for which an ellipsis was already found"
                                   if operand is not None else
                                   "einsum(): found '.' for output but an ellipsis (...) was already found")
            if text[i:i + 3] != ELLIPSIS:
                raise RuntimeError(f"einsum(): found '.' for operand {operand} that is not part of any ellipsis"
                                   if operand is not None else
                                   "einsum(): found '.' for output that is not part of any ellipsis (...)")
            labels.append(ELLIPSIS)
            i += 3
        elif c in string.ascii_letters:
            labels.append(c)
            i += 1
        else:
            raise RuntimeError(f"einsum(): invalid subscript given at index {where_offset + i} in the equation "
                               "string, subscripts must be in [a-zA-Z]")
    return labels


def _parse(equation, operands):
    lhs, arrow, rhs = equation.partition("->")
    terms, op_labels, start = lhs.split(","), [], 0
    if len(terms) > len(operands):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    if len(terms) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    ell_dims = 0
    for i, (term, t) in enumerate(zip(terms, operands)):
        labels = _labels(term, start, i)
        start += len(term) + 1
        n = len([lb for lb in labels if lb != ELLIPSIS])
        has_ellipsis = ELLIPSIS in labels
        if (n > t.dim()) if has_ellipsis else (n != t.dim()):
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({n}) "
                               + ("is more than the number of dimensions (" if has_ellipsis
                                  else "does not match the number of dimensions (")
                               + f"{t.dim()}) for operand {i}" + ("" if has_ellipsis else " and no ellipsis was given"))
        if has_ellipsis:
            ell_dims = max(ell_dims, t.dim() - n)
        op_labels.append(labels)
    output = _labels(rhs, len(lhs) + 2, None) if arrow else None
    return op_labels, output, ell_dims


def _sort_key(label):
    return (label.islower(), label)       # PyTorch numbers A-Z before a-z


def _result_order(op_labels, output, ell_dims):
    """The dims every operand is aligned to: [output..., summed...], with the
    ellipsis as ell_dims entries ("...", k); and how many are the output's."""
    count = {}
    for labels in op_labels:
        for lb in labels:
            if lb != ELLIPSIS:
                count[lb] = count.get(lb, 0) + 1
    ellipsis = [(ELLIPSIS, k) for k in range(ell_dims)]
    if output is None:        # implicit output: the ellipsis, then the labels seen once
        order = ellipsis + sorted((lb for lb, n in count.items() if n == 1), key=_sort_key)
    else:
        order = []
        for lb in output:
            if lb == ELLIPSIS:
                order += ellipsis
                continue
            if lb not in count or lb in order:
                raise RuntimeError(f"einsum(): output subscript {lb}" + (" appears more than once in the output"
                                   if lb in order else " does not appear in the equation for any input operand"))
            order.append(lb)
    out_num_dim = len(order)
    if output is not None and ELLIPSIS not in output:
        order += ellipsis
    order += sorted((lb for lb in count if lb not in order), key=_sort_key)
    return order, out_num_dim


# -- 2. align ------------------------------------------------------------------------------------

def _aligned(operands, op_labels, order, ell_dims):
    """Each operand permuted to `order` (a diagonal for a repeated label, a
    dim of size 1 for a missing one), and for each dim of order how many
    operands have it with a size other than 1."""
    index = {lb: k for k, lb in enumerate(order)}
    sizes, dim_counts, ops = {}, [0] * len(order), []
    for i, (op, labels) in enumerate(zip(operands, op_labels)):
        permutation, dim = [-1] * len(order), 0
        for lb in labels:
            if lb == ELLIPSIS:
                covered = operands[i].dim() - (len(labels) - 1)
                for k in range(ell_dims - covered, ell_dims):
                    _check_size(op, dim, (ELLIPSIS, k), sizes, dim_counts, index, i)
                    permutation[index[(ELLIPSIS, k)]] = dim
                    dim += 1
            elif permutation[index[lb]] == -1:
                _check_size(op, dim, lb, sizes, dim_counts, index, i)
                permutation[index[lb]] = dim
                dim += 1
            else:                   # a repeated label: its diagonal
                prev = permutation[index[lb]]
                if op.shape[dim] != op.shape[prev]:
                    raise RuntimeError(f"einsum(): subscript {lb} is repeated for operand {i} but the sizes don't "
                                       f"match, {op.shape[dim]} != {op.shape[prev]}")
                op = op.diagonal(0, prev, dim).movedim(-1, prev)
        for k, p in enumerate(permutation):     # a dim of size 1 for each missing label
            if p == -1:
                op = op.unsqueeze(dim)
                permutation[k] = dim
                dim += 1
        ops.append(op.permute(permutation))
    return ops, dim_counts


def _check_size(op, dim, label, sizes, dim_counts, index, i):
    size = op.shape[dim]
    if size == 1:
        return
    seen = sizes.get(label, 1)
    if seen not in (1, size):
        if label[0] == ELLIPSIS:
            raise RuntimeError(f"einsum(): dimension {dim} covered by ellipsis in operand {i}has size {size} which "
                               f"does not broadcast with previously seen ellipsis with size {seen} for the respective "
                               "dimension")
        raise RuntimeError(f"einsum(): subscript {label} has size {size} for operand {i} which does not broadcast "
                           f"with previously seen size {seen}")
    sizes[label] = size
    dim_counts[index[label]] += 1


# -- 3. contract ---------------------------------------------------------------------------------

def _contracted(ops, dim_counts, out_num_dim, num_dims):
    """Left to right: the first two operands become one, in front."""
    num_ops = len(ops)
    while len(ops) > 1:
        a, b = ops[0], ops[1]
        sum_dims, a_sum, b_sum = [], [], []
        for dim in range(out_num_dim, num_dims):
            sa, sb = a.shape[dim] != 1, b.shape[dim] != 1
            if sa and sb:
                dim_counts[dim] -= 1
                if dim_counts[dim] == 1:      # no later operand has it: sum it in this product
                    sum_dims.append(dim)
                    dim_counts[dim] = 0
            elif dim_counts[dim] == 1:        # only one of the two has it, and no later one: sum it now
                if sa:
                    a_sum.append(dim)
                elif sb:
                    b_sum.append(dim)
                dim_counts[dim] = 0
        a = a.sum(a_sum, True) if a_sum else a
        b = b.sum(b_sum, True) if b_sum else b
        ops = [sumproduct_pair(a, b, sum_dims)] + ops[2:]
    result = ops[0]
    if num_dims > out_num_dim:       # drop the summed dims (each of size 1 by now), or sum a lone operand
        if num_ops > 1:
            return result.view(tuple(result.shape)[:out_num_dim])
        return result.sum(list(range(out_num_dim, num_dims)))
    return result


def sumproduct_pair(left, right, sum_dims):
    """(left * right).sum(sum_dims, keepdim=True) as one bmm: the dims of both,
    of left only, summed, and of right only, flattened into (batch, m, k) @
    (batch, k, n), then viewed and permuted back."""
    if not sum_dims:
        return left * right
    lro, lo, ro, sum_size = [], [], [], 1
    for i in range(left.dim()):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:
            if sl and sr:
                sum_size *= left.shape[i]
            elif sl:
                left = left.sum(i, True)
            elif sr:
                right = right.sum(i, True)
        elif sl and sr:
            lro.append(i)
        elif sl:
            lo.append(i)
        else:
            ro.append(i)
    if lo and ro and ro[-1] < lo[0]:    # bmm gives the output's memory order directly with the two swapped
        left, right, lo, ro = right, left, ro, lo
    size = lambda t, dims: _prod(t.shape[d] for d in dims)    # noqa: E731
    out_size = [left.shape[d] for d in lro + lo] + [1] * len(sum_dims) + [right.shape[d] for d in ro]
    opermutation = [0] * len(out_size)
    for i, d in enumerate(lro + lo + list(sum_dims) + ro):
        opermutation[d] = i
    left = left.permute(lro + lo + list(sum_dims) + ro).reshape(size(left, lro), size(left, lo), sum_size)
    right = right.permute(lro + list(sum_dims) + ro + lo).reshape(size(right, lro), sum_size, size(right, ro))
    return left.bmm(right).view(out_size).permute(opermutation)


def _prod(values):
    out = 1
    for v in values:
        out *= v
    return out
