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

    def _nominal_and_stiffness(self, parameters):
        """(q₀, k): a Context's [q₀, k] when given (`parameters`), else the defaults."""
        if parameters is None:
            return self._nominal, self._stiffness
        return float(parameters[0]), float(parameters[1])

    def calc_and_add_forces(self, X_WB, V_WB_W, q, v, tau_out, F_Bo_W_out,
                            parameters=None) -> None:
        """Add τ = -k (q - q₀) into `tau_out` (nv,)."""
        q0, k = self._nominal_and_stiffness(parameters)
        tau_out[self._iv] -= k * (q[self._iq] - q0)

    def calc_potential_energy(self, X_WB, V_WB_W, q, v, parameters=None) -> float:
        """V = ½ k (q - q₀)² (J)."""
        q0, k = self._nominal_and_stiffness(parameters)
        return 0.5 * k * (q[self._iq] - q0) ** 2

    def calc_conservative_power(self, X_WB, V_WB_W, q, v, parameters=None) -> float:
        """Pc = -k (q - q₀) q̇ (W)."""
        q0, k = self._nominal_and_stiffness(parameters)
        return -k * (q[self._iq] - q0) * v[self._iv]

    def calc_non_conservative_power(self, X_WB, V_WB_W, q, v, parameters=None) -> float:
        """Pnc = 0 (W)."""
        return 0.0
