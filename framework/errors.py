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
    """A state variable became NaN or infinite during simulation."""
