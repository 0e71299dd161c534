"""Convert op files from the old node protocol to the one in autograd_teach/node.py.

    python scripts/migrate_op_protocol.py autograd_teach/ops/*.py

Mechanical and idempotent; it changes three kinds of lines only:
  from ..function import Function, ...   ->  from ..node import OpNode, ...
  class XBackward0(Function):            ->  class XBackward0(OpNode):
  save_if = {"self": 1, "other": 0}      ->  needed_for = {"self": "other", "other": "self"}
(save_if gave, for a saved input, the index of the input whose gradient needs
it; needed_for gives that input's name, looked up in the class's `inputs`).
"""
import ast
import re
import sys


def inputs_of(cls_node, classes):
    """The class's `inputs` tuple, inherited through classes of the same file."""
    for stmt in cls_node.body:
        if isinstance(stmt, ast.Assign) and any(getattr(t, "id", None) == "inputs" for t in stmt.targets):
            return ast.literal_eval(stmt.value)
    for base in cls_node.bases:
        if isinstance(base, ast.Name) and base.id in classes:
            return inputs_of(classes[base.id], classes)
    return ("self",)


def migrate(text):
    tree = ast.parse(text)
    classes = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    lines = text.splitlines(keepends=True)
    for cls in classes.values():
        for stmt in cls.body:
            if isinstance(stmt, ast.Assign) and any(getattr(t, "id", None) == "save_if" for t in stmt.targets):
                names = inputs_of(cls, classes)
                old = ast.literal_eval(stmt.value)
                new = "{" + ", ".join(f'"{k}": "{names[v]}"' for k, v in old.items()) + "}"
                i = stmt.lineno - 1
                lines[i] = re.sub(r"save_if = \{[^}]*\}", "needed_for = " + new, lines[i])
    text = "".join(lines)
    text = re.sub(r"from \.\.function import Function\b", "from ..node import OpNode", text)
    text = re.sub(r"^(class \w+)\(Function\):", r"\1(OpNode):", text, flags=re.M)
    return text


if __name__ == "__main__":
    for path in sys.argv[1:]:
        with open(path) as f:
            text = f.read()
        new = migrate(text)
        if new != text:
            with open(path, "w") as f:
                f.write(new)
            print("migrated", path)
