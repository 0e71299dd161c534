"""The derivative rules in the ops' docstrings, read and evaluated.

Every op class states its derivative in its docstring, in the style of
PyTorch's tools/autograd/derivatives.yaml (see the docstring of `ops`):

    out = self * other

    self: grad * other
    other: grad * self

This module is the one place that reads them. The engine evaluates them on
Tensors when a backward builds a graph (create_graph=True: OpNode.
call_backward_on_tensors), and the tests and the widget read them through
ops/formulas.py, which adds numpy-array gradients:

    rules(op)            {input name: rule text}, in the op's input order
                         (op: a node such as y.grad_fn, or its class); {} for
                         a node without rules (AccumulateGrad, custom Functions)
    forward_formula(op)  "out = self * other"
    notes(op)            the free text after the rules ("" if none)
    namespace(op)        what a rule may call: the globals of the op's module
                         (where, zeros_like, tanh_backward, ...)
    names(op, input=None)  the names a rule reads from the node: inputs,
                         "result" and attributes ({"other"})
    saved_values(node, which=None)  those names' values, read from the node
                         now as PyTorch shows them (grad_fn._saved_<name>).
                         Take this snapshot before backward frees the saved
                         tensors; afterwards it raises PyTorch's "Trying to
                         backward through the graph a second time".
    evaluate(node, grad, values=None, create_graph=False)  {input name: Tensor}:
                         each rule evaluated on grad (a Tensor) and the node's
                         saved values, or `values` (a snapshot) where given.
                         Grad mode is off, unless create_graph: then the
                         rule's ops are recorded. Only the inputs that get a
                         gradient (a `next_functions` edge) are evaluated.

A rule reads as C++, as PyTorch's formulas are: a number in it is a C++
Scalar, so its + - * / between a tensor and a number record the Scalar
overloads (`exponent * self.pow(exponent - 1)` records MulBackward1, as
PyTorch's pow_backward does, where Python's `2 * x` records MulBackward0).
`evaluate` compiles each rule so that its + - * / go through
core/ops/arithmetic.py's `binary`, which says which node each case records.

What `evaluate` returns is the rule's value before un-broadcasting: where an
input was broadcast, the engine then sums it back to the input's shape (and
casts it to the input's dtype). A value may be `grad` itself; do not write
into it. This module imports no op: a rule finds the functions it calls in
its own op's module, so the node base can use it without an import cycle.
"""
import ast
import functools
import inspect
import math
import re
import sys

from . import grad_mode

_RULE = re.compile(r"^([A-Za-z_]\w*):\s+(\S.*)$")
# What a rule may name besides the node's values: grad, math, and the functions
# of the op's own module (where, zeros_like, tanh_backward...: see namespace()).
_OWN = frozenset({"grad", "math"})
# Plain Python that some rules use (comprehensions over a shape); nothing else.
_BUILTINS = {"len": len, "range": range, "enumerate": enumerate, "slice": slice}


def _class(op):
    return op if isinstance(op, type) else type(op)


def _paragraphs(cls):
    doc = cls.__dict__.get("__doc__")    # its own docstring, never a base class's
    if not doc:
        return []
    return [p for p in re.split(r"\n\s*\n", inspect.cleandoc(doc)) if p.strip()]


def forward_formula(op):
    """The forward, as the docstring's first paragraph states it."""
    paragraphs = _paragraphs(_class(op))
    return paragraphs[0] if paragraphs else ""


def rules(op):
    """{input name: rule text} from the op's docstring, in input order."""
    cls = _class(op)
    paragraphs = _paragraphs(cls)
    if len(paragraphs) < 2 or not _RULE.match(paragraphs[1].split("\n")[0]):
        return {}
    inputs = getattr(cls, "inputs", ())
    found, last = {}, None
    for line in paragraphs[1].split("\n"):
        if line[:1].isspace():          # an indented line goes on with the rule above
            sep = "" if found[last].endswith(("(", "[")) else " "
            found[last] += sep + line.strip()
            continue
        match = _RULE.match(line)
        if match is None:
            raise ValueError(f"{cls.__name__}: a rule line must read 'input: expression', got {line!r}")
        last, text = match.groups()
        if last not in inputs:
            raise ValueError(f"{cls.__name__}: {last!r} is not one of its inputs {inputs}")
        if last in found:
            raise ValueError(f"{cls.__name__}: two rules for {last!r}")
        found[last] = text
    for name, text in found.items():
        try:
            ast.parse(text, mode="eval")
        except SyntaxError as e:
            raise ValueError(f"{cls.__name__}: the rule for {name!r} is not a Python expression: {text!r}") from e
    return {name: found[name] for name in inputs if name in found}


def notes(op):
    """The free text after the rules."""
    paragraphs = _paragraphs(_class(op))
    return "\n\n".join(paragraphs[2:]) if rules(op) else ""


def _names_in(text):
    tree = ast.parse(text, mode="eval")
    read, bound = set(), set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name):
            (read if isinstance(n.ctx, ast.Load) else bound).add(n.id)
    return read - bound - _OWN - set(_BUILTINS)


