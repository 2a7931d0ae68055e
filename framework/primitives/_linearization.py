"""The exact-linearization protocol shared by the primitives and ``framework.analysis``.

A LeafSystem may implement::

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        return A, B, C, D      # or None when no exact linearization exists at ``context``

returning the Jacobians of its own dynamics at ``context``:

- the state x is the system's continuous state (``A`` is ∂ẋ/∂x) or, for a system
  with only discrete state, all of its discrete groups concatenated in group order
  (``A`` is ∂x[n+1]/∂x[n] of its periodic discrete update);
- the input u is the vector input port ``input_port_index``, or with ``None`` all
  vector input ports concatenated in port order (abstract ports contribute no columns);
- the output y is the vector output port ``output_port_index``, or with ``None`` all
  vector output ports concatenated in port order.

Shapes: A (n, n), B (n, m), C (p, n), D (p, m). A block of D must be zero where
``has_direct_feedthrough`` says the output does not depend on the input.
``framework.analysis.linearize`` always asks for all ports (``None``) and composes the
leaves of a Diagram through its connections; :func:`select_ports` lets an implementation
compute the full matrices once and slice.
"""

import numpy as np


def vector_port_slices(ports):
    """Column (or row) range of each port in the concatenation of the vector ports.

    Parameters
    ----------
    ports : list of InputPort or OutputPort

    Returns
    -------
    list of slice
        One slice per port; an abstract port gets an empty slice.
    """
    slices, start = [], 0
    for port in ports:
        size = port.size() if port.get_data_type() == "vector" else 0
        slices.append(slice(start, start + size))
        start += size
    return slices


def total_vector_size(ports):
    """Sum of the sizes of the vector ports in ``ports``."""
    return sum(p.size() for p in ports if p.get_data_type() == "vector")


def select_ports(system, matrices, input_port_index, output_port_index):
    """Keep the columns of one input port and the rows of one output port.

    Parameters
    ----------
    system : LeafSystem
        The system whose ports the full matrices are laid out by.
    matrices : tuple of ndarray
        (A, B, C, D) with all vector inputs and outputs concatenated.
    input_port_index, output_port_index : int or None
        None keeps all ports.

    Returns
    -------
    tuple of ndarray
        (A, B, C, D) restricted to the requested ports.
    """
    A, B, C, D = matrices
    if input_port_index is not None:
        cols = vector_port_slices(system._input_ports)[
            system.get_input_port(input_port_index).get_index()]
        B, D = B[:, cols], D[:, cols]
    if output_port_index is not None:
        rows = vector_port_slices(system._output_ports)[
            system.get_output_port(output_port_index).get_index()]
        C, D = C[rows, :], D[rows, :]
    return A, B, C, D


def feedthrough_matrices(D):
    """(A, B, C, D) of a stateless system whose outputs are ``D`` times its inputs.

    Parameters
    ----------
    D : ndarray, shape (p, m)
        All vector outputs concatenated by all vector inputs concatenated.
    """
    D = np.asarray(D, dtype=float)
    p, m = D.shape
    return np.zeros((0, 0)), np.zeros((0, m)), np.zeros((p, 0)), D
