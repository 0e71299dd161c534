"""ExponentialFamily (torch/distributions/exp_family.py): densities
exp(<t(x), theta> - F(theta) + k(x)). Normal and Bernoulli are ones; the KL
registry files (ExponentialFamily, ExponentialFamily), which refuses two
different families, as PyTorch does."""
from ..autograd import grad
from .distribution import Distribution


class ExponentialFamily(Distribution):

    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        """F(theta) - <theta, grad F(theta)> - E[k(x)]: the Bregman form,
        with grad F from autograd."""
        result = -self._mean_carrier_measure
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        lg_normal = self._log_normalizer(*nparams)
        gradients = grad(lg_normal.sum(), nparams, create_graph=True)
        result += lg_normal
        for np_, g in zip(nparams, gradients):
            result -= (np_ * g).reshape(tuple(self._batch_shape) + (-1,)).sum(-1)
        return result



def bregman_kl(p, q):
    """KL between two of one family (kl.py registers it for any two): the
    Bregman divergence of the log normalizer, its gradient from autograd."""
    if type(p) is not type(q):
        raise NotImplementedError("The cross KL-divergence between different exponential families cannot \
                            be computed using Bregman divergences")
    p_nparams = [np_.detach().requires_grad_() for np_ in p._natural_params]
    q_nparams = q._natural_params
    lg_normal = p._log_normalizer(*p_nparams)
    gradients = grad(lg_normal.sum(), p_nparams, create_graph=True)
    result = q._log_normalizer(*q_nparams) - lg_normal
    for pnp, qnp, g in zip(p_nparams, q_nparams, gradients):
        term = (qnp - pnp) * g
        event_dims = len(q.event_shape)        # _sum_rightmost(term, event_dims)
        result -= term.reshape(tuple(term.shape[:-event_dims]) + (-1,)).sum(-1) if event_dims else term
    return result
