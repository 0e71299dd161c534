# Reading .grad of a non-leaf warns and gives None.
# PyTorch ends the warning with "(Triggered internally at <path of its build
# tree>:<line>.)", which names the machine it was built on; masking from the
# end of the sentence (an empty match when absent) keeps the rest compared:
# golden-mask: (?<=for more information\.).*$
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = y.sum()
z.backward()
print(x.grad)
print(y.grad)
print("after the warning")
