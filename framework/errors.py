"""Exceptions raised by the systems framework.

Domain exceptions subclass the built-ins so that callers can catch them either way.
"""


class SystemError_(RuntimeError):
    """Base class for framework runtime errors (kept private-named to avoid
    shadowing the builtin ``SystemError``)."""


class PortError(ValueError):
    """A port was used in a way its declaration does not allow (wrong size, unknown
    name, unconnected input)."""


class DiagramBuildError(ValueError):
    """A DiagramBuilder request is invalid (size mismatch, algebraic loop, duplicate
    name, unconnected required input, reuse after build)."""


class ContextError(ValueError):
    """A Context was used with the wrong system or with values of the wrong shape."""


class SimulationError(RuntimeError):
    """The simulation cannot continue (non-finite state, failed event handler,
    integrator failure)."""


class NonFiniteStateError(SimulationError):
    """A state variable became NaN or infinite during simulation."""
