# The whole backward graph of every differentiable function of the
# distributions (node names, depth first), and the values to the last bit.
import torch
import torch.distributions as D


def walk(fn, depth=0):
    out = []
    if fn is None:
        return ["None"]
    out.append(" " * depth + fn.name())
    for f, _ in fn.next_functions:
        if f is not None:
            out += walk(f, depth + 1)
    return out


def leaf(*v):
    return torch.tensor(v, requires_grad=True)


m, s = leaf(0.0, 1.0), leaf(1.0, 2.0)
p = leaf(0.2, 0.7)
z = leaf(0.5, -1.0, 2.0)
w = leaf(0.5, 1.0, 2.0)
lo, hi = leaf(0.0, -1.0), leaf(1.0, 2.0)
torch.manual_seed(0)
cases = {
 "n.log_prob": lambda: D.Normal(m, s).log_prob(torch.tensor([0.5, 0.5])),
 "n.scalar.log_prob": lambda: D.Normal(m, 2.0).log_prob(torch.tensor(0.5)),
 "n.cdf": lambda: D.Normal(m, s).cdf(torch.tensor([0.5, 0.5])),
 "n.icdf": lambda: D.Normal(m, s).icdf(torch.tensor([0.5, 0.2])),
 "n.entropy": lambda: D.Normal(m, s).entropy(),
 "n.rsample": lambda: D.Normal(m, s).rsample((3,)),
 "n.variance": lambda: D.Normal(m, s).variance,
 "n.perplexity": lambda: D.Normal(m, s).perplexity(),
 "b.log_prob": lambda: D.Bernoulli(p).log_prob(torch.tensor([1.0, 0.0])),
 "b.entropy": lambda: D.Bernoulli(p).entropy(),
 "b.logits.entropy": lambda: D.Bernoulli(logits=z).entropy(),
 "b.variance": lambda: D.Bernoulli(p).variance,
 "u.log_prob": lambda: D.Uniform(lo, hi).log_prob(torch.tensor([0.5, 0.5])),
 "u.cdf": lambda: D.Uniform(lo, hi).cdf(torch.tensor([0.5, 0.5])),
 "u.icdf": lambda: D.Uniform(lo, hi).icdf(torch.tensor([0.5, 0.5])),
 "u.entropy": lambda: D.Uniform(lo, hi).entropy(),
 "u.rsample": lambda: D.Uniform(lo, hi).rsample((2,)),
 "u.mean": lambda: D.Uniform(lo, hi).mean,
 "u.stddev": lambda: D.Uniform(lo, hi).stddev,
 "c.log_prob": lambda: D.Categorical(w).log_prob(torch.tensor([0, 2])),
 "c.logits.log_prob": lambda: D.Categorical(logits=z).log_prob(torch.tensor([0, 2])),
 "c.entropy": lambda: D.Categorical(w).entropy(),
 "c.logits.entropy": lambda: D.Categorical(logits=z).entropy(),
 "kl.nn": lambda: D.kl_divergence(D.Normal(m, s), D.Normal(0.0, s)),
 "kl.bb": lambda: D.kl_divergence(D.Bernoulli(p), D.Bernoulli(torch.tensor([0.5, 0.5]))),
 "kl.uu": lambda: D.kl_divergence(D.Uniform(lo, hi), D.Uniform(-2.0, 3.0)),
 "kl.cc": lambda: D.kl_divergence(D.Categorical(w), D.Categorical(logits=z * 2)),
 "kl.un": lambda: D.kl_divergence(D.Uniform(lo, hi), D.Normal(m, s)),
 "kl.nu": lambda: D.kl_divergence(D.Normal(m, s), D.Uniform(lo, hi)),
 "multinomial.mean": lambda: D.Multinomial(3, w).mean,
}
for k, f in cases.items():
    out = f()
    print(k, out.tolist() if out.numel() < 8 else out.shape)
    print("\n".join(walk(out.grad_fn)))
