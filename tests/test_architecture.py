"""The shape of the core, checked ("the code is the textbook").

- the core (autograd_teach/core/: the mechanism and the ops the tutorials
  use) is a few thousand lines, read in one sitting: under 6,000;
- imports run one way: no cycle among the package's modules, counting the
  imports inside functions too (so none can hide one);
- no module is hidden by a name in its package (autograd_teach.tensor is
  the factory function, so the Tensor's module is core.tensor);
- no function in the core is longer than 40 lines, and the Tensor class is
  under 400;
- float32 kernel code (float64 round trips, fused multiply-adds, PyTorch's
  summation orders) is in autograd_teach/kernels/ only;
- a module writes no other module's private attributes (x._name = ... where
  _name belongs to a class or global of another module), and reads another
  module's private names only through the protocol tensor.py documents, or
  the few names PyTorch itself makes public (t._version, t._base,
  grad_fn._saved_<name>).
"""
import ast
import importlib
import pathlib
import re
import sys

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "autograd_teach"
CORE = PACKAGE / "core"
MODULES = {p: ast.parse(p.read_text(), str(p)) for p in sorted(PACKAGE.rglob("*.py"))}
# Names PyTorch's own Python API spells with an underscore: public there, so here too.
PYTORCH_PUBLIC = {"_version", "_base",
                  "_parameters", "_buffers", "_modules",   # nn.Module's own dicts, as PyTorch names them
                  "_calculate_fan_in_and_fan_out",        # PyTorch's Linear.reset_parameters calls it too
                  "_initial_step", "_update_lr",          # LRScheduler's, which PyTorch's SequentialLR calls
                  "_C"}    # real torch's C module: viz/torch_record.py asks it whether torch.func is active
PYTHON_PUBLIC = {"_getframe"}     # sys._getframe
PYTORCH_PUBLIC_PREFIX = "_saved_"


def module_name(path):
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


NAMES = {module_name(p): p for p in MODULES}


