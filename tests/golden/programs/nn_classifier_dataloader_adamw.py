# A small classifier as a learner writes one: DataLoader(shuffle=True), a
# three-layer MLP, AdamW, CrossEntropyLoss, train/eval modes, accuracy, state_dict copy.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
X = torch.randn(200, 2)
y = ((X[:, 0] ** 2 + X[:, 1] ** 2) < 1).long()
loader = DataLoader(TensorDataset(X, y), batch_size=16, shuffle=True)
model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.AdamW(model.parameters(), lr=0.01)
crit = nn.CrossEntropyLoss()
for epoch in range(5):
    model.train()
    total = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        out = model(xb)
        loss = crit(out, yb)
        loss.backward()
        opt.step()
        total += loss.item() * xb.size(0)
    model.eval()
    with torch.no_grad():
        acc = (model(X).argmax(1) == y).float().mean().item()
    print(f"epoch {epoch}: loss {total / len(loader.dataset):.4f} acc {acc:.3f}")
print(len(loader), loader.batch_size)
probs = torch.softmax(model(X[:3]), dim=1)
print(probs, probs.sum(dim=1))
sd = {k: v.clone() for k, v in model.state_dict().items()}
model2 = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 2))
model2.load_state_dict(sd)
print(torch.allclose(model(X), model2(X)))
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
