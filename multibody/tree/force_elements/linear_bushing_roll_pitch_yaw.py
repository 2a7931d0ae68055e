"""LinearBushingRollPitchYaw: a massless flexible bushing between frames A and C."""

from __future__ import annotations

import numpy as np

from merganser.geometry import RollPitchYaw, RotationMatrix
from merganser.multibody.math.spatial_force import SpatialForce
from merganser.multibody.tree.force_elements.force_element import ForceElement, add_point_force
from merganser.multibody.tree.frames import Frame
from merganser.multibody.tree.joints.joint import as_vector

__all__ = ["LinearBushingRollPitchYaw"]


def _rpy_dt_matrix(rpy: np.ndarray, who: str) -> np.ndarray:
    """N(q) with q̇ = N w_AC_A for roll-pitch-yaw q = [q₀, q₁, q₂], shape (3, 3)."""
    cp, sp = np.cos(rpy[1]), np.sin(rpy[1])
    cy, sy = np.cos(rpy[2]), np.sin(rpy[2])
    if abs(cp) < 1e-8:
        raise RuntimeError(
            f"{who}: pitch angle {rpy[1]:.17g} of R_AC is at gimbal lock (cos(pitch) = {cp:.3g}); "
            f"the roll-pitch-yaw rates and bushing torque are undefined there"
        )
    return np.array([[cy / cp, sy / cp, 0.0], [-sy, cy, 0.0], [cy * sp / cp, sy * sp / cp, 1.0]])


