"""Exact linearization by composing the leaves' ``do_calc_linearization`` (see
``framework.primitives._linearization`` for the protocol).

For a Diagram with leaves L, each linearized about the operating point as

    δẋ_L = A_L δx_L + B_L δu_L,    δy_L = C_L δx_L + D_L δu_L

(δx_L[n+1] for discrete leaves), every leaf input is one of: a connection from another
leaf's output, the selected diagram input u, or a constant (a fixed value or a port
default). Each leaf output is written as δy = Cx δx + Du δu over the whole state x and
the selected input u by recursion through the direct-feedthrough (D_L ≠ 0) blocks, the
algebraic output equations solved in dependency order; the diagram is free of
algebraic loops, so the recursion terminates. Then

    A = Σ_L E_L (A_L E_Lᵀ + B_L Cx(u_L)),  B = Σ_L E_L B_L Du(u_L),
    C, D = Cx, Du of the selected output,

with E_L the embedding of the leaf's state in x.
"""

import numpy as np

from ..leaf_system import LeafSystem
from ..ports import DiagramOutputPort
from ..primitives._linearization import total_vector_size, vector_port_slices
from .operating_point import CONTINUOUS


class NotExactlyLinearizable(Exception):
    """Some leaf cannot give an exact linearization; the message says which and why."""


class _Composer:
    """Holds the leaves' linearizations and the memoized output expressions."""

    def __init__(self, op):
        self.op = op
        self.N, self.m = op.n, op.m
        self.columns = self._state_columns()
        port = op.input_port
        self.selected = op.work._fixed.get(port.get_index()) if port is not None else None
        self.lins = {}
        self.outputs = {}
        self.visiting = set()

    def _state_columns(self):
        op = self.op
        columns, start = {}, 0
        for leaf in op.leaves:
            if op.kind == CONTINUOUS:
                columns[id(leaf)] = np.asarray(leaf._global_xc, dtype=int)
            else:
                size = sum(leaf.get_discrete_state(i).size
                           for i in range(leaf.num_discrete_state_groups()))
                columns[id(leaf)] = np.arange(start, start + size)
                start += size
        return columns

    def lin(self, leaf):
        """(A_L, B_L, C_L, D_L) of ``leaf`` over all its vector ports, checked."""
        key = id(leaf)
        if key in self.lins:
            return self.lins[key]
        s = leaf._system
        who = f"subsystem '{s.get_name()}' ({type(s).__name__})"
        for port in s._input_ports:
            connected = leaf._inputs[port.get_index()].__class__ is tuple
            if port.get_data_type() != "vector" and connected:
                raise NotExactlyLinearizable(
                    f"{who} has the connected abstract input port '{port.get_name()}'")
        calc = getattr(s, "do_calc_linearization", None)
        default = getattr(LeafSystem, "do_calc_linearization", None)
        if calc is None or (default is not None and getattr(calc, "__func__", None) is default):
            raise NotExactlyLinearizable(f"{who} does not implement do_calc_linearization")
        result = calc(leaf, None, None)
        if result is None:
            raise NotExactlyLinearizable(f"{who} has no exact linearization at this context")
        A, B, C, D = (np.asarray(M, dtype=float) for M in result)
        n = self.columns[key].size
        m = total_vector_size(s._input_ports)
        p = total_vector_size(s._output_ports)
        for name, M, shape in (("A", A, (n, n)), ("B", B, (n, m)), ("C", C, (p, n)),
                               ("D", D, (p, m))):
            if M.shape != shape:
                raise RuntimeError(
                    f"{self.op.fn}: do_calc_linearization of {who} returned {name} of shape "
                    f"{M.shape}, expected {shape}")
        entry = (A, B, C, D, vector_port_slices(s._input_ports),
                 vector_port_slices(s._output_ports))
        self.lins[key] = entry
        return entry

    def input_expression(self, leaf, i):
        """(Cx, Du) of leaf input ``i``: δu_i = Cx δx + Du δu."""
        size = leaf._system._input_ports[i].size()
        source = leaf._inputs[i]
        if self.selected is not None and source is self.selected:
            return np.zeros((size, self.N)), np.eye(self.m)
        if source.__class__ is tuple:
            src_port, src_leaf = source
            return self.output_expression(src_leaf, src_port.get_index())
        return np.zeros((size, self.N)), np.zeros((size, self.m))

    def output_expression(self, leaf, j):
        """(Cx, Du) of leaf output ``j``: δy_j = Cx δx + Du δu."""
        key = (id(leaf), j)
        if key in self.outputs:
            return self.outputs[key]
        if key in self.visiting:
            raise NotExactlyLinearizable(
                f"the output equations of subsystem '{leaf._system.get_name()}' form a loop")
        self.visiting.add(key)
        A_L, B_L, C_L, D_L, ins, outs = self.lin(leaf)
        rows = outs[j]
        Cx = np.zeros((rows.stop - rows.start, self.N))
        Cx[:, self.columns[id(leaf)]] = C_L[rows]
        Du = np.zeros((rows.stop - rows.start, self.m))
        for i, cols in enumerate(ins):
            block = D_L[rows, cols]
            if block.size and np.any(block):
                ex_x, ex_u = self.input_expression(leaf, i)
                Cx += block @ ex_x
                Du += block @ ex_u
        self.visiting.discard(key)
        self.outputs[key] = (Cx, Du)
        return Cx, Du

    def dynamics(self):
        A = np.zeros((self.N, self.N))
        B = np.zeros((self.N, self.m))
        for leaf in self.op.leaves:
            idx = self.columns[id(leaf)]
            if idx.size == 0:
                continue
            A_L, B_L, _, _, ins, _ = self.lin(leaf)
            A[np.ix_(idx, idx)] += A_L
            for i, cols in enumerate(ins):
                block = B_L[:, cols]
                if block.size and np.any(block):
                    ex_x, ex_u = self.input_expression(leaf, i)
                    A[idx] += block @ ex_x
                    B[idx] += block @ ex_u
        return A, B

    def output(self):
        port = self.op.output_port
        if port is None:
            return np.zeros((0, self.N)), np.zeros((0, self.m))
        ctx = self.op.work
        if isinstance(port, DiagramOutputPort):
            for k in port._path:
                ctx = ctx._subcontexts[k]
            port = port._source
        return self.output_expression(ctx, port.get_index())


def exact_jacobians(op):
    """Exact (A, B, C, D) at the operating point ``op``.

    Raises
    ------
    NotExactlyLinearizable
        When a leaf whose dynamics or outputs matter does not provide one.
    """
    composer = _Composer(op)
    A, B = composer.dynamics()
    C, D = composer.output()
    return A, B, C, D
