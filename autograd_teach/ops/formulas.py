"""The derivative rules in the ops' docstrings, for who reads them: the tests
and the widget's chain-rule inspector. The reading and evaluating is
autograd_teach/core/rules.py (which the engine uses, with create_graph=True); this
adds what a reader needs besides: gradients given as numpy arrays (what engine
observers see), and the live values of a node.

    rules, forward_formula, notes, namespace, names, saved_values -- as in rules.py
    live_values(node)   the values a double backward evaluates the rules on
    evaluate(node, grad, values=None, create_graph=False) -- grad may be a
                        numpy array
"""
import numpy as np

import autograd_teach as torch

from ..core import rules as _rules
from ..core.rules import forward_formula, names, namespace, notes, rules, saved_values  # noqa: F401


def live_values(node):
    return node.live_values()


def evaluate(node, grad, values=None, create_graph=False):
    """{input name: Tensor}: each input's rule evaluated on grad (a Tensor or a
    numpy array) and the node's values (see rules.evaluate)."""
    if not isinstance(grad, torch.Tensor):
        grad = torch.as_tensor(np.asarray(grad))
    return _rules.evaluate(node, grad, values, create_graph)