def namespace(op):
    """What a rule is evaluated in besides grad and the node's values: the
    globals of the module that defines the op, so a rule calls the functions
    imported or defined beside it (where, zeros_like, tanh_backward...), as
    PyTorch's derivatives.yaml calls at:: functions and FunctionsManual.cpp."""
    return vars(sys.modules[_class(op).__module__])


def names(op, input=None):
    """The names the rule of `input` (default: of every input) reads from the node."""
    found = rules(op)
    texts = found.values() if input is None else [found[input]]
    return set().union(*(_names_in(t) for t in texts)) - namespace(op).keys()


def _differentiated(node):
    """The rules of the inputs that get a gradient: those with a next_functions edge."""
    found = rules(node)            # {} for a node that is not an op: AccumulateGrad, custom Functions
    inputs, edges = getattr(type(node), "inputs", ()), node.next_functions
    return {name: text for name, text in found.items()
            if any(n == name and e[0] is not None for n, e in zip(inputs, edges))}


def per_input(inputs, grads):
    """One gradient per input, from {name: value}: a list input (cat's
    `tensors`, even of one tensor) has a list as its value, one entry per tensor."""
    seen, out = {}, []
    for name in inputs:
        g = grads.get(name)
        if g is not None and (inputs.count(name) > 1 or type(g) is list):
            seen[name] = seen.get(name, -1) + 1
            g = g[seen[name]]
        out.append(g)
    return out


def saved_values(node, which=None):
    """The values the rules of `node` read, as PyTorch shows them (_saved_<name>).

    which -- the names to read (default: all that the rules of the inputs
             with a gradient read). A tensor the node did not save (PyTorch
             saves only what a needed gradient uses) reads as None, as
             grad_fn._saved_<name> does; a name the node has no
             _saved_<name> for is left out (evaluating the rule then raises
             NameError)."""
    if which is None:
        which = set().union(*(_names_in(t) for t in _differentiated(node).values()))
    out = {}
    for name in sorted(which):
        try:
            out[name] = getattr(node, "_saved_" + name)
        except AttributeError:
            pass
    return out


def evaluate(node, grad, values=None, create_graph=False):
    """{input name: Tensor}: each input's rule evaluated on grad (a Tensor)
    and the node's values.

    values -- {name: value} to use instead of reading the node (a snapshot
              that saved_values took before backward freed them).
    create_graph -- record the rule's ops (grad mode on), so that the result
              can be differentiated again."""
    todo = _differentiated(node)
    if not todo:
        return {}
    wanted = set().union(*(_names_in(t) for t in todo.values())) - namespace(node).keys()
    given = dict(values) if values is not None else {}
    given.update(saved_values(node, wanted - given.keys()))
    # A number that stood in a tensor's place (the 2 of x * 2) is a tensor in
    # PyTorch (a "wrapped number"), so a rule computes with it as with a tensor,
    # not as with a C++ Scalar: read it as PyTorch shows it, grad_fn._saved_other.
    for name in set(getattr(type(node), "saved", ())) & given.keys():
        if type(given[name]) in (int, float, bool):
            given[name] = getattr(node, "_saved_" + name)
    # In alphabetical order of the input names, as PyTorch's generated backward
    # runs its formulas (load_derivatives.py sorts them): with create_graph the
    # order numbers the nodes they record, and so the order a later backward runs them.
    with grad_mode.set_grad_enabled(create_graph):
        return {name: evaluate_text(node, name, todo[name], {**given, "grad": grad}) for name in sorted(todo)}


def evaluate_text(op, name, text, values):
    """A rule, or a forward rule (forward_mode/jvp_rules.py), on values: + - * / as C++'s; grad mode as it is."""
    env = {**namespace(op), **values, "__builtins__": _BUILTINS, "math": math, _BINARY: _binary()}
    return eval(_compiled(_class(op).__name__, name, text), env)  # noqa: S307 (our docstrings and tables)


# -- a rule's + - * / as C++ computes them (see the docstring) ------------------------
_BINARY = "__binary__"      # a name no rule can write: the rules are parsed before the rewrite
_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}


class _CppArithmetic(ast.NodeTransformer):
    """a * b -> __binary__("*", b, a), and likewise + - /: the right operand is
    evaluated first, as PyTorch's compiled C++ does (GCC evaluates the operands
    of an overloaded operator right to left), so the nodes a rule records are
    numbered in PyTorch's order: in -grad * (result * result) the MulBackward0
    inside the parentheses is made before the NegBackward0."""

    def visit_BinOp(self, node):
        self.generic_visit(node)
        op = _OPERATORS.get(type(node.op))
        if op is None:
            return node
        call = ast.Call(ast.Name(_BINARY, ast.Load()), [ast.Constant(op), node.right, node.left], [])
        return ast.copy_location(call, node)


@functools.lru_cache(maxsize=None)
def _compiled(where, name, text):
    tree = ast.fix_missing_locations(_CppArithmetic().visit(ast.parse(text, mode="eval")))
    return compile(tree, f"<{where} rule for {name}>", "eval")


def _binary():
    # ops/arithmetic.py holds the Scalar overloads. This module imports no op (the
    # node base imports it), so it finds them loaded, as it finds a rule's functions.
    binary = sys.modules[__package__ + ".ops.arithmetic"].binary
    return lambda op, right, left: binary(op, left, right)
