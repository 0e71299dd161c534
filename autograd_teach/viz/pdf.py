"""PDF from the layout engine's JSON (graphviz-pure writes no PDF itself)."""


def from_layout_json(data):
    raise NotImplementedError
