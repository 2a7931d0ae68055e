"""PrismaticSpring: a linear spring acting on a PrismaticJoint."""

from __future__ import annotations

from merganser.multibody.tree.force_elements.joint_spring import JointSpring
from merganser.multibody.tree.joints.prismatic import PrismaticJoint

__all__ = ["PrismaticSpring"]


class PrismaticSpring(JointSpring):
    """Linear spring on a prismatic joint: f = -k (x - x₀) on the joint's velocity.

    V = ½ k (x - x₀)², Pc = -k (x - x₀) ẋ, Pnc = 0 (as Drake's PrismaticSpring).

    Parameters
    ----------
    joint : PrismaticJoint
        The joint the spring acts on.
    nominal_position : float
        x₀ (m), the translation at which the spring force is zero.
    stiffness : float
        k (N/m), >= 0.
    """

    joint_type = PrismaticJoint
    nominal_name = "nominal_position"

    def __init__(self, joint, nominal_position: float, stiffness: float):
        super().__init__(joint, nominal_position, stiffness)

    def nominal_position(self) -> float:
        """x₀ (m)."""
        return self._nominal
