"""RevoluteSpring: a linear torsional spring acting on a RevoluteJoint."""

from __future__ import annotations

from merganser.multibody.tree.force_elements.joint_spring import JointSpring
from merganser.multibody.tree.joints.revolute import RevoluteJoint

__all__ = ["RevoluteSpring"]


class RevoluteSpring(JointSpring):
    """Torsional spring on a revolute joint: τ = -k (θ - θ₀) on the joint's velocity.

    V = ½ k (θ - θ₀)², Pc = -k (θ - θ₀) θ̇, Pnc = 0 (as Drake's RevoluteSpring).

    Parameters
    ----------
    joint : RevoluteJoint
        The joint the spring acts on.
    nominal_angle : float
        θ₀ (rad), the angle at which the spring torque is zero.
    stiffness : float
        k (N·m/rad), >= 0.
    """

    joint_type = RevoluteJoint
    nominal_name = "nominal_angle"

    def __init__(self, joint, nominal_angle: float, stiffness: float):
        super().__init__(joint, nominal_angle, stiffness)

    def nominal_angle(self) -> float:
        """θ₀ (rad)."""
        return self._nominal

    def default_nominal_angle(self) -> float:
        """θ₀ (rad), pydrake's name (the spring's value is not a Context parameter here)."""
        return self._nominal

    def default_stiffness(self) -> float:
        """k (N·m/rad), pydrake's name."""
        return self._stiffness
