# zh.d2l.ai 3.6 (softmax regression from scratch, pytorch tab), the parts that
# need no dataset, unchanged except a seed: softmax by hand, cross-entropy
# through y_hat[range(len(y_hat)), y], accuracy through argmax(axis=1);
# then the same with F.softmax / F.cross_entropy.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(X.sum(0, keepdim=True), X.sum(1, keepdim=True))


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition  # 这里应用了广播机制


X = torch.normal(0, 1, (2, 5))
X_prob = softmax(X)
print(X_prob, X_prob.sum(1))

num_inputs, num_outputs = 784, 10
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)


def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)


y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])


def cross_entropy(y_hat, y):
    return - torch.log(y_hat[range(len(y_hat)), y])


print(cross_entropy(y_hat, y))


def accuracy(y_hat, y):  #@save
    """计算预测正确的数量"""
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


print(accuracy(y_hat, y) / len(y))

images = torch.rand(4, 1, 28, 28)
labels = torch.tensor([3, 1, 4, 1])
l = cross_entropy(net(images), labels)
print(l)
l.sum().backward()
print(b.grad, W.grad.shape, W.grad.abs().sum() > 0)
logits = torch.matmul(images.reshape((-1, 784)), W.detach()) + b.detach()
print(F.cross_entropy(logits, labels, reduction="none"), F.softmax(logits, dim=1).sum(1))
