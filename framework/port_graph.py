"""The directed graph of a diagram's ports, and the two questions `DiagramBuilder.build`
asks of it: is there a cycle (an algebraic loop), and which ports does a port reach
(the diagram's direct feedthrough).

A node is any hashable value (the builder uses ``("in" | "out", id(system), index)``);
the graph keeps its nodes and each node's successors in insertion order, so the answers
are deterministic. Both searches are iterative (no recursion limit on long chains) and
linear in the nodes and edges.
"""

__all__ = ["PortGraph"]


class PortGraph:
    """A directed graph: nodes and edges added in order (`add_node`, `add_edge`)."""

    __slots__ = ("_succ",)

    def __init__(self):
        self._succ = {}

    def add_node(self, node):
        """Add `node` (nothing happens if it is already there)."""
        self._succ.setdefault(node, [])

    def add_edge(self, tail, head):
        """Add the edge tail -> head (and both nodes)."""
        self._succ.setdefault(tail, []).append(head)
        self._succ.setdefault(head, [])

    def find_cycle(self):
        """The nodes of one directed cycle, in order (each node's edge goes to the next, the
        last's to the first), or None when the graph is acyclic.

        Depth-first search from each node in insertion order; a node on the current path
        met again closes the cycle.
        """
        state = {}                      # absent: unvisited; 1: on the path; 2: done
        for root in self._succ:
            if root in state:
                continue
            path, iters = [root], [iter(self._succ[root])]
            state[root] = 1
            while path:
                for nxt in iters[-1]:
                    mark = state.get(nxt)
                    if mark == 1:
                        return path[path.index(nxt):]
                    if mark is None:
                        state[nxt] = 1
                        path.append(nxt)
                        iters.append(iter(self._succ[nxt]))
                        break
                else:
                    state[path.pop()] = 2
                    iters.pop()
        return None

    def reachable_from(self, sources):
        """The set of nodes reachable from the nodes `sources` (an iterable), the sources
        included."""
        seen = set()
        stack = [s for s in sources if s in self._succ]
        seen.update(stack)
        while stack:
            for nxt in self._succ[stack.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return seen
