"""PyTorch's API around the autograd: factories (torch.tensor, zeros,
arange), dtypes, printing, the random generator, legacy tensor types, numpy
names, sampling, save/load. What makes `import autograd_teach as torch` run
PyTorch code; none of it is needed to follow a backward pass."""
