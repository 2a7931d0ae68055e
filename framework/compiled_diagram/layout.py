"""The layout of a compiled diagram: which ports are needed, in which order, and where
every value lives in the flat arrays of the generated functions (``codegen``).

Built from a root DiagramContext's wiring (its input sources: connections, fixed values,
defaults), never from the system classes: each leaf contributes its `CompiledForm`.
The compiled part is every leaf with a `CompiledForm` that the continuous state, a
compiled discrete update or a logger (VectorLogSink) depends on (through connections and
direct feedthrough). A leaf without one (a Python LeafSystem, a leaf with abstract state
or with discrete state but no compiled update, a form whose check refuses the wiring)
stays Python: the output ports of it that the compiled derivatives read are evaluated in
Python before the compiled call (`Layout.python_ports`), and its time derivatives after
it (`Layout.python_derivatives`); events that the compiled simulation loop cannot run
(such a leaf's, a logger of a Python port) are named in `Layout.event_blockers`.
`NotCompilable` says why nothing compiles.
"""

import dataclasses

import numpy as np

from ..context import DiagramContext, FixedInputPortValue
from ..ports import VECTOR
from ..vector_log_sink import VectorLogSink
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
    xd_area: tuple = (0, 0)     # its discrete state (groups concatenated), inside x_area
    xd_next_area: tuple = (0, 0)
    discrete_update: object = None
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
    discrete: list = dataclasses.field(default_factory=list)   # LeafLayouts with an update
    discrete_order: list = dataclasses.field(default_factory=list)  # Nodes they read
    loggers: list = dataclasses.field(default_factory=list)    # (leaf index, Node recorded)
    log_order: list = dataclasses.field(default_factory=list)  # Nodes the loggers read
    event_blockers: dict = dataclasses.field(default_factory=dict)  # leaf index -> why


def _describe(system):
    return f"'{system.get_name()}' ({type(system).__name__})"


