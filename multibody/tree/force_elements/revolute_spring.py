"""RevoluteSpring: a linear torsional spring acting on a RevoluteJoint."""

from __future__ import annotations

import numpy as np

from multibody.tree.force_elements.force_element import ForceElement
from multibody.tree.joints.revolute import RevoluteJoint

__all__ = ["RevoluteSpring"]


class RevoluteSpring(ForceElement):
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

    def __init__(self, joint, nominal_angle: float, stiffness: float):
        if not isinstance(joint, RevoluteJoint):
            raise TypeError(
                f"RevoluteSpring: joint must be a RevoluteJoint, got {type(joint).__name__}"
            )
        if not (np.isfinite(stiffness) and float(stiffness) >= 0.0):
            raise ValueError(
                f"RevoluteSpring: stiffness must be finite and >= 0, got {stiffness!r}"
            )
        if not np.isfinite(nominal_angle):
            raise ValueError(f"RevoluteSpring: nominal_angle must be finite, got {nominal_angle!r}")
        super().__init__(joint.model_instance())
        self._joint = joint
        self._nominal = float(nominal_angle)
        self._stiffness = float(stiffness)

    def joint(self):
        """The spring's joint."""
        return self._joint

    def nominal_angle(self) -> float:
        """θ₀ (rad)."""
        return self._nominal

    def stiffness(self) -> float:
        """k (N·m/rad)."""
        return self._stiffness

    def _do_finalize(self, tree) -> None:
        self._iq = self._joint.position_start()
        self._iv = self._joint.velocity_start()

    def calc_and_add_forces(self, X_WB, V_WB_W, q, v, tau_out, F_Bo_W_out) -> None:
        """Add τ = -k (θ - θ₀) into `tau_out` (nv,)."""
        tau_out[self._iv] -= self._stiffness * (q[self._iq] - self._nominal)

    def calc_potential_energy(self, X_WB, V_WB_W, q, v) -> float:
        """V = ½ k (θ - θ₀)² (J)."""
        return 0.5 * self._stiffness * (q[self._iq] - self._nominal) ** 2

    def calc_conservative_power(self, X_WB, V_WB_W, q, v) -> float:
        """Pc = -k (θ - θ₀) θ̇ (W)."""
        return -self._stiffness * (q[self._iq] - self._nominal) * v[self._iv]
