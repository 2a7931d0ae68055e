"""JacobianWrtVariable: which generalized rates a Jacobian multiplies (Drake's enum)."""

import enum

__all__ = ["JacobianWrtVariable"]


class JacobianWrtVariable(enum.Enum):
    """The variable a kinematic Jacobian is taken with respect to.

    Attributes
    ----------
    kQDot
        The time derivatives of the generalized positions: ``V = J_q̇ q̇``, J has nq
        columns.
    kV
        The generalized velocities: ``V = J_v v``, J has nv columns.
    """

    kQDot = 0
    kV = 1