def imported_modules(path, tree):
    """Every module of the package that path imports, anywhere in the file."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in NAMES)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            for a in node.names:   # `from . import x` imports the module x; `from .m import f`, m
                sub = f"{base}.{a.name}"
                out.add(sub if sub in NAMES else base)
    out.discard(here)
    return {m for m in out if m in NAMES}


def test_there_is_no_import_cycle():
    graph = {module_name(p): imported_modules(p, t) for p, t in MODULES.items()}
    # A package's __init__ runs before its modules: importing a.b imports a first.
    for name in list(graph):
        parent = name.rpartition(".")[0]
        if parent in graph and parent != name:
            graph[name] = graph[name] | {parent} if not name.startswith(parent + ".") else graph[name]
    state, cycles = {}, []

    def visit(start):
        stack = [(start, iter(sorted(graph[start])))]
        path = [start]
        state[start] = "open"
        while stack:
            name, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[name] = "done"
                stack.pop()
                path.pop()
            elif state.get(child) == "open":
                cycles.append(path[path.index(child):] + [child])
            elif child not in state:
                state[child] = "open"
                stack.append((child, iter(sorted(graph[child]))))
                path.append(child)

    for name in sorted(graph):
        if name not in state:
            visit(name)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_cycle_check_sees_a_cycle_hidden_in_a_function():
    """The check above must be able to fail: two modules importing each other,
    one of them inside a function, are a cycle to it."""
    a = ast.parse("from . import b\n")
    b = ast.parse("def f():\n    from . import a\n")
    fake_a, fake_b = PACKAGE / "a.py", PACKAGE / "b.py"
    NAMES.update({"autograd_teach.a": fake_a, "autograd_teach.b": fake_b})
    try:
        assert imported_modules(fake_a, a) == {"autograd_teach.b"}
        assert imported_modules(fake_b, b) == {"autograd_teach.a"}
    finally:
        del NAMES["autograd_teach.a"], NAMES["autograd_teach.b"]


def functions(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def too_long(tree):
    return [(f.name, f.end_lineno - f.lineno + 1) for f in functions(tree) if f.end_lineno - f.lineno + 1 > 40]


@pytest.mark.parametrize("path", sorted(CORE.rglob("*.py")), ids=lambda p: str(p.relative_to(CORE)))
def test_no_function_in_the_core_is_longer_than_40_lines(path):
    assert not too_long(MODULES[path]), f"{path.relative_to(PACKAGE)}: {too_long(MODULES[path])}"


def test_the_long_function_check_can_fail():
    assert too_long(ast.parse("def f():\n" + "    x = 1\n" * 40)) == [("f", 41)]
    assert too_long(ast.parse("def f():\n" + "    x = 1\n" * 39)) == []


def test_the_core_is_read_in_one_sitting():
    lines = {p: len(p.read_text().splitlines()) for p in CORE.rglob("*.py")}
    assert len(lines) >= 10 and sum(lines.values()) < 6000, sum(lines.values())


KERNEL_CODE = re.compile(r"\bvia_float64\(|^[ \t]*def (?:_?fma(?:32|64|_\w+)?|sleef_\w*|cascade_\w*|_two_sum|_round_to_odd)\(", re.M)


def kernel_code(source):
    return KERNEL_CODE.findall(source)


def test_float32_kernel_code_lives_in_the_kernel_folder():
    """Ops call kernels.exp(a), kernels.sum(a), kernels.fma(...): no fused
    multiply-add, PyTorch-order sum or float64 round trip is written elsewhere."""
    bad = {str(p.relative_to(PACKAGE)): kernel_code(p.read_text()) for p in MODULES
           if PACKAGE / "kernels" not in p.parents and kernel_code(p.read_text())}
    assert not bad, bad


def test_the_kernel_check_can_fail():
    assert kernel_code("y = via_float64(np.exp, a)\n") and kernel_code("def _fma(a, b, c, dt):\n")
    assert not kernel_code("y = kernels.exp(a)\nz = kernels.fma(a, b, c)\n")


def test_no_module_is_shadowed_by_a_name_in_its_package():
    """import autograd_teach.x.y and autograd_teach.x.y (the attribute) are the same module."""
    shadowed = []
    for name in sorted(NAMES):
        parent, _, last = name.rpartition(".")
        if parent:
            module = importlib.import_module(name)
            if getattr(sys.modules[parent], last) is not module:
                shadowed.append(f"{name} is {getattr(sys.modules[parent], last)!r}")
    assert not shadowed, shadowed


def test_tensor_is_under_400_lines():
    tree = MODULES[CORE / "tensor.py"]
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Tensor"]
    assert cls.end_lineno - cls.lineno + 1 < 400


def is_private(name):
    return name.startswith("_") and not name.startswith("__")


def defined_names(tree):
    """Private names a module owns: its globals, its classes' attributes and
    slots, and what its methods set on self or cls."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            names.add(node.attr)
        elif isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__slots__" for t in node.targets):
            names.update(ast.literal_eval(node.value))
    return {n for n in names if is_private(n)}


def protocol():
    """The private names core/tensor.py's docstring gives the rest of the core."""
    doc = ast.get_docstring(MODULES[CORE / "tensor.py"])
    section = doc[doc.index("The protocol"):]
    return set(re.findall(r"\b(?:t|Tensor|dtypes)\.(_\w+)", section))


def private_uses(tree, store):
    """(line, name) of x._name read (or written) where x is not self or cls."""
    ctx = ast.Store if store else ast.Load
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ctx) and is_private(node.attr):
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                yield node.lineno, node.attr


def foreign(path, tree, store):
    own = defined_names(tree)
    return [f"{path.relative_to(PACKAGE)}:{line} {name}" for line, name in private_uses(tree, store)
            if name not in own]


def test_no_module_writes_another_modules_private_attributes():
    bad = [b for p, t in MODULES.items() for b in foreign(p, t, store=True)]
    assert not bad, bad


def test_private_reads_across_modules_go_through_the_protocol():
    allowed = protocol() | PYTORCH_PUBLIC | PYTHON_PUBLIC
    bad = [b for p, t in MODULES.items() for b in foreign(p, t, store=False)
           if b.split()[-1] not in allowed and not b.split()[-1].startswith(PYTORCH_PUBLIC_PREFIX)]
    assert not bad, bad


