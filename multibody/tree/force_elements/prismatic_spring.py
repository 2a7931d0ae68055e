"""PrismaticSpring: a linear spring acting on a PrismaticJoint."""

from __future__ import annotations

import numpy as np

from multibody.tree.force_elements.force_element import ForceElement
from multibody.tree.joints.prismatic import PrismaticJoint

__all__ = ["PrismaticSpring"]


class PrismaticSpring(ForceElement):
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

    def __init__(self, joint, nominal_position: float, stiffness: float):
        if not isinstance(joint, PrismaticJoint):
            raise TypeError(
                f"PrismaticSpring: joint must be a PrismaticJoint, got {type(joint).__name__}"
            )
        if not (np.isfinite(stiffness) and float(stiffness) >= 0.0):
            raise ValueError(
                f"PrismaticSpring: stiffness must be finite and >= 0, got {stiffness!r}"
            )
        if not np.isfinite(nominal_position):
            raise ValueError(
                f"PrismaticSpring: nominal_position must be finite, got {nominal_position!r}"
            )
        super().__init__(joint.model_instance())
        self._joint = joint
        self._nominal = float(nominal_position)
        self._stiffness = float(stiffness)

    def joint(self):
        """The spring's joint."""
        return self._joint

    def nominal_position(self) -> float:
        """x₀ (m)."""
        return self._nominal

    def stiffness(self) -> float:
        """k (N/m)."""
        return self._stiffness

    def _do_finalize(self, tree) -> None:
        self._iq = self._joint.position_start()
        self._iv = self._joint.velocity_start()

    def calc_and_add_forces(self, X_WB, V_WB_W, q, v, tau_out, F_Bo_W_out) -> None:
        """Add f = -k (x - x₀) into `tau_out` (nv,)."""
        tau_out[self._iv] -= self._stiffness * (q[self._iq] - self._nominal)

    def calc_potential_energy(self, X_WB, V_WB_W, q, v) -> float:
        """V = ½ k (x - x₀)² (J)."""
        return 0.5 * self._stiffness * (q[self._iq] - self._nominal) ** 2

    def calc_conservative_power(self, X_WB, V_WB_W, q, v) -> float:
        """Pc = -k (x - x₀) ẋ (W)."""
        return -self._stiffness * (q[self._iq] - self._nominal) * v[self._iv]
