"""PyTorch's errors: the same exception type and the same first line.

Every expected text below is a literal copied from what torch 2.13.0 raises
for the same code (recorded with /work/oracle-venv; this file never imports
torch). A learner who hits one of these in autograd_teach reads the message
they would get from PyTorch, and can search for it.
"""
import warnings

import numpy as np
import pytest

import autograd_teach as torch

F64, I64 = torch.float64, torch.int64

FREED = ("Trying to backward through the graph a second time (or directly access saved tensors after they have "
         "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
         "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
         "if you need to access saved tensors after calling backward.")


def modified(what):
    return ("one of the variables needed for gradient computation has been modified by an inplace operation: "
            f"{what}; expected version 0 instead. Hint: enable anomaly detection to find the operation that failed "
            "to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")


def rg(*shape):
    return torch.ones(*shape, requires_grad=True)


# -- the programs -----------------------------------------------------------------------
def backward_twice():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()


def saved_tensor_of_freed_graph():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.sum().backward()
    y.grad_fn._saved_result


def modified_saved_input():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2
    y = (a * a).sum()
    a.add_(1)
    y.backward()


def modified_saved_output():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x.exp()
    a.add_(1)
    a.sum().backward()


def modified_saved_leaf_copy():
    x = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    w = x.detach()
    y = (x * x).sum()
    w.mul_(2)           # detach shares x's version counter
    y.backward()


def inplace_on_leaf():
    torch.tensor([1.0, 2.0], requires_grad=True).add_(1)


def setitem_on_leaf():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x[0] = 1


def inplace_on_view_of_leaf():
    x = torch.tensor([[1.0, 2.0]], requires_grad=True)
    x[0].mul_(2)


def requires_grad_false_on_non_leaf(use_method):
    def f():
        y = torch.tensor([1.0, 2.0], requires_grad=True) * 2
        if use_method:
            y.requires_grad_(False)
        else:
            y.requires_grad = False
    return f


def set_requires_grad_attribute_on_int():
    x = torch.tensor([1, 2])
    x.requires_grad = True


def assign_grad(value):
    def f():
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        x.grad = value()
    return f


def backward_with(gradient):
    return lambda: (rg(3) * 2).backward(gradient)


def unused_input():
    x, w = rg(2), rg(2)
    torch.autograd.grad((x * 2).sum(), [x, w])


def grad_of_input_without_grad():
    torch.autograd.grad((rg(2) * 2).sum(), [torch.ones(2)])


