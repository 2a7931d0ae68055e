"""Linearization about an operating point (Drake's Linearize and
FirstOrderTaylorApproximation).

For a continuous system ẋ = f(x, u), y = g(x, u) at (x0, u0)::

    A = ∂f/∂x, B = ∂f/∂u, C = ∂g/∂x, D = ∂g/∂u

and the result is a continuous LinearSystem in the deviations x − x0, u − u0, y − y0.
For a purely discrete system with one periodic discrete update of period h,
x[n+1] = f(x[n], u[n]), the same Jacobians give a discrete LinearSystem with
``time_period = h``. Systems mixing continuous and discrete state are rejected.

How the Jacobians are obtained (``method``):

- ``"exact"``: from the systems' own ``do_calc_linearization`` (the protocol of
  ``framework.primitives._linearization``). A LeafSystem is asked directly; a Diagram
  is composed from its leaves through its connections (see
  ``framework.analysis.exact_linearization``). Raises if some leaf that matters does
  not provide one.
- ``"finite_difference"``: central differences of the whole system's dynamics and
  output (see ``framework.analysis.finite_difference`` for the step).
- ``"auto"`` (default): exact when available, finite differences otherwise.

The method used is recorded on the returned system as ``linearization_method``.
"""

import enum

import numpy as np

from ..errors import PortError
from ..primitives.linear_system import AffineSystem, LinearSystem
from .exact_linearization import NotExactlyLinearizable, exact_jacobians
from .finite_difference import finite_difference_jacobians
from .operating_point import DISCRETE, OperatingPoint

METHODS = ("auto", "exact", "finite_difference")


class InputPortSelection(enum.Enum):
    """Special values of ``input_port_index`` (Drake's InputPortSelection)."""

    NO_INPUT = -1
    USE_FIRST_INPUT_IF_IT_EXISTS = -2
    kNoInput = -1
    kUseFirstInputIfItExists = -2


class OutputPortSelection(enum.Enum):
    """Special values of ``output_port_index`` (Drake's OutputPortSelection)."""

    NO_OUTPUT = -1
    USE_FIRST_OUTPUT_IF_IT_EXISTS = -2
    kNoOutput = -1
    kUseFirstOutputIfItExists = -2


def _select_port(fn, system, which, selection):
    ports = system._input_ports if which == "input" else system._output_ports
    if selection is None or (isinstance(selection, enum.Enum) and selection.value == -2):
        port = ports[0] if ports else None
    elif isinstance(selection, enum.Enum) and selection.value == -1:
        port = None
    elif hasattr(selection, "get_system"):
        if selection.get_system() is not system or selection not in ports:
            raise PortError(
                f"{fn}: {selection!r} is not an {which} port of system '{system.get_name()}'")
        port = selection
    else:
        getter = system.get_input_port if which == "input" else system.get_output_port
        port = getter(selection)
    if port is not None and port.get_data_type() != "vector":
        raise PortError(
            f"{fn}: {which} port '{port.get_name()}' of system '{system.get_name()}' is abstract; "
            f"only vector ports can be linearized")
    return port


def _jacobians(op, method):
    if method not in METHODS:
        raise ValueError(f"{op.fn}: method must be one of {METHODS}, got {method!r}")
    if method != "finite_difference":
        try:
            return exact_jacobians(op), "exact"
        except NotExactlyLinearizable as reason:
            if method == "exact":
                raise ValueError(
                    f"{op.fn}: no exact linearization of system '{op.system.get_name()}': "
                    f"{reason}. Use method='finite_difference' or 'auto'") from None
    return finite_difference_jacobians(op), "finite_difference"


def _operating_point(fn, system, context, input_port_index, output_port_index):
    input_port = _select_port(fn, system, "input", input_port_index)
    output_port = _select_port(fn, system, "output", output_port_index)
    return OperatingPoint(system, context, input_port, output_port, fn)


def linearize(system, context, input_port_index=None, output_port_index=None,
              equilibrium_check_tolerance=1e-6, method="auto"):
    """The linearization of ``system`` about the equilibrium in ``context``.

    Parameters
    ----------
    system : System
        A LeafSystem or Diagram, purely continuous or purely discrete.
    context : Context
        Holds the operating point: x0 (the state), u0 (the value of the selected input
        port, which must be fixed or connected), time and parameters. Not modified.
    input_port_index : int, str, InputPort, InputPortSelection or None
        The input u. None (or USE_FIRST_INPUT_IF_IT_EXISTS) uses input port 0 when the
        system has one; NO_INPUT gives m = 0.
    output_port_index : int, str, OutputPort, OutputPortSelection or None
        The output y, likewise.
    equilibrium_check_tolerance : float or None
        Raise if max |ẋ0| (continuous) or max |x[n+1] − x0| (discrete) exceeds it; None
        skips the check.
    method : {"auto", "exact", "finite_difference"}
        See the module docstring.

    Returns
    -------
    LinearSystem
        A (n, n), B (n, m), C (p, n), D (p, m), ``time_period`` 0 or the discrete
        period, in deviation coordinates; ``linearization_method`` is ``"exact"`` or
        ``"finite_difference"``.

    Raises
    ------
    ValueError
        Off equilibrium (the message gives the derivative norm), or for mixed
        continuous/discrete state.
    """
    fn = "linearize"
    op = _operating_point(fn, system, context, input_port_index, output_port_index)
    if equilibrium_check_tolerance is not None and op.n:
        residual = op.dynamics() - (op.x0 if op.kind == DISCRETE else 0.0)
        worst = float(np.max(np.abs(residual)))
        if not worst <= equilibrium_check_tolerance:
            what = "x[n+1] - x[n]" if op.kind == DISCRETE else "the time derivative xdot"
            raise ValueError(
                f"{fn}: the operating point is not an equilibrium of system "
                f"'{system.get_name()}': {what} has norm {np.linalg.norm(residual):.6g} "
                f"(max |element| {worst:.6g} at state index {int(np.argmax(np.abs(residual)))}), "
                f"above equilibrium_check_tolerance = {equilibrium_check_tolerance:g}. Use "
                f"first_order_taylor_approximation() away from equilibria, or pass "
                f"equilibrium_check_tolerance=None")
    (A, B, C, D), used = _jacobians(op, method)
    result = LinearSystem(A, B, C, D, op.time_period)
    result.linearization_method = used
    return result


def first_order_taylor_approximation(system, context, input_port_index=None,
                                     output_port_index=None, method="auto"):
    """The affine approximation of ``system`` about the (any) point in ``context``.

    ẋ ≈ A x + B u + f0 (or x[n+1] ≈ ... for a discrete system), y ≈ C x + D u + y0 in
    absolute coordinates, with f0 = f(x0, u0) − A x0 − B u0 and
    y0 = g(x0, u0) − C x0 − D u0.

    Parameters
    ----------
    system, context, input_port_index, output_port_index, method
        As for :func:`linearize`.

    Returns
    -------
    AffineSystem
        ``time_period`` 0 or the discrete period; ``linearization_method`` is set.
    """
    fn = "first_order_taylor_approximation"
    op = _operating_point(fn, system, context, input_port_index, output_port_index)
    f_nominal = op.dynamics()
    y_nominal = op.output()
    (A, B, C, D), used = _jacobians(op, method)
    f0 = f_nominal - A @ op.x0 - B @ op.u0
    y0 = y_nominal - C @ op.x0 - D @ op.u0
    result = AffineSystem(A, B, f0, C, D, y0, op.time_period)
    result.linearization_method = used
    return result
