"""The layout of a compiled diagram: which ports are needed, in which order, and where
every value lives in the flat arrays of the generated function (``codegen``).

Built from a root DiagramContext's wiring (its input sources: connections, fixed values,
defaults), never from the system classes: each leaf contributes its `CompiledForm`.
The compiled part is every leaf with a `CompiledForm` that the continuous state depends
on (through connections and direct feedthrough). A leaf without one (a Python
LeafSystem, a leaf with discrete or abstract state, a form whose check refuses the
wiring) stays Python: the output ports of it that the compiled part reads are evaluated
in Python before the compiled call (`Layout.python_ports`), and its time derivatives
after it (`Layout.python_derivatives`). `NotCompilable` says why nothing compiles.
"""

import dataclasses

import numpy as np

from ..context import DiagramContext, FixedInputValue
from ..ports import VECTOR
from .protocol import compiled_form_of

__all__ = ["NotCompilable", "Layout", "build_layout"]


class NotCompilable(Exception):
    """Why a diagram context evaluates block by block (the message)."""


@dataclasses.dataclass
class Node:
    """One needed output port."""

    leaf: int                   # index into Layout.leaves
    port: int
    fn: object
    p_offset: int
    y_area: tuple = (0, 0)
    copies: list = dataclasses.field(default_factory=list)   # w offsets it is copied to


@dataclasses.dataclass
class LeafLayout:
    """Where one compiled leaf's arrays are."""

    index: int                  # position in the root context's leaves
    name: str
    form: object
    x_slice: tuple = None       # (a, b) in x when the leaf's state is contiguous
    gather: tuple = ()          # global state indices otherwise (gathered into x_area)
    x_area: tuple = (0, 0)
    xdot_slice: tuple = None
    xdot_area: tuple = (0, 0)
    u_area: tuple = (0, 0)
    u_offsets: tuple = ()       # start of each input port inside u_area
    p_area: tuple = (0, 0)
    work_area: tuple = (0, 0)
    arrays: int = -1            # index into the generated function's arrays tuple
    derivatives: object = None
    fixed: list = dataclasses.field(default_factory=list)   # (w offset, source object)

    def x_expr(self):
        if self.x_slice is not None:
            return f"x[{self.x_slice[0]}:{self.x_slice[1]}]"
        return f"w[{self.x_area[0]}:{self.x_area[1]}]"


@dataclasses.dataclass
class Layout:
    leaves: list
    order: list                 # Nodes in evaluation order
    p_size: int
    w_size: int
    python_ports: list = dataclasses.field(default_factory=list)   # Nodes Python evaluates
    python_derivatives: list = dataclasses.field(default_factory=list)  # (leaf, index)
    python_reasons: dict = dataclasses.field(default_factory=dict)  # leaf index -> why


def _describe(system):
    return f"'{system.get_name()}' ({type(system).__name__})"