def build_layout(ctx):
    """The Layout of root DiagramContext ``ctx``'s time derivatives, discrete updates and
    logged values.

    Raises
    ------
    NotCompilable
        With the reason (a block without a compiled form, an abstract or unconnected
        input, no compiled state at all, an algebraic loop).
    """
    if not isinstance(ctx, DiagramContext) or ctx._parent is not None:
        raise NotCompilable("only the root context of a Diagram is compiled")
    leaves = ctx._leaves
    position = {id(leaf): k for k, leaf in enumerate(leaves)}
    stateful = [k for k, leaf in enumerate(leaves) if leaf._global_xc.size]
    forms, python = {}, {}

    def form(k):
        """The leaf's CompiledForm, or None when it stays Python (reason in `python`)."""
        if k not in forms:
            system = leaves[k]._system
            f = compiled_form_of(system)
            if f is None:
                python[k] = f"system {_describe(system)} has no compiled form"
            elif leaves[k]._xa:
                python[k] = f"system {_describe(system)} has abstract state"
                f = None
            elif leaves[k]._xd and f.discrete_update is None:
                python[k] = (f"system {_describe(system)} has discrete state and its compiled "
                             f"form no discrete_update")
                f = None
            else:
                reason = f.check(leaves[k]) if f.check is not None else None
                if reason:
                    python[k] = f"system {_describe(system)}: {reason}"
                    f = None
            forms[k] = f
        return forms[k]

    def source_of(k, i):
        """('port', leaf index, port index) | ('fixed', FixedInputPortValue) | ('default', array)
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
        if isinstance(source, FixedInputPortValue):
            return ("fixed", source)
        out_port, src_leaf = source
        if out_port.get_data_type() != VECTOR:
            raise NotCompilable(f"output port '{out_port.get_name()}' of system "
                                f"{_describe(src_leaf._system)} is abstract")
        return ("port", position[id(src_leaf)], out_port.get_index())

    # the needed ports, sorted (depth-first post-order over direct feedthrough); each
    # root set (derivatives, discrete updates, loggers) collects the keys it reads
    nodes, order, visiting, py_seen = {}, [], set(), {}

    def need(k, j, acc):
        key = (k, j)
        if key in acc:
            return
        if key in visiting:
            raise NotCompilable(f"algebraic loop through output port {j} of system "
                                f"{_describe(leaves[k]._system)}")
        f = form(k)
        entry = None if f is None else f.outputs[j]
        system = leaves[k]._system
        if entry is None:           # Python evaluates this port (and what it reads)
            acc.add(key)
            if key not in py_seen:
                py_seen[key] = Node(k, j, None, 0)
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
                    need(src[1], src[2], acc)
        visiting.discard(key)
        acc.add(key)
        if key not in nodes:
            nodes[key] = Node(k, j, entry.fn, entry.p_offset)
            order.append(nodes[key])

    def need_inputs(ks, acc):
        for k in ks:
            for i in range(leaves[k]._system.num_input_ports()):
                src = source_of(k, i)
                if src[0] == "port":
                    need(src[1], src[2], acc)

    compiled_stateful = [k for k in stateful if form(k) is not None]
    deriv_keys, discrete_keys, log_keys = set(), set(), set()
    need_inputs(compiled_stateful, deriv_keys)
    compiled_discrete = [k for k, leaf in enumerate(leaves)
                         if leaf._xd and form(k) is not None]
    need_inputs(compiled_discrete, discrete_keys)
    blockers = {}
    loggers = []
    for k, leaf in enumerate(leaves):
        system = leaf._system
        if isinstance(system, VectorLogSink):
            src = source_of(k, 0)
            if src[0] != "port":
                blockers[k] = f"logger {_describe(system)} records a fixed or default value"
                continue
            need(src[1], src[2], log_keys)
            loggers.append((k, (src[1], src[2])))
        elif system._periodic_events or system._per_step_events:
            if k not in compiled_discrete:
                blockers[k] = (python[k] if form(k) is None else
                               f"system {_describe(system)}: its events are not a compiled "
                               f"discrete update")
            elif (len(system._periodic_events) != 1 or system._per_step_events
                    or system._periodic_events[0][1].kind != "discrete"):
                blockers[k] = (f"system {_describe(system)}: the compiled loop runs one "
                               f"periodic discrete update per leaf, not its events")
    for key in sorted((discrete_keys | log_keys) & set(py_seen)):
        blockers.setdefault(key[0], python[key[0]])
    if stateful and not compiled_stateful:
        raise NotCompilable("; ".join(python[k] for k in stateful))
    if not stateful:
        if not compiled_discrete and not loggers:
            raise NotCompilable("the diagram has no continuous state, compiled discrete "
                                "update or logger")
        if blockers:
            raise NotCompilable("; ".join(blockers.values()))

    involved = sorted(set(compiled_stateful) | set(compiled_discrete)
                      | {node.leaf for node in order})
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
        nxd = sum(group.size for group in leaf._xd)
        if g.size:
            lay.derivatives = f.derivatives
        if nxd:             # x = [xc; xd] in w (xc gathered)
            lay.gather = tuple(int(i) for i in g)
            lay.x_area = area(g.size + nxd)
            lay.xd_area = (lay.x_area[0] + g.size, lay.x_area[1])
            lay.xd_next_area = area(nxd)
            lay.discrete_update = f.discrete_update
            if g.size:
                lay.xdot_area = area(g.size)
        elif g.size:
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
    py_nodes = [py_seen[key] for key in py_seen if key in deriv_keys]
    for node in py_nodes:           # node.leaf stays the root leaf index
        node.y_area = area(leaves[node.leaf]._system.get_output_port(node.port).size())
    by_port = {(out[n.leaf].index, n.port): n for n in order}
    by_port.update({(n.leaf, n.port): n for n in py_nodes})
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
    used = {n.leaf for n in py_nodes} | {k for k, _ in python_derivatives}
    return Layout(out, [n for n in order if (out[n.leaf].index, n.port) in deriv_keys], p, w,
                  py_nodes, python_derivatives, {k: python[k] for k in sorted(used)},
                  discrete=[out[index_of[k]] for k in compiled_discrete],
                  discrete_order=[n for n in order
                                  if (out[n.leaf].index, n.port) in discrete_keys],
                  loggers=[(k, nodes[key]) for k, key in loggers if key in nodes],
                  log_order=[n for n in order if (out[n.leaf].index, n.port) in log_keys],
                  event_blockers=blockers)
