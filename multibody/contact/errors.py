"""Exceptions of the contact solvers."""

__all__ = ["ContactSolverError"]


class ContactSolverError(RuntimeError):
    """A discrete contact solve failed (no convergence, non-finite data); the message names
    the time, the solver, the residual and a remedy. The context is left unchanged."""
