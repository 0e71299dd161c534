"""The graph model made ready for the layout engine: small enough, no long edges, straight spines.

Graphviz's ``dot`` costs grow with what it places: every drawn node, every
edge, and every virtual node (an edge spanning k ranks is routed through a
chain of k-1 of them, and every rank's nodes are reordered to reduce
crossings).  Three things keep that bounded, each decided on the model,
before any layout runs:

* :func:`build_for_drawing` builds the model again with fewer nodes while
  :func:`layout_cost` is over :data:`LAYOUT_COST`, and says so in the caption;
* :func:`shorten_long_edges`: a leaf used by every step of a loop (a shared
  weight, an RNN, ``y = y + x``) gets an edge from every step down to its one
  AccumulateGrad: thousands of virtual nodes crossing each other, which took
  minutes.  Drawing the shared node again next to each far-away use (dashed,
  "same node as n5") leaves only short edges;
* :func:`spines` gives the layout a ``group`` per longest path, which it keeps
  straight: the loop's steps then stand in one column, with their copies
  beside them, instead of drifting sideways into a staircase many screens wide.
"""
from __future__ import annotations

import itertools
from collections import deque

from . import graph as G

SPAN = 2             # an edge spanning more ranks than this is long
LONG_BUDGET = 40     # virtual nodes tolerated before long edges become copies
# layout_cost() at most this: 0.6-0.85 s of CPU for every shape in docs/benchmarks.md
# (a chain of 2,200 nodes costs 2,200 nodes + 2,200 edges).
LAYOUT_COST = 4400


def ranks(g):
    """Rank of each node: its longest distance from a node with no edge into it."""
    indeg = {n.id: 0 for n in g.nodes}
    for e in g.edges:
        indeg[e.dst] += 1
    rank = {n.id: 0 for n in g.nodes}
    ready = deque(n for n, d in indeg.items() if d == 0)
    while ready:
        nid = ready.popleft()
        for e in g.out_edges(nid):
            rank[e.dst] = max(rank[e.dst], rank[nid] + 1)
            indeg[e.dst] -= 1
            if indeg[e.dst] == 0:
                ready.append(e.dst)
    return rank


def virtual_nodes(g, rank=None):
    """How many virtual nodes the layout's long edges need."""
    rank = rank or ranks(g)
    return sum(max(0, rank[e.dst] - rank[e.src] - 1) for e in g.edges)


def layout_cost(g):
    """What the layout places and routes: drawn nodes, edges, and the virtual nodes of long edges."""
    return len(g.nodes) + len(g.edges) + virtual_nodes(g)


def shorten_long_edges(g):
    """Point each long gradient edge at a copy of its target drawn next to its source (a REF node)."""
    rank = ranks(g)
    if virtual_nodes(g, rank) <= LONG_BUDGET:
        return g
    long_edges = [e for e in g.edges if rank[e.dst] - rank[e.src] > SPAN and e.kind in ("grad", "hidden")]
    for k, e in enumerate(long_edges):
        target = g.node(e.dst)
        copy = G.DiagramNode(id=f"r{k}", kind=G.REF, name=target.name, fn=target.fn, ref=target.id)
        g.nodes.append(copy)
        e.dst = copy.id
    g.changed()
    if long_edges:
        g.hidden.append(("caption.refs", {"n": len(long_edges)}))
    return g


def spines(g):
    """Node id -> spine number: the graph cut into paths, each following, from
    its first node in graph order, the child with the longest path below it
    (copies of shared nodes end a path).  The layout keeps each spine straight."""
    height = _heights(g)
    spine, numbers = {}, itertools.count()
    for n in g.nodes:
        if n.id in spine:
            continue
        number, node_id = next(numbers), n.id
        while node_id is not None:
            spine[node_id] = number
            kids = [e.dst for e in g.out_edges(node_id)
                    if e.dst not in spine and g.node(e.dst).kind != G.REF]
            node_id = max(kids, key=height.__getitem__) if kids else None
    return spine


def _heights(g):
    """Node id -> number of nodes on the longest path from it down to a sink."""
    rank = ranks(g)
    height = {}
    for node_id in sorted(rank, key=rank.__getitem__, reverse=True):
        height[node_id] = 1 + max((height[e.dst] for e in g.out_edges(node_id)), default=0)
    return height


def build_for_drawing(outputs, max_nodes=G.DEFAULT_MAX_NODES, **options):
    """:func:`graph.build_graph`, made small enough to lay out in well under a second.

    Whatever ``max_nodes`` says (``None`` too), a graph whose layout would
    cost more than :data:`LAYOUT_COST` (:func:`layout_cost`) is built again
    with fewer nodes, and its caption says so: a diagram never hangs.
    """
    walk = G.Walk(outputs)         # walked once, however often the model is rebuilt
    limit = max_nodes
    if (limit is None or limit > LAYOUT_COST // 2) and len(walk.functions) > LAYOUT_COST // 2:
        limit = LAYOUT_COST // 2   # every Function is a drawn node and an edge: too many to build them all
    g = shorten_long_edges(G.build_graph(outputs, max_nodes=limit, walk=walk, **options))
    cost = layout_cost(g)
    while cost > LAYOUT_COST and limit != 1:
        functions = sum(n.kind in (G.FUNCTION, G.ACCUMULATE, G.REPEAT) for n in g.nodes)
        limit = max(1, min(functions, limit or functions) * LAYOUT_COST // cost - 1)
        g = shorten_long_edges(G.build_graph(outputs, max_nodes=limit, walk=walk, **options))
        cost = layout_cost(g)
    if limit != max_nodes:
        g.hidden.insert(0, ("caption.collapsed", {"n": len(g.nodes)}))
    return g
