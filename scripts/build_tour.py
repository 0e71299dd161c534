"""Write docs/how_it_works.md from docs/how_it_works.in.md.

The tour links to the code by qualified name, not by line: in the .in.md a
link is written {{path::name}} (path under autograd_teach/, name a function,
class or method, e.g. OpNode.apply), or {{path::name|text}} for the first
line inside name that contains text ({{path::|text}}: in the whole file).
This script puts in the path and the line number. Run it after the code
moves (tests/test_architecture.py says when):

    python scripts/build_tour.py
"""
import ast
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE, TARGET = ROOT / "docs" / "how_it_works.in.md", ROOT / "docs" / "how_it_works.md"
PLACE = re.compile(r"\{\{([\w/]+\.py)::([\w.]*)(?:\|([^}]+))?\}\}")


def definition(tree, qualname):
    """The def or class node of a dotted name (Class.method) in a module."""
    node = tree
    for part in qualname.split("."):
        node = next((n for n in ast.iter_child_nodes(node) if getattr(n, "name", None) == part
                     and isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))), None)
        if node is None:
            raise LookupError(f"no {qualname} in it")
    return node


def line_of(path, qualname, text=None):
    source = (ROOT / "autograd_teach" / path).read_text()
    lines = source.splitlines()
    first, last = 1, len(lines)
    if qualname:
        node = definition(ast.parse(source), qualname)
        first, last = node.lineno, node.end_lineno
    if text is None:
        return first
    for number in range(first, last + 1):
        if text in lines[number - 1]:
            return number
    raise LookupError(f"autograd_teach/{path}: {qualname or 'the module'} has no line containing {text!r}")


def link(match):
    path, qualname, text = match.groups()
    return f"../autograd_teach/{path}#L{line_of(path, qualname, text)}"


def build():
    note = "<!-- written by scripts/build_tour.py from how_it_works.in.md: edit that one -->\n"
    return note + PLACE.sub(link, SOURCE.read_text())


if __name__ == "__main__":
    TARGET.write_text(build())
