"""The linear spring on a one-dof joint's coordinate shared by RevoluteSpring and
PrismaticSpring: generalized force -k (q - q₀) on the joint's velocity."""

from __future__ import annotations

import numpy as np

from merganser.multibody.tree.force_elements.force_element import ForceElement

__all__ = ["JointSpring"]


class JointSpring(ForceElement):
    """τ = -k (q - q₀) on a one-dof joint; V = ½ k (q - q₀)², Pc = -k (q - q₀) q̇, Pnc = 0.

    Subclasses set ``joint_type`` (the joint class accepted) and ``nominal_name`` (the
    name of q₀ in messages: ``nominal_angle``, ``nominal_position``).

    Parameters
    ----------
    joint : Joint
        A joint of type ``joint_type``.
    nominal : float
        q₀, the coordinate at which the spring force is zero (finite).
    stiffness : float
        k, >= 0 and finite.
    """

    joint_type = None
    nominal_name = "nominal"

    def __init__(self, joint, nominal: float, stiffness: float):
        name = type(self).__name__
        if not isinstance(joint, self.joint_type):
            raise TypeError(
                f"{name}: joint must be a {self.joint_type.__name__}, got {type(joint).__name__}")
        if not (np.isfinite(stiffness) and float(stiffness) >= 0.0):
            raise ValueError(f"{name}: stiffness must be finite and >= 0, got {stiffness!r}")
        if not np.isfinite(nominal):
            raise ValueError(f"{name}: {self.nominal_name} must be finite, got {nominal!r}")
        super().__init__(joint.model_instance())
        self._joint = joint
        self._nominal = float(nominal)
        self._stiffness = float(stiffness)

    def joint(self):
        """The spring's joint."""
        return self._joint

    def stiffness(self) -> float:
        """k."""
        return self._stiffness

    def _do_finalize(self, tree) -> None:
        self._iq = self._joint.position_start()
        self._iv = self._joint.velocity_start()

    def calc_and_add_forces(self, X_WB, V_WB_W, q, v, tau_out, F_Bo_W_out) -> None:
        """Add τ = -k (q - q₀) into `tau_out` (nv,)."""
        tau_out[self._iv] -= self._stiffness * (q[self._iq] - self._nominal)

    def calc_potential_energy(self, X_WB, V_WB_W, q, v) -> float:
        """V = ½ k (q - q₀)² (J)."""
        return 0.5 * self._stiffness * (q[self._iq] - self._nominal) ** 2

    def calc_conservative_power(self, X_WB, V_WB_W, q, v) -> float:
        """Pc = -k (q - q₀) q̇ (W)."""
        return -self._stiffness * (q[self._iq] - self._nominal) * v[self._iv]