# (id, code, exception type, first line of the message)
CASES = [
    # backward
    ("backward_without_grad", lambda: torch.tensor([1.0, 2.0]).sum().backward(), RuntimeError,
     "element 0 of tensors does not require grad and does not have a grad_fn"),
    ("backward_without_grad_non_scalar", lambda: torch.tensor([1.0, 2.0]).backward(), RuntimeError,
     "element 0 of tensors does not require grad and does not have a grad_fn"),
    ("implicit_grad_of_non_scalar", lambda: (rg(2) * 2).backward(), RuntimeError,
     "grad can be implicitly created only for scalar outputs"),
    ("backward_twice", backward_twice, RuntimeError, FREED),
    ("saved_tensor_after_free", saved_tensor_of_freed_graph, RuntimeError, FREED),
    ("modified_saved_input", modified_saved_input, RuntimeError,
     modified("[torch.FloatTensor [2]], which is output 0 of Add, is at version 1")),
    ("modified_saved_output", modified_saved_output, RuntimeError,
     modified("[torch.FloatTensor [2]], which is output 0 of Exp, is at version 1")),
    ("modified_saved_leaf", modified_saved_leaf_copy, RuntimeError,
     modified("[torch.FloatTensor [1, 3]] is at version 1")),
    ("gradient_shape", backward_with(torch.ones(2)), RuntimeError,
     "Mismatch in shape: grad_output[0] has a shape of torch.Size([2]) and output[0] has a shape of "
     "torch.Size([3])."),
    ("gradient_shape_2d", lambda: (rg(2, 3) * 2).backward(torch.ones(3, 2)), RuntimeError,
     "Mismatch in shape: grad_output[0] has a shape of torch.Size([3, 2]) and output[0] has a shape of "
     "torch.Size([2, 3])."),
    ("gradient_numpy", backward_with(np.ones(3)), TypeError,
     "gradients can be either Tensors or None, but got float64"),
    ("fewer_gradients_than_tensors",
     lambda: torch.autograd.backward([rg(1) * 2, rg(1) * 2], [torch.ones(1)]), RuntimeError,
     "got 2 tensors and 1 gradients"),
    ("grad_unused_input", unused_input, RuntimeError,
     "The differentiated Tensor at index 1 appears to not have been used in the graph. Set allow_unused=True "
     "if this is the desired behavior."),
    ("grad_input_without_grad", grad_of_input_without_grad, RuntimeError,
     "One of the differentiated Tensors does not require grad"),
    # in-place and requires_grad
    ("inplace_on_leaf", inplace_on_leaf, RuntimeError,
     "a leaf Variable that requires grad is being used in an in-place operation."),
    ("setitem_on_leaf", setitem_on_leaf, RuntimeError,
     "a view of a leaf Variable that requires grad is being used in an in-place operation."),
    ("inplace_on_view_of_leaf", inplace_on_view_of_leaf, RuntimeError,
     "a view of a leaf Variable that requires grad is being used in an in-place operation."),
    ("tensor_int_requires_grad", lambda: torch.tensor([1, 2], requires_grad=True), RuntimeError,
     "Only Tensors of floating point and complex dtype can require gradients"),
    ("int_requires_grad_", lambda: torch.tensor([1, 2]).requires_grad_(), RuntimeError,
     "only Tensors of floating point dtype can require gradients"),
    ("int_requires_grad_attribute", set_requires_grad_attribute_on_int, RuntimeError,
     "only Tensors of floating point and complex dtype can require gradients"),
    ("zeros_int_requires_grad", lambda: torch.zeros(2, dtype=I64, requires_grad=True), RuntimeError,
     "Only Tensors of floating point and complex dtype can require gradients"),
    ("non_leaf_requires_grad_", requires_grad_false_on_non_leaf(True), RuntimeError,
     "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a "
     "subgraph that doesn't require differentiation use var_no_grad = var.detach()."),
    ("non_leaf_requires_grad_attribute", requires_grad_false_on_non_leaf(False), RuntimeError,
     "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a "
     "subgraph that doesn't require differentiation use var_no_grad = var.detach()."),
    ("retain_grad_without_grad", lambda: torch.tensor([1.0]).retain_grad(), RuntimeError,
     "can't retain_grad on Tensor that has requires_grad=False"),
    ("inplace_result_type", lambda: torch.tensor([1, 2]).add_(1.5), RuntimeError,
     "result type Float can't be cast to the desired output type Long"),
    ("inplace_broadcast_shape", lambda: torch.ones(3).add_(torch.ones(2, 3)), RuntimeError,
     "output with shape [3] doesn't match the broadcast shape [2, 3]"),
    # .grad assignment
    ("grad_wrong_shape", assign_grad(lambda: torch.zeros(3)), RuntimeError,
     "attempting to assign a gradient of size '[3]' to a tensor of size '[2]'. Please ensure that the gradient "
     "and the tensor are the same size"),
    ("grad_wrong_dtype", assign_grad(lambda: torch.zeros(2, dtype=F64)), RuntimeError,
     "attempting to assign a gradient with dtype 'double' to a tensor with grad_dtype 'Float'. The gradient must "
     "match the tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype "
     "attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the "
     "dtypes of a tensor and its gradient may break downstream systems that assume they match."),
    ("grad_not_a_tensor", assign_grad(lambda: [1.0, 2.0]), TypeError,
     "assigned grad expected to be a Tensor or None but got grad of type list"),
    # broadcasting
    ("broadcast", lambda: torch.ones(2, 3) + torch.ones(4), RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"),
    ("broadcast_leading", lambda: torch.ones(2, 3) * torch.ones(3, 3), RuntimeError,
     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"),
    ("broadcast_3d", lambda: torch.ones(5, 2, 3) - torch.ones(4, 1, 3), RuntimeError,
     "The size of tensor a (5) must match the size of tensor b (4) at non-singleton dimension 0"),
    ("expand", lambda: torch.ones(2, 3).expand(4, 4), RuntimeError,
     "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1.  "
     "Target sizes: [4, 4].  Tensor sizes: [2, 3]"),
    # products
    ("mm_shapes", lambda: torch.ones(2, 3).mm(torch.ones(4, 5)), RuntimeError,
     "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"),
    ("mm_1d_mat2", lambda: torch.ones(2, 3).mm(torch.ones(3)), RuntimeError, "mat2 must be a matrix"),
    ("mm_1d_self", lambda: torch.ones(3).mm(torch.ones(3, 3)), RuntimeError, "self must be a matrix"),
    ("mm_dtypes", lambda: torch.ones(2, 3).mm(torch.ones(3, 2, dtype=F64)), RuntimeError,
     "expected m1 and m2 to have the same dtype, but got: float != double"),
    ("mm_dtypes_long", lambda: torch.ones(2, 3, dtype=I64).mm(torch.ones(3, 2)), RuntimeError,
     "expected m1 and m2 to have the same dtype, but got: long int != float"),
    ("mm_shape_before_dtype", lambda: torch.ones(2, 3).mm(torch.ones(4, 2, dtype=F64)), RuntimeError,
     "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)"),
    ("dot_sizes", lambda: torch.ones(3).dot(torch.ones(4)), RuntimeError,
     "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got 3 "
     "and 4 elements respectively"),
    ("dot_2d", lambda: torch.ones(3, 1).dot(torch.ones(3)), RuntimeError,
     "1D tensors expected, but got 2D and 1D tensors"),
    ("dot_dtypes", lambda: torch.ones(3).dot(torch.ones(3, dtype=F64)), RuntimeError,
     "dot : expected both vectors to have same dtype, but found Float and Double"),
    ("dot_dtype_before_size", lambda: torch.ones(3, dtype=F64).dot(torch.ones(4)), RuntimeError,
     "dot : expected both vectors to have same dtype, but found Double and Float"),
    ("mv_sizes", lambda: torch.ones(2, 3).mv(torch.ones(4)), RuntimeError,
     "size mismatch, got input (2), mat (2x3), vec (4)"),
    ("mv_1d_mat", lambda: torch.ones(3).mv(torch.ones(3)), RuntimeError,
     "vector + matrix @ vector expected, got 1, 1, 1"),
    ("mv_2d_vec", lambda: torch.ones(2, 3).mv(torch.ones(3, 1)), RuntimeError,
     "vector + matrix @ vector expected, got 1, 2, 2"),
    ("mv_dtypes", lambda: torch.ones(2, 3).mv(torch.ones(3, dtype=F64)), RuntimeError,
     "addmv input tensors must have the same dtype, but got Double, Float, and Double"),
    ("mv_dtypes_2", lambda: torch.ones(2, 3, dtype=F64).mv(torch.ones(3)), RuntimeError,
     "addmv input tensors must have the same dtype, but got Float, Double, and Float"),
    ("matmul_0d", lambda: torch.tensor(1.0) @ torch.ones(3), RuntimeError,
     "both arguments to matmul need to be at least 1D, but they are 0D and 1D"),
    ("matmul_1d_1d", lambda: torch.ones(3) @ torch.ones(4), RuntimeError,
     "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got 3 "
     "and 4 elements respectively"),
    ("matmul_2d_1d", lambda: torch.ones(2, 3) @ torch.ones(4), RuntimeError,
     "size mismatch, got input (2), mat (2x3), vec (4)"),
    ("matmul_1d_2d", lambda: torch.ones(3) @ torch.ones(4, 5), RuntimeError,
     "mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)"),
    ("matmul_2d_2d", lambda: torch.ones(2, 3) @ torch.ones(4, 5), RuntimeError,
     "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"),
    # PyTorch folds the batch of the left operand into rows when the right one is 1-D or 2-D
    ("matmul_3d_2d", lambda: torch.ones(2, 2, 3) @ torch.ones(4, 5), RuntimeError,
     "mat1 and mat2 shapes cannot be multiplied (4x3 and 4x5)"),
    ("matmul_4d_2d", lambda: torch.ones(2, 2, 2, 3) @ torch.ones(4, 5), RuntimeError,
     "mat1 and mat2 shapes cannot be multiplied (8x3 and 4x5)"),
    ("matmul_3d_1d", lambda: torch.ones(2, 2, 3) @ torch.ones(4), RuntimeError,
     "size mismatch, got input (4), mat (4x3), vec (4)"),
    # ... and otherwise broadcasts the batch dims, then reports bmm's sizes with the batch flattened
    ("matmul_3d_3d", lambda: torch.ones(2, 2, 3) @ torch.ones(2, 4, 5), RuntimeError,
     "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4]."),
    ("matmul_1d_3d", lambda: torch.ones(3) @ torch.ones(2, 4, 5), RuntimeError,
     "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4]."),
    ("matmul_2d_3d", lambda: torch.ones(2, 3) @ torch.ones(2, 4, 5), RuntimeError,
     "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4]."),
    ("matmul_4d_4d", lambda: torch.ones(2, 2, 2, 3) @ torch.ones(2, 2, 4, 5), RuntimeError,
     "Expected size for first two dimensions of batch2 tensor to be: [4, 3] but got: [4, 4]."),
    ("matmul_4d_3d", lambda: torch.ones(3, 2, 2, 3) @ torch.ones(2, 4, 5), RuntimeError,
     "Expected size for first two dimensions of batch2 tensor to be: [6, 3] but got: [6, 4]."),
    ("matmul_batch_broadcast", lambda: torch.ones(2, 2, 3) @ torch.ones(3, 1, 4, 5), RuntimeError,
     "Expected size for first two dimensions of batch2 tensor to be: [6, 3] but got: [6, 4]."),
    ("matmul_batch_mismatch", lambda: torch.ones(2, 2, 3) @ torch.ones(3, 3, 5), RuntimeError,
     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"),
    ("matmul_batch_before_inner", lambda: torch.ones(2, 2, 3) @ torch.ones(3, 4, 5), RuntimeError,
     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"),
    ("matmul_dtypes_1d_1d", lambda: torch.ones(3) @ torch.ones(3, dtype=F64), RuntimeError,
     "dot : expected both vectors to have same dtype, but found Float and Double"),
    ("matmul_dtypes_2d_1d", lambda: torch.ones(2, 3) @ torch.ones(3, dtype=F64), RuntimeError,
     "addmv input tensors must have the same dtype, but got Double, Float, and Double"),
    ("matmul_dtypes_2d_2d", lambda: torch.ones(2, 3) @ torch.ones(3, 2, dtype=F64), RuntimeError,
     "expected m1 and m2 to have the same dtype, but got: float != double"),
    ("matmul_dtypes_1d_2d", lambda: torch.ones(3) @ torch.ones(3, 2, dtype=F64), RuntimeError,
     "expected m1 and m2 to have the same dtype, but got: float != double"),
    ("matmul_dtypes_3d_2d", lambda: torch.ones(2, 2, 3) @ torch.ones(3, 2, dtype=F64), RuntimeError,
     "expected m1 and m2 to have the same dtype, but got: float != double"),
    ("matmul_dtypes_3d_1d", lambda: torch.ones(2, 2, 3) @ torch.ones(3, dtype=F64), RuntimeError,
     "addmv input tensors must have the same dtype, but got Double, Float, and Double"),
    ("matmul_dtypes_3d_3d", lambda: torch.ones(2, 2, 3) @ torch.ones(2, 3, 2, dtype=F64), RuntimeError,
     "expected scalar type Float but found Double"),
    ("matmul_dtypes_3d_3d_long", lambda: torch.ones(2, 2, 3, dtype=I64) @ torch.ones(2, 3, 2), RuntimeError,
     "expected scalar type Long but found Float"),
    ("matmul_dtypes_1d_3d", lambda: torch.ones(3) @ torch.ones(2, 3, 2, dtype=F64), RuntimeError,
     "expected scalar type Float but found Double"),
    ("matmul_shape_before_dtype", lambda: torch.ones(2, 2, 3) @ torch.ones(2, 4, 2, dtype=F64), RuntimeError,
     "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4]."),
    # conversions
    ("item_of_many", lambda: torch.ones(3).item(), RuntimeError,
     "a Tensor with 3 elements cannot be converted to Scalar"),
    ("item_of_empty", lambda: torch.ones(0).item(), RuntimeError,
     "a Tensor with 0 elements cannot be converted to Scalar"),
    ("bool_of_many", lambda: bool(torch.ones(3)), RuntimeError,
     "Boolean value of Tensor with more than one value is ambiguous"),
    ("bool_of_empty", lambda: bool(torch.ones(0)), RuntimeError,
     "Boolean value of Tensor with no values is ambiguous"),
    ("if_on_comparison", lambda: 1 if torch.ones(2) > 0 else 0, RuntimeError,
     "Boolean value of Tensor with more than one value is ambiguous"),
    ("len_of_0d", lambda: len(torch.tensor(1.0)), TypeError, "len() of a 0-d tensor"),
    ("iter_of_0d", lambda: iter(torch.tensor(1.0)), TypeError, "iteration over a 0-d tensor"),
    ("numpy_requires_grad", lambda: rg(2).numpy(), RuntimeError,
     "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."),
    # shapes
    ("view_incompatible", lambda: torch.ones(2, 3).t().view(6), RuntimeError,
     "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
     "contiguous subspaces). Use .reshape(...) instead."),
    ("view_bad_size", lambda: torch.ones(2, 3).view(4), RuntimeError, "shape '[4]' is invalid for input of size 6"),
    ("view_bad_inferred", lambda: torch.ones(2, 3).view(-1, 4), RuntimeError,
     "shape '[-1, 4]' is invalid for input of size 6"),
    ("view_two_inferred", lambda: torch.ones(2, 3).view(-1, -1), RuntimeError, "only one dimension can be inferred"),
    ("reshape_bad_size", lambda: torch.ones(2, 3).reshape(4), RuntimeError,
     "shape '[4]' is invalid for input of size 6"),
    ("t_of_3d", lambda: torch.ones(2, 3, 4).t(), RuntimeError,
     "t() expects a tensor with <= 2 dimensions, but self is 3D"),
    ("permute_wrong_length", lambda: torch.ones(2, 3).permute(0), RuntimeError,
     "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired "
     "ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) = 1"),
    ("sum_dim_out_of_range", lambda: torch.ones(2, 3).sum(dim=2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    ("squeeze_dim_out_of_range", lambda: torch.ones(2, 3).squeeze(2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    ("unsqueeze_dim_out_of_range", lambda: torch.ones(2, 3).unsqueeze(3), IndexError,
     "Dimension out of range (expected to be in range of [-3, 2], but got 3)"),
    ("transpose_dim_out_of_range", lambda: torch.ones(2, 3).transpose(0, 2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    # indexing
    ("index_out_of_bounds", lambda: torch.ones(2, 3)[5], IndexError,
     "index 5 is out of bounds for dimension 0 with size 2"),
    ("too_many_indices", lambda: torch.ones(2, 3)[0, 0, 0], IndexError, "too many indices for tensor of dimension 2"),
    ("index_0d", lambda: torch.tensor(1.0)[0], IndexError,
     "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a "
     "0-dim tensor to a number"),
    ("slice_0d", lambda: torch.tensor(1.0)[0:1], IndexError, "slice() cannot be applied to a 0-dim tensor."),
    ("list_index_0d", lambda: torch.tensor(1.0)[[0]], IndexError, "too many indices for tensor of dimension 0"),
    ("float_index", lambda: torch.ones(3)[1.0], IndexError,
     "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got float)"),
    ("list_index_out_of_bounds", lambda: torch.ones(3)[[0, 5]], IndexError,
     "index 5 is out of bounds for dimension 0 with size 3"),
    ("mask_shape", lambda: torch.ones(3)[torch.tensor([True, False])], IndexError,
     "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor [3] at index 0"),
    ("mask_shape_after_slice", lambda: torch.ones(3, 4)[:, torch.tensor([True, False])], IndexError,
     "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor [3, 4] at index 1"),
    ("mask_shape_after_int", lambda: torch.ones(3, 4)[0, torch.tensor([True])], IndexError,
     "The shape of the mask [1] at index 0 does not match the shape of the indexed tensor [4] at index 0"),
    ("list_index_after_slice", lambda: torch.ones(3, 4)[:, [0, 5]], IndexError,
     "index 5 is out of bounds for dimension 0 with size 4"),
    ("second_list_index", lambda: torch.ones(3, 4)[[0, 1], [0, 5]], IndexError,
     "index 5 is out of bounds for dimension 1 with size 4"),
    ("list_index_after_int", lambda: torch.ones(2, 3, 4)[1, :, [7]], IndexError,
     "index 7 is out of bounds for dimension 0 with size 4"),
    # ops and factories
    ("int_to_negative_power", lambda: torch.tensor([1, 2]) ** -1, RuntimeError,
     "Integers to negative integer powers are not allowed."),
    ("mean_of_int", lambda: torch.tensor([1, 2]).mean(), RuntimeError,
     "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long"),
    ("max_of_empty", lambda: torch.ones(0).max(), RuntimeError,
     "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the "
     "'dim' argument."),
    ("clamp_without_bounds", lambda: torch.ones(2).clamp(), RuntimeError,
     "torch.clamp: At least one of 'min' or 'max' must not be None"),
    ("norm_of_int", lambda: torch.tensor([1, 2]).norm(), RuntimeError,
     "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long"),
    ("sub_bool_scalar", lambda: torch.tensor([1, 2]) - True, RuntimeError,
     "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, "
     "use the `~` or `logical_not()` operator instead."),
    ("rsub_bool_tensor", lambda: 1 - torch.tensor([True]), RuntimeError,
     "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, "
     "use the `~` or `logical_not()` operator instead."),
    ("sub_two_bools", lambda: torch.tensor([True]) - torch.tensor([True]), RuntimeError,
     "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
     "operator instead."),
    ("neg_bool", lambda: -torch.tensor([True]), RuntimeError,
     "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use "
     "the `~` or `logical_not()` operator instead."),
    ("bce_with_logits_size", lambda: torch.nn.functional.binary_cross_entropy_with_logits(torch.ones(2), torch.ones(3)),
     ValueError, "Target size (torch.Size([3])) must be the same as input size (torch.Size([2]))"),
    ("mse_loss_reduction", lambda: torch.nn.functional.mse_loss(torch.ones(2), torch.ones(2), reduction="bad"),
     ValueError, "bad is not a valid value for reduction"),
    ("arange_step_zero", lambda: torch.arange(0, 3, 0), RuntimeError, "step must be nonzero"),
    ("ones_negative", lambda: torch.ones(2, -1), RuntimeError,
     "Trying to create tensor with negative dimension -1: [2, -1]"),
    ("rand_negative", lambda: torch.rand(-1), RuntimeError, "Trying to create tensor with negative dimension -1: [-1]"),
    ("zeros_negative", lambda: torch.zeros(2, -1), RuntimeError, "zeros: Dimension size must be non-negative."),
]




@pytest.mark.parametrize("code, exc, first_line", [
    pytest.param(*c[1:], id=c[0]) for c in CASES])
def test_pytorch_error(code, exc, first_line):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(exc) as e:
            code()
    assert type(e.value) is exc
    assert str(e.value).splitlines()[0] == first_line


# -- errors leave things as they were ---------------------------------------------------
def test_inplace_error_on_a_leaf_changes_nothing():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError):
        x.add_(1)
    with pytest.raises(RuntimeError):
        x[0] = 5.0
    assert x.tolist() == [1.0, 2.0] and x._version == 0 and x.is_leaf


def test_inplace_on_a_leaf_is_fine_under_no_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        x.sub_(0.5)
        x[1] = 7.0
    assert x.tolist() == [0.5, 7.0] and x.requires_grad and x.is_leaf and x._version == 2


def test_failed_grad_assignment_keeps_the_old_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).sum().backward()
    g = x.grad
    with pytest.raises(RuntimeError):
        x.grad = torch.zeros(3)
    assert x.grad is g


def test_failed_requires_grad_change_keeps_the_flag():
    x = torch.tensor([1, 2])
    with pytest.raises(RuntimeError):
        x.requires_grad_()
    assert not x.requires_grad
    y = torch.tensor([1.0], requires_grad=True) * 2
    with pytest.raises(RuntimeError):
        y.requires_grad_(False)
    assert y.requires_grad
    y.requires_grad_(True)      # True on a non-leaf is allowed
