"""Exceptions raised by the systems framework.

Domain exceptions subclass the built-ins so that callers can catch them either way:
where pydrake raises RuntimeError (a wrong-size ``fix_value``, a context of another
system, a bad connection) these are RuntimeErrors, and ValueErrors as before.
"""


class PortError(RuntimeError, ValueError):
    """A port was used in a way its declaration does not allow (wrong size, unknown
    name, unconnected input)."""


class DiagramBuildError(RuntimeError, ValueError):
    """A DiagramBuilder request is invalid (size mismatch, algebraic loop, duplicate
    name, unconnected required input, reuse after build)."""


class ContextError(RuntimeError, ValueError):
    """A Context was used with the wrong system or with values of the wrong shape."""


class SimulationError(RuntimeError):
    """The simulation cannot continue (non-finite state, failed event handler,
    integrator failure)."""


class NonFiniteStateError(SimulationError):
    """A state variable became NaN or infinite during simulation.

    The Simulator never leaves the non-finite value in its context: it rolls the context
    back to the last finite state (the start of the integration step, or the state before
    the update that produced the value) and the exception carries that state.

    Attributes
    ----------
    last_finite_time : float or None
        Time (s) of the last finite state (the simulator's context is at this time);
        None when there was none (the run started from a non-finite state).
    last_finite_continuous_state : ndarray, shape (nc,), or None
        The continuous state x = [q; v; z] at ``last_finite_time``.
    last_finite_discrete_state : ndarray, shape (nd,), or None
        Every discrete state group of every leaf system at ``last_finite_time``, in
        depth-first order of the diagram, concatenated.
    """

    def __init__(self, message, *, last_finite_time=None, last_finite_continuous_state=None,
                 last_finite_discrete_state=None):
        super().__init__(message)
        self.last_finite_time = last_finite_time
        self.last_finite_continuous_state = last_finite_continuous_state
        self.last_finite_discrete_state = last_finite_discrete_state