class LinearBushingRollPitchYaw(ForceElement):
    """Drake's linear roll-pitch-yaw bushing connecting frame A (on link L0) to frame C (on L1).

    With q = [q₀, q₁, q₂] the roll-pitch-yaw angles of R_AC, the "gimbal torques" are
    τ = -(k₀₁₂ ⊙ q + d₀₁₂ ⊙ q̇) and the torque on C is 𝐭 = Nᵀ τ (expressed in A), where
    q̇ = N(q) w_AC_A. Frame B is halfway between A and C (Bo the midpoint of Ao and Co,
    R_AB the half-angle rotation of R_AC); with p_AoCo = [x, y, z] in B, the force on C
    is 𝐟 = -(kxyz ⊙ [x, y, z] + dxyz ⊙ [ẋ, ẏ, ż]) in B, where the rates are the
    B-frame derivatives computed with w_AB ≈ ½ w_AC (as Drake does). C receives 𝐭 and
    𝐟 applied at its point coincident with Bo; A receives -𝐭 and -𝐟 at the same point.

    Parameters
    ----------
    frameA, frameC : Frame
        The connected frames (on different bodies).
    torque_stiffness_constants : array_like, shape (3,)
        [k₀, k₁, k₂] (N·m/rad), >= 0.
    torque_damping_constants : array_like, shape (3,)
        [d₀, d₁, d₂] (N·m·s/rad), >= 0.
    force_stiffness_constants : array_like, shape (3,)
        [kx, ky, kz] (N/m), >= 0.
    force_damping_constants : array_like, shape (3,)
        [dx, dy, dz] (N·s/m), >= 0.

    Notes
    -----
    As in Drake 1.51, potential energy and power are not implemented for this element
    (the methods raise NotImplementedError). The torque is undefined at gimbal lock
    (|q₁| = π/2), where the calc methods raise RuntimeError.
    """

    def __init__(
        self,
        frameA,
        frameC,
        torque_stiffness_constants,
        torque_damping_constants,
        force_stiffness_constants,
        force_damping_constants,
    ):
        func = "LinearBushingRollPitchYaw"
        for arg, frame in (("frameA", frameA), ("frameC", frameC)):
            if not isinstance(frame, Frame):
                raise TypeError(f"{func}: {arg} must be a Frame, got {type(frame).__name__}")
        super().__init__(frameA.model_instance())
        self._frameA, self._frameC = frameA, frameC
        self._k012 = as_vector(
            torque_stiffness_constants, 3, func, "torque_stiffness_constants", nonnegative=True
        )
        self._d012 = as_vector(
            torque_damping_constants, 3, func, "torque_damping_constants", nonnegative=True
        )
        self._kxyz = as_vector(
            force_stiffness_constants, 3, func, "force_stiffness_constants", nonnegative=True
        )
        self._dxyz = as_vector(
            force_damping_constants, 3, func, "force_damping_constants", nonnegative=True
        )

    def frameA(self) -> Frame:
        """Frame A (on link L0)."""
        return self._frameA

    def frameC(self) -> Frame:
        """Frame C (on link L1)."""
        return self._frameC

    def link0(self):
        """The body of frame A."""
        return self._frameA.body()

    def link1(self):
        """The body of frame C."""
        return self._frameC.body()

    def torque_stiffness_constants(self) -> np.ndarray:
        """[k₀, k₁, k₂] (N·m/rad), shape (3,)."""
        return self._k012.copy()

    def torque_damping_constants(self) -> np.ndarray:
        """[d₀, d₁, d₂] (N·m·s/rad), shape (3,)."""
        return self._d012.copy()

    def force_stiffness_constants(self) -> np.ndarray:
        """[kx, ky, kz] (N/m), shape (3,)."""
        return self._kxyz.copy()

    def force_damping_constants(self) -> np.ndarray:
        """[dx, dy, dz] (N·s/m), shape (3,)."""
        return self._dxyz.copy()

    def _do_finalize(self, tree) -> None:
        self._node0 = self._node_of(self.link0())
        self._node1 = self._node_of(self.link1())

    # -- the constants a plant Context holds (Drake's Get/Set...Constants(context)) -------
    def _default_context_parameters(self):
        """[k₀₁₂, d₀₁₂, kxyz, dxyz] (12,): the Context's parameters start as the defaults."""
        return np.concatenate([self._k012, self._d012, self._kxyz, self._dxyz])

    def _context_constants(self, context, fn, block):
        return self._state(fn).get_force_element_parameters(context, self)[3 * block:
                                                                            3 * block + 3]

    def _set_context_constants(self, context, fn, block, arg, values):
        values = as_vector(values, 3, f"LinearBushingRollPitchYaw.{fn}", arg, nonnegative=True)
        state = self._state(fn)
        p = state.get_force_element_parameters(context, self)
        p[3 * block:3 * block + 3] = values
        state.set_force_element_parameters(context, self, p)

    def get_torque_stiffness_constants(self, context) -> np.ndarray:
        """[k₀, k₁, k₂] (N·m/rad) held in `context`, shape (3,)."""
        return self._context_constants(context, "get_torque_stiffness_constants", 0)

    def get_torque_damping_constants(self, context) -> np.ndarray:
        """[d₀, d₁, d₂] (N·m·s/rad) held in `context`, shape (3,)."""
        return self._context_constants(context, "get_torque_damping_constants", 1)

    def get_force_stiffness_constants(self, context) -> np.ndarray:
        """[kx, ky, kz] (N/m) held in `context`, shape (3,)."""
        return self._context_constants(context, "get_force_stiffness_constants", 2)

    def get_force_damping_constants(self, context) -> np.ndarray:
        """[dx, dy, dz] (N·s/m) held in `context`, shape (3,)."""
        return self._context_constants(context, "get_force_damping_constants", 3)

    def set_torque_stiffness_constants(self, context, torque_stiffness) -> None:
        """Set [k₀, k₁, k₂] (>= 0) in `context` only (the defaults stay)."""
        self._set_context_constants(context, "set_torque_stiffness_constants", 0,
                                    "torque_stiffness", torque_stiffness)

    def set_torque_damping_constants(self, context, torque_damping) -> None:
        """Set [d₀, d₁, d₂] (>= 0) in `context` only."""
        self._set_context_constants(context, "set_torque_damping_constants", 1,
                                    "torque_damping", torque_damping)

    def set_force_stiffness_constants(self, context, force_stiffness) -> None:
        """Set [kx, ky, kz] (>= 0) in `context` only."""
        self._set_context_constants(context, "set_force_stiffness_constants", 2,
                                    "force_stiffness", force_stiffness)

    def set_force_damping_constants(self, context, force_damping) -> None:
        """Set [dx, dy, dz] (>= 0) in `context` only."""
        self._set_context_constants(context, "set_force_damping_constants", 3,
                                    "force_damping", force_damping)

    def calc_torque_and_force(self, X_WB, V_WB_W, parameters=None):
        """Return (t_W, f_W, p_WBo): torque and force on C (in W) and the point Bo.

        Parameters
        ----------
        X_WB : ndarray, shape (nb, 4, 4)
            Body poses in world, node order.
        V_WB_W : ndarray, shape (nb, 6)
            Body spatial velocities [w; v] in world, node order.
        parameters : ndarray, shape (12,), optional
            [k₀₁₂, d₀₁₂, kxyz, dxyz] from a Context (the defaults when None).

        Returns
        -------
        t_W, f_W, p_WBo : ndarray, shape (3,)
            Torque 𝐭 and force 𝐟 on frame C, expressed in W, and the position of Bo.
        """
        X_WA = X_WB[self._node0] @ self._frameA.pose_in_body_matrix()
        X_WC = X_WB[self._node1] @ self._frameC.pose_in_body_matrix()
        R_WA = X_WA[:3, :3]
        R_AC = R_WA.T @ X_WC[:3, :3]
        p_AoCo_W = X_WC[:3, 3] - X_WA[:3, 3]
        p_AoCo_A = R_WA.T @ p_AoCo_W
        # Velocities: frame A moves with L0, frame C with L1.
        V0, V1 = V_WB_W[self._node0], V_WB_W[self._node1]
        v_WAo = V0[3:] + np.cross(V0[:3], X_WA[:3, 3] - X_WB[self._node0, :3, 3])
        v_WCo = V1[3:] + np.cross(V1[:3], X_WC[:3, 3] - X_WB[self._node1, :3, 3])
        w_AC_A = R_WA.T @ (V1[:3] - V0[:3])
        v_ACo_A = R_WA.T @ (v_WCo - v_WAo - np.cross(V0[:3], p_AoCo_W))

        if parameters is None:
            k012, d012, kxyz, dxyz = self._k012, self._d012, self._kxyz, self._dxyz
        else:
            k012, d012, kxyz, dxyz = (parameters[i:i + 3] for i in (0, 3, 6, 9))
        # Torque: gimbal torques τ mapped by Nᵀ.
        rpy = RollPitchYaw(RotationMatrix(R_AC)).vector()
        N = _rpy_dt_matrix(rpy, "LinearBushingRollPitchYaw")
        tau = -(k012 * rpy + d012 * (N @ w_AC_A))
        t_A = N.T @ tau

        # Force: components of p_AoCo in the half-angle frame B and their B-frame rates.
        angle, axis = RotationMatrix(R_AC).to_angle_axis()
        R_AB = RotationMatrix.make_from_angle_axis(0.5 * angle, axis).matrix()
        xyz = R_AB.T @ p_AoCo_A
        DtB_p_AoCo_A = v_ACo_A - np.cross(0.5 * w_AC_A, p_AoCo_A)
        xyz_dot = R_AB.T @ DtB_p_AoCo_A
        f_A = R_AB @ (-(kxyz * xyz + dxyz * xyz_dot))

        p_WBo = X_WA[:3, 3] + 0.5 * p_AoCo_W
        return R_WA @ t_A, R_WA @ f_A, p_WBo

    def _spatial_forces_on_frames(self, context, fn):
        """(F_A_W at Ao, F_C_W at Co) (6,) each, [torque; force] in W, in `context`."""
        state = self._state(fn)
        X_WB, V_WB_W, _, _ = state.eval_element_kinematics(context)
        t_W, f_W, p_WBo = self.calc_torque_and_force(
            X_WB, V_WB_W, state.get_force_element_parameters(context, self))
        p_WAo = (X_WB[self._node0] @ self._frameA.pose_in_body_matrix())[:3, 3]
        p_WCo = (X_WB[self._node1] @ self._frameC.pose_in_body_matrix())[:3, 3]
        F_C = np.concatenate([t_W + np.cross(p_WBo - p_WCo, f_W), f_W])
        F_A = np.concatenate([-t_W - np.cross(p_WBo - p_WAo, f_W), -f_W])
        return F_A, F_C

    def calc_bushing_spatial_force_on_frame_a(self, context):
        """The SpatialForce F_A_W the bushing applies on frame A, at Ao, expressed in W
        (Drake's CalcBushingSpatialForceOnFrameA): minus the force on C, shifted."""
        F_A, _ = self._spatial_forces_on_frames(context, "calc_bushing_spatial_force_on_frame_a")
        return SpatialForce(F_A[:3], F_A[3:])

    def calc_bushing_spatial_force_on_frame_c(self, context):
        """The SpatialForce F_C_W the bushing applies on frame C, at Co, expressed in W
        (Drake's CalcBushingSpatialForceOnFrameC)."""
        _, F_C = self._spatial_forces_on_frames(context, "calc_bushing_spatial_force_on_frame_c")
        return SpatialForce(F_C[:3], F_C[3:])

    def calc_and_add_forces(self, X_WB, V_WB_W, q, v, tau_out, F_Bo_W_out,
                            parameters=None) -> None:
        """Add 𝐭, 𝐟 (at Bo) on L1 and -𝐭, -𝐟 (at Bo) on L0 into `F_Bo_W_out` (with the
        constants `parameters` of a Context, or the defaults)."""
        t_W, f_W, p_WBo = self.calc_torque_and_force(X_WB, V_WB_W, parameters)
        F_Bo_W_out[self._node1, :3] += t_W
        add_point_force(F_Bo_W_out, self._node1, p_WBo - X_WB[self._node1, :3, 3], f_W)
        F_Bo_W_out[self._node0, :3] -= t_W
        add_point_force(F_Bo_W_out, self._node0, p_WBo - X_WB[self._node0, :3, 3], -f_W)

    def _not_implemented(self, func: str):
        raise NotImplementedError(
            f"LinearBushingRollPitchYaw.{func}() is not implemented (nor is it in Drake 1.51, "
            f"issue #12982)"
        )

    def calc_potential_energy(self, X_WB, V_WB_W, q, v, parameters=None) -> float:
        """Not implemented (as in Drake)."""
        self._not_implemented("calc_potential_energy")

    def calc_conservative_power(self, X_WB, V_WB_W, q, v, parameters=None) -> float:
        """Not implemented (as in Drake)."""
        self._not_implemented("calc_conservative_power")

    def calc_non_conservative_power(self, X_WB, V_WB_W, q, v, parameters=None) -> float:
        """Not implemented (as in Drake)."""
        self._not_implemented("calc_non_conservative_power")
