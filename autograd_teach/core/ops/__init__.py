"""The ops the tutorials use, one class per op, forward and backward side by
side (the protocol: autograd_teach/ops/__init__.py): arithmetic and its
Python-number overloads, pointwise functions, reductions, products (dot, mm,
mv, bmm, matmul), shapes and views, selection, and ops with several outputs."""
