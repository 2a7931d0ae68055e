"""DoorHinge: torsional spring, catch and smoothed friction on a revolute joint (Drake's
DoorHinge and DoorHingeConfig)."""

from __future__ import annotations

import dataclasses
import math

from merganser.multibody.tree.force_elements.force_element import ForceElement
from merganser.multibody.tree.joints.revolute import RevoluteJoint

__all__ = ["DoorHinge", "DoorHingeConfig"]


@dataclasses.dataclass
class DoorHingeConfig:
    """Parameters of a DoorHinge; defaults as Drake's (a dishwasher door).

    Attributes
    ----------
    spring_zero_angle_rad : float
        qs₀ (rad), the angle at which the torsional spring is relaxed.
    spring_constant : float
        k_ts (N·m/rad), >= 0.
    dynamic_friction_torque, static_friction_torque : float
        k_df, k_sf (N·m), >= 0.
    viscous_friction : float
        k_vf (N·m·s/rad), >= 0.
    catch_width : float
        qc₀ (rad), >= 0: the catch acts over [0, qc₀]; 0 disables it.
    catch_torque : float
        k_c (N·m), >= 0.
    motion_threshold : float
        k_q̇₀ (rad/s), >= 0: the rate scale of the smoothed friction; 0 leaves only the
        viscous term.
    """

    spring_zero_angle_rad: float = -1.5
    spring_constant: float = 1.5
    dynamic_friction_torque: float = 3.0
    static_friction_torque: float = 2.0
    viscous_friction: float = 1.0
    catch_width: float = 0.02
    catch_torque: float = 15.0
    motion_threshold: float = 0.001


def _curves(t, x):
    """s = tanh(x / t), its "singlet" 1 - s² and "doublet" 2 s (1 - s²)."""
    s = math.tanh(x / t)
    singlet = 1.0 - s * s
    return s, singlet, 2.0 * s * singlet


class DoorHinge(ForceElement):
    """A door hinge on a revolute joint with angle q and rate q̇:

    τ = -k_ts (q - qs₀) + k_c d(qc₀/2, q - qc₀/2) - k_df s(k_q̇₀, q̇) - k_sf d(k_q̇₀, q̇)
        - k_vf q̇,

    with s(t, x) = tanh(x/t) and d(t, x) = 2 s (1 - s²) (Drake's documented model). The
    stored energy is measured from q = 0.

    Parameters
    ----------
    joint : RevoluteJoint
    config : DoorHingeConfig
    """

    def __init__(self, joint, config):
        if not isinstance(joint, RevoluteJoint):
            raise TypeError(f"DoorHinge: joint must be a RevoluteJoint, got "
                            f"{type(joint).__name__}")
        if not isinstance(config, DoorHingeConfig):
            raise TypeError(f"DoorHinge: config must be a DoorHingeConfig, got "
                            f"{type(config).__name__}")
        for field in dataclasses.fields(config):
            value = float(getattr(config, field.name))
            if field.name != "spring_zero_angle_rad" and not value >= 0.0:
                raise ValueError(f"DoorHinge: config.{field.name} must be >= 0, got "
                                 f"{value!r}")
        super().__init__(joint.model_instance())
        self._joint = joint
        self._config = dataclasses.replace(config)

    def joint(self):
        """The hinge's revolute joint."""
        return self._joint

    def config(self) -> DoorHingeConfig:
        """A copy of the hinge's parameters."""
        return dataclasses.replace(self._config)

    # ---- scalar model ------------------------------------------------------------------
    def calc_hinge_frictional_torque(self, angular_rate: float) -> float:
        """Friction torque (N·m) at rate q̇ = `angular_rate`."""
        c = self._config
        viscous = -c.viscous_friction * angular_rate
        if c.motion_threshold == 0.0:
            return viscous
        s, _, doublet = _curves(c.motion_threshold, angular_rate)
        return viscous - c.dynamic_friction_torque * s - c.static_friction_torque * doublet

    def calc_hinge_spring_torque(self, angle: float) -> float:
        """Spring and catch torque (N·m) at angle q = `angle`."""
        c = self._config
        torque = -c.spring_constant * (angle - c.spring_zero_angle_rad)
        if c.catch_width != 0.0:
            half = 0.5 * c.catch_width
            torque += c.catch_torque * _curves(half, angle - half)[2]
        return torque

    def calc_hinge_torque(self, angle: float, angular_rate: float) -> float:
        """Total hinge torque (N·m)."""
        return self.calc_hinge_frictional_torque(angular_rate) + \
            self.calc_hinge_spring_torque(angle)

    def calc_hinge_stored_energy(self, angle: float) -> float:
        """Energy (J) stored by the spring and the catch at `angle`, zero at q = 0."""
        c = self._config
        offset, offset0 = angle - c.spring_zero_angle_rad, -c.spring_zero_angle_rad
        energy = 0.5 * c.spring_constant * (offset * offset - offset0 * offset0)
        if c.catch_width != 0.0:
            half = 0.5 * c.catch_width
            # the catch torque is -k_c h d(singlet)/dq, so its energy is k_c h singlet
            energy += c.catch_torque * half * (_curves(half, angle - half)[1]
                                               - _curves(half, -half)[1])
        return energy

    def calc_hinge_conservative_power(self, angle: float, angular_rate: float) -> float:
        """Power (W) of the spring and catch torque."""
        return angular_rate * self.calc_hinge_spring_torque(angle)

    def calc_hinge_non_conservative_power(self, angular_rate: float) -> float:
        """Power (W) of the friction torque (<= 0)."""
        return angular_rate * self.calc_hinge_frictional_torque(angular_rate)

    # ---- force element protocol --------------------------------------------------------
    def _do_finalize(self, tree) -> None:
        self._iq = self._joint.position_start()
        self._iv = self._joint.velocity_start()

    def calc_and_add_forces(self, X_WB, V_WB_W, q, v, tau_out, F_Bo_W_out) -> None:
        """Add the hinge torque into `tau_out` (nv,)."""
        tau_out[self._iv] += self.calc_hinge_torque(q[self._iq], v[self._iv])

    def calc_potential_energy(self, X_WB, V_WB_W, q, v) -> float:
        return self.calc_hinge_stored_energy(q[self._iq])

    def calc_conservative_power(self, X_WB, V_WB_W, q, v) -> float:
        return self.calc_hinge_conservative_power(q[self._iq], v[self._iv])

    def calc_non_conservative_power(self, X_WB, V_WB_W, q, v) -> float:
        return self.calc_hinge_non_conservative_power(v[self._iv])