def build_layout(ctx):
    """The Layout of root DiagramContext ``ctx``'s time derivatives.

    Raises
    ------
    NotCompilable
        With the reason (a block without a compiled form, an abstract or unconnected
        input, discrete or abstract state feeding the derivatives, an algebraic loop).
    """
    if not isinstance(ctx, DiagramContext) or ctx._parent is not None:
        raise NotCompilable("only the root context of a Diagram is compiled")
    leaves = ctx._leaves
    position = {id(leaf): k for k, leaf in enumerate(leaves)}
    stateful = [k for k, leaf in enumerate(leaves) if leaf._global_xc.size]
    if not stateful:
        raise NotCompilable("the diagram has no continuous state")
    forms, python = {}, {}

    def form(k):
        """The leaf's CompiledForm, or None when it stays Python (reason in `python`)."""
        if k not in forms:
            system = leaves[k]._system
            f = compiled_form_of(system)
            if f is None:
                python[k] = f"system {_describe(system)} has no compiled form"
            elif leaves[k]._xd or leaves[k]._xa:
                python[k] = f"system {_describe(system)} has discrete or abstract state"
                f = None
            else:
                reason = f.check(leaves[k]) if f.check is not None else None
                if reason:
                    python[k] = f"system {_describe(system)}: {reason}"
                    f = None
            forms[k] = f
        return forms[k]

    def source_of(k, i):
        """('port', leaf index, port index) | ('fixed', FixedInputValue) | ('default', array)
        | ('none',) (abstract, or optional and unconnected: zeros)."""
        leaf = leaves[k]
        port = leaf._system.get_input_port(i)
        if port.get_data_type() != VECTOR:
            return ("none",)        # not part of u; the form's check judged its wiring
        source = leaf._inputs[i]
        if source is None:
            if port._default is None and not port.is_required():
                return ("none",)
            if port._default is None:
                raise NotCompilable(f"input port '{port.get_name()}' of system "
                                    f"{_describe(leaf._system)} is neither connected nor fixed")
            return ("default", port._default)
        if isinstance(source, FixedInputValue):
            return ("fixed", source)
        out_port, src_leaf = source
        if out_port.get_data_type() != VECTOR:
            raise NotCompilable(f"output port '{out_port.get_name()}' of system "
                                f"{_describe(src_leaf._system)} is abstract")
        return ("port", position[id(src_leaf)], out_port.get_index())

    # the needed ports, sorted (depth-first post-order over direct feedthrough)
    nodes, order, visiting, py_nodes = {}, [], set(), {}

    def need(k, j):
        key = (k, j)
        if key in nodes or key in py_nodes:
            return
        if key in visiting:
            raise NotCompilable(f"algebraic loop through output port {j} of system "
                                f"{_describe(leaves[k]._system)}")
        f = form(k)
        entry = None if f is None else f.outputs[j]
        system = leaves[k]._system
        if entry is None:           # Python evaluates this port (and what it reads)
            py_nodes[key] = Node(k, j, None, 0)
            if f is not None:
                python.setdefault(k, f"output port '{system.get_output_port(j).get_name()}'"
                                     f" of system {_describe(system)} has no compiled "
                                     f"function")
            return
        visiting.add(key)
        for i in range(system.num_input_ports()):
            if system.has_direct_feedthrough(i, j):
                src = source_of(k, i)
                if src[0] == "port":
                    need(src[1], src[2])
        visiting.discard(key)
        nodes[key] = Node(k, j, entry.fn, entry.p_offset)
        order.append(nodes[key])

    compiled_stateful = [k for k in stateful if form(k) is not None]
    for k in compiled_stateful:
        for i in range(leaves[k]._system.num_input_ports()):
            src = source_of(k, i)
            if src[0] == "port":
                need(src[1], src[2])
    if not compiled_stateful:
        raise NotCompilable("; ".join(python[k] for k in stateful))

    involved = sorted(set(compiled_stateful) | {node.leaf for node in order})
    w = 0
    p = 0
    out = []
    index_of = {}

    def area(size):
        nonlocal w
        start, w = w, w + int(size)
        return (start, w)

    for k in involved:
        leaf = leaves[k]
        system = leaf._system
        f = forms[k]
        lay = LeafLayout(k, system.get_name(), f)
        g = leaf._global_xc
        if g.size:
            lay.derivatives = f.derivatives
            if np.all(np.diff(g) == 1):
                lay.x_slice = lay.xdot_slice = (int(g[0]), int(g[-1]) + 1)
            else:
                lay.gather = tuple(int(i) for i in g)
                lay.x_area = area(g.size)
                lay.xdot_area = area(g.size)
        sizes = [port.size() if port.get_data_type() == VECTOR else 0
                 for port in (system.get_input_port(i) for i in range(system.num_input_ports()))]
        lay.u_area = area(sum(sizes))
        lay.u_offsets = tuple(lay.u_area[0] + int(o) for o in np.cumsum([0] + sizes[:-1]))
        lay.work_area = area(f.work_size)
        n_p = np.asarray(f.parameters(leaf), dtype=float).size
        lay.p_area = (p, p + n_p)
        p += n_p
        if f.arrays is not None:
            lay.arrays = sum(1 for other in out if other.arrays >= 0)
        index_of[k] = len(out)
        out.append(lay)
    for node in order:
        node.leaf = index_of[node.leaf]
        system = leaves[out[node.leaf].index]._system
        node.y_area = area(system.get_output_port(node.port).size())
    for node in py_nodes.values():          # node.leaf stays the root leaf index
        node.y_area = area(leaves[node.leaf]._system.get_output_port(node.port).size())
    by_port = {(out[n.leaf].index, n.port): n for n in order}
    by_port.update(py_nodes)
    for lay in out:
        k = lay.index
        system = leaves[k]._system
        for i in range(system.num_input_ports()):
            src = source_of(k, i)
            if src[0] == "port":
                node = by_port.get((src[1], src[2]))
                if node is not None:        # None: an input no needed value depends on
                    node.copies.append(lay.u_offsets[i])
            elif src[0] != "none":
                lay.fixed.append((lay.u_offsets[i], src[1]))
    python_derivatives = [(k, leaves[k]._xc_index) for k in stateful if forms[k] is None]
    used = {n.leaf for n in py_nodes.values()} | {k for k, _ in python_derivatives}
    return Layout(out, order, p, w, list(py_nodes.values()), python_derivatives,
                  {k: python[k] for k in sorted(used)})
