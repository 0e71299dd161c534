"""The core: the autograd you learn from, read in one sitting.

tensor (Tensor; Tensor.backward calls torch.autograd.backward, in
autograd/functional.py beside grad), accumulate_grad (AccumulateGrad, which
fills a leaf's .grad), views (views, in-place ops, the version counter),
tensor_methods (x.mul(w) is MulBackward0.apply(x, w)), indexing, node (Node,
OpNode.apply, SavedTensor), engine (the backward loop), grad_mode,
saved_hooks, rules (the derivative in each op's docstring, evaluated for
create_graph), and ops/, the ops the tutorials use.
"""
