"""LinearSpringDamper: a massless spring-damper between a point on each of two bodies."""

from __future__ import annotations

import numpy as np

from merganser.multibody.tree.force_elements.force_element import (
    ForceElement,
    add_point_force,
    point_kinematics,
)
from merganser.multibody.tree.joints.joint import as_vector

__all__ = ["LinearSpringDamper"]


class LinearSpringDamper(ForceElement):
    """Spring-damper between point P of body A and point Q of body B (Drake semantics).

    With ℓ = |p_WQ - p_WP| and û = (p_WQ - p_WP) / ℓ, the tension is
    f = k (ℓ - ℓ₀) + c ℓ̇; the element pulls P towards Q with f û (force on A at P)
    and Q towards P with -f û (force on B at Q). V = ½ k (ℓ - ℓ₀)²,
    Pc = -k (ℓ - ℓ₀) ℓ̇, Pnc = -c ℓ̇².

    Parameters
    ----------
    bodyA : RigidBody
        Body A.
    p_AP : array_like, shape (3,)
        Point P on A, from Ao, expressed in A.
    bodyB : RigidBody
        Body B.
    p_BQ : array_like, shape (3,)
        Point Q on B, from Bo, expressed in B.
    free_length : float
        Rest length ℓ₀ (m), > 0.
    stiffness : float
        k (N/m), >= 0.
    damping : float
        c (N·s/m), >= 0.

    Raises
    ------
    RuntimeError
        From the calc methods, when the spring length becomes nearly zero (the direction
        û is then undefined), as in Drake.
    """

    def __init__(self, bodyA, p_AP, bodyB, p_BQ, free_length, stiffness, damping=0.0):
        func = "LinearSpringDamper"
        if not float(free_length) > 0.0 or not np.isfinite(free_length):
            raise ValueError(f"{func}: free_length must be finite and > 0, got {free_length!r}")
        for arg, value in (("stiffness", stiffness), ("damping", damping)):
            if not (np.isfinite(value) and float(value) >= 0.0):
                raise ValueError(f"{func}: {arg} must be finite and >= 0, got {value!r}")
        super().__init__(bodyA.model_instance())
        self._bodyA, self._bodyB = bodyA, bodyB
        self._p_AP = as_vector(p_AP, 3, func, "p_AP")
        self._p_BQ = as_vector(p_BQ, 3, func, "p_BQ")
        self._free_length = float(free_length)
        self._stiffness = float(stiffness)
        self._damping = float(damping)

    def bodyA(self):
        """Body A."""
        return self._bodyA

    def bodyB(self):
        """Body B."""
        return self._bodyB

    def p_AP(self) -> np.ndarray:
        """Point P on A, expressed in A, shape (3,)."""
        return self._p_AP.copy()

    def p_BQ(self) -> np.ndarray:
        """Point Q on B, expressed in B, shape (3,)."""
        return self._p_BQ.copy()

    def free_length(self) -> float:
        """Rest length ℓ₀ (m)."""
        return self._free_length

    def stiffness(self) -> float:
        """Stiffness k (N/m)."""
        return self._stiffness

    def damping(self) -> float:
        """Damping c (N·s/m)."""
        return self._damping

    def _do_finalize(self, tree) -> None:
        self._nodeA = self._node_of(self._bodyA)
        self._nodeB = self._node_of(self._bodyB)

    def _kinematics(self, X_WB, V_WB_W):
        """Return (ℓ, ℓ̇, û, p_AoP_W, p_BoQ_W)."""
        p_WP, p_AoP_W, v_WP = point_kinematics(X_WB, V_WB_W, self._nodeA, self._p_AP)
        p_WQ, p_BoQ_W, v_WQ = point_kinematics(X_WB, V_WB_W, self._nodeB, self._p_BQ)
        p_PQ_W = p_WQ - p_WP
        # Soft norm as in Drake: sqrt(|p|² + ε²), ε = machine epsilon × free length.
        eps = np.finfo(np.float64).eps * self._free_length
        length2 = float(p_PQ_W @ p_PQ_W)
        if length2 < eps * eps:
            raise RuntimeError(
                f"LinearSpringDamper (bodies {self._bodyA.name()!r}, {self._bodyB.name()!r}): "
                f"the length of the spring became nearly zero ({np.sqrt(length2):.3g} m); "
                f"revisit the model to avoid this configuration"
            )
        length = np.sqrt(length2 + eps * eps)
        u_W = p_PQ_W / length
        length_dot = float(u_W @ (v_WQ - v_WP))
        return length, length_dot, u_W, p_AoP_W, p_BoQ_W

    def calc_and_add_forces(self, X_WB, V_WB_W, q, v, tau_out, F_Bo_W_out) -> None:
        """Add the spring-damper forces on A (at P) and B (at Q) into `F_Bo_W_out`."""
        length, length_dot, u_W, p_AoP_W, p_BoQ_W = self._kinematics(X_WB, V_WB_W)
        tension = self._stiffness * (length - self._free_length) + self._damping * length_dot
        f_AP_W = tension * u_W
        add_point_force(F_Bo_W_out, self._nodeA, p_AoP_W, f_AP_W)
        add_point_force(F_Bo_W_out, self._nodeB, p_BoQ_W, -f_AP_W)

    def calc_potential_energy(self, X_WB, V_WB_W, q, v) -> float:
        """V = ½ k (ℓ - ℓ₀)² (J)."""
        length = self._kinematics(X_WB, V_WB_W)[0]
        return 0.5 * self._stiffness * (length - self._free_length) ** 2

    def calc_conservative_power(self, X_WB, V_WB_W, q, v) -> float:
        """Pc = -k (ℓ - ℓ₀) ℓ̇ (W)."""
        length, length_dot = self._kinematics(X_WB, V_WB_W)[:2]
        return -self._stiffness * (length - self._free_length) * length_dot

    def calc_non_conservative_power(self, X_WB, V_WB_W, q, v) -> float:
        """Pnc = -c ℓ̇² (W)."""
        length_dot = self._kinematics(X_WB, V_WB_W)[1]
        return -self._damping * length_dot**2
