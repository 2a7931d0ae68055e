"""framework.port_graph: the cycle search and reachability that DiagramBuilder.build uses
(algebraic loops, the diagram's direct feedthrough), on graphs whose answers are known."""

import itertools

import numpy as np

from merganser.framework.port_graph import PortGraph


def graph_of(edges, nodes=()):
    g = PortGraph()
    for n in nodes:
        g.add_node(n)
    for a, b in edges:
        g.add_edge(a, b)
    return g


def is_cycle(g, cycle, edges):
    """Each node of `cycle` has an edge to the next, the last to the first; no repeats."""
    edge_set = set(edges)
    return (len(set(cycle)) == len(cycle)
            and all((cycle[i], cycle[(i + 1) % len(cycle)]) in edge_set
                    for i in range(len(cycle))))


def test_acyclic_graphs_have_no_cycle():
    assert graph_of([]).find_cycle() is None
    assert graph_of([], nodes=[1, 2]).find_cycle() is None
    # a diamond and a long chain (deeper than Python's recursion limit)
    assert graph_of([(0, 1), (0, 2), (1, 3), (2, 3)]).find_cycle() is None
    chain = [(i, i + 1) for i in range(5000)]
    assert graph_of(chain).find_cycle() is None


def test_cycles_are_found_in_order():
    edges = [("a", "b"), ("b", "c"), ("c", "a")]
    cycle = graph_of(edges).find_cycle()
    assert cycle == ["a", "b", "c"]
    # a self loop, and a cycle reached through a tail
    assert graph_of([(5, 5)]).find_cycle() == [5]
    edges = [(0, 1), (1, 2), (2, 3), (3, 1), (3, 4)]
    assert graph_of(edges).find_cycle() == [1, 2, 3]
    chain = [(i, i + 1) for i in range(5000)] + [(5000, 2500)]
    cycle = graph_of(chain).find_cycle()
    assert cycle == list(range(2500, 5001))


def test_random_graphs_agree_with_the_transitive_closure():
    """Against Warshall's closure: a cycle exists iff some node reaches itself, and
    reachable_from is the closure's row union."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        n = int(rng.integers(1, 9))
        edges = [(a, b) for a, b in itertools.product(range(n), repeat=2)
                 if rng.random() < 0.2]
        g = graph_of(edges, nodes=range(n))
        R = np.zeros((n, n), bool)
        for a, b in edges:
            R[a, b] = True
        for k in range(n):
            R |= R[:, k:k + 1] & R[k:k + 1, :]
        cycle = g.find_cycle()
        assert (cycle is not None) == bool(R.diagonal().any())
        if cycle is not None:
            assert is_cycle(g, cycle, edges)
        sources = [s for s in range(n) if rng.random() < 0.4]
        expected = set(sources) | {j for s in sources for j in range(n) if R[s, j]}
        assert g.reachable_from(sources) == expected


def test_reachable_from_ignores_unknown_sources():
    assert graph_of([(1, 2)]).reachable_from([7, 1]) == {1, 2}