def test_the_protocol_is_small_and_documented():
    names = protocol()
    assert {"_data", "_wrap", "_grad_edge"} <= names and len(names) <= 16, names


def test_the_private_checks_can_fail():
    tree = ast.parse("import x\nx._recorder = 1\nprint(x._hidden)\nself._mine = 2\n")
    path = PACKAGE / "fake.py"
    assert foreign(path, tree, store=True) == ["fake.py:2 _recorder"]
    assert foreign(path, tree, store=False) == ["fake.py:3 _hidden"]


def test_one_name_one_meaning():
    """No two classes of the package share a name (two Functions, two Nodes...)."""
    seen = {}
    for path, tree in MODULES.items():
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and not is_private(node.name):
                seen.setdefault(node.name, []).append(str(path.relative_to(PACKAGE)))
    assert {n: p for n, p in seen.items() if len(p) > 1} == {}
    assert not (PACKAGE / "function.py").exists()   # torch.autograd.Function's file is autograd/function.py


def test_the_tour_links_to_the_lines_it_names():
    """docs/how_it_works.md is built from how_it_works.in.md, whose links name
    the code by qualified name ({{core/node.py::OpNode.apply}}), never by
    line: a tour whose code moved fails here until scripts/build_tour.py is
    run again, and one whose code was renamed fails in build()."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("build_tour", PACKAGE.parent / "scripts" / "build_tour.py")
    tour = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tour)
    source = (PACKAGE.parent / "docs" / "how_it_works.in.md").read_text()
    assert "../autograd_teach/" not in source, "link by {{path::qualified.name}}"
    assert (PACKAGE.parent / "docs" / "how_it_works.md").read_text() == tour.build(), \
        "run: python scripts/build_tour.py"
    links = re.findall(r"\]\(\.\./autograd_teach/([\w/]+\.py)#L(\d+)\)", tour.build())
    assert len(links) >= 30
    for path, line in links:
        assert int(line) <= len((PACKAGE / path).read_text().splitlines()), (path, line)
    assert tour.line_of("core/node.py", "OpNode.apply") == tour.definition(
        MODULES[CORE / "node.py"], "OpNode.apply").lineno
    with pytest.raises(LookupError):
        tour.line_of("core/node.py", "OpNode.no_such_method")


VIZ = PACKAGE / "viz"


@pytest.mark.parametrize("path", sorted(VIZ.rglob("*.py")), ids=lambda p: str(p.relative_to(VIZ)))
def test_no_function_in_viz_is_longer_than_40_lines(path):
    assert not too_long(MODULES[path]), f"{path.relative_to(PACKAGE)}: {too_long(MODULES[path])}"


# viz's pipeline, in order: the recording and the model it is read into, the
# model's layout cost (arrange), DOT, the layout, SVG, the Diagram, the widget.
VIZ_STAGES = ["recording", "graph", "arrange", "dot", "layout", "svg", "diagram", "widget"]


def backward_imports(imports):
    """(stage, earlier stage it imports) pairs: imports is {viz module: the viz modules it imports}."""
    def stage(name):
        parts = name.split(".")
        return parts[2] if len(parts) > 2 and parts[2] in VIZ_STAGES else None
    return sorted((stage(a), stage(b)) for a, bs in imports.items() for b in bs
                  if stage(a) and stage(b) and VIZ_STAGES.index(stage(b)) > VIZ_STAGES.index(stage(a)))


def test_viz_flows_one_way():
    """A stage of viz's pipeline imports only stages before it (anywhere in
    the file): no step reaches back into one that comes later."""
    imports = {module_name(p): imported_modules(p, t) for p, t in MODULES.items() if VIZ in p.parents}
    assert backward_imports(imports) == []


def test_the_one_way_check_can_fail():
    assert backward_imports({"autograd_teach.viz.dot": {"autograd_teach.viz.svg", "autograd_teach.viz.graph"},
                             "autograd_teach.viz.recording.model": {"autograd_teach.viz.lang"}}) == [("dot", "svg")]
