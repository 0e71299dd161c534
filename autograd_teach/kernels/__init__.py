"""float32 as PyTorch's CPU kernels compute it: the summation orders, the
fused multiply-adds and the roundings that make a float32 result equal
PyTorch's to the last bit. The ops call these; the math is in the ops."""
