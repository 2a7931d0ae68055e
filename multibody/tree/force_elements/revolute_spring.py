"""RevoluteSpring: a linear torsional spring acting on a RevoluteJoint."""

from __future__ import annotations

import numpy as np

from merganser.multibody.tree.force_elements.joint_spring import JointSpring
from merganser.multibody.tree.joints.revolute import RevoluteJoint

__all__ = ["RevoluteSpring"]


class RevoluteSpring(JointSpring):
    """Torsional spring on a revolute joint: τ = -k (θ - θ₀) on the joint's velocity.

    θ₀ and k are Context parameters, as in Drake (`set_nominal_angle`, `set_stiffness`);
    the constructor's values are the defaults new Contexts start from.

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
        """θ₀ (rad) new Contexts start from, pydrake's name."""
        return self._nominal

    def default_stiffness(self) -> float:
        """k (N·m/rad) new Contexts start from, pydrake's name."""
        return self._stiffness

    # -- per-Context parameters (as Drake's RevoluteSpring) ------------------------------
    def _default_context_parameters(self):
        """[θ₀, k] (2,): the Context's parameters start as the defaults."""
        return np.array([self._nominal, self._stiffness])

    def _context_value(self, context, fn, slot):
        return float(self._state(fn).get_force_element_parameters(context, self)[slot])

    def _set_context_value(self, context, fn, slot, value, name):
        value = float(value)
        if not np.isfinite(value) or (slot == 1 and value < 0.0):
            raise ValueError(f"RevoluteSpring.{fn}: {name} must be finite"
                             f"{' and >= 0' if slot == 1 else ''}, got {value!r}")
        state = self._state(fn)
        p = state.get_force_element_parameters(context, self)
        p[slot] = value
        state.set_force_element_parameters(context, self, p)

    def get_nominal_angle(self, context) -> float:
        """θ₀ (rad) held in `context`."""
        return self._context_value(context, "get_nominal_angle", 0)

    def set_nominal_angle(self, context, nominal_angle) -> None:
        """Set θ₀ (rad) in `context` only (the default stays)."""
        self._set_context_value(context, "set_nominal_angle", 0, nominal_angle,
                                "nominal_angle")

    def get_stiffness(self, context) -> float:
        """k (N·m/rad) held in `context`."""
        return self._context_value(context, "get_stiffness", 1)

    def set_stiffness(self, context, stiffness) -> None:
        """Set k (N·m/rad, >= 0) in `context` only; a negative k raises, as Drake."""
        self._set_context_value(context, "set_stiffness", 1, stiffness, "stiffness")
