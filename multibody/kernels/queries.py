"""Fused kernels of the plant's per-call queries: one compiled call per query.

Each kernel reads the state where the Context stores it: ``q`` (nq,) and ``v`` (nv,) are
views into the Context's storage (the root's continuous state, or the discrete state
group); no copy of the state is made. Each does
in one call what the Python layer used to do in several (kinematics, the query, the
gather of forces given in body order, the joint damping, the reflected inertia), with
the same arithmetic as the general path. Outputs are caller-owned arrays; the
workspace ``ws`` is the kernel facade's scratch. Every kernel returns the status of the
algorithm it runs (0: done; nonzero: nothing usable was written, take the general path,
which raises the error).

The plant's constant vectors come packed in one array ``c`` (fewer arguments: each
costs a little at every call): ``c[C_GRAVITY:+3]`` g_W, ``c[C_KERNEL_GRAVITY:+3]`` the g of
the dynamics kernels (zero when gravity is applied as body forces), ``c[C_ZERO:+3]``
zeros, then from `C_NODES` the gravity mask (nb,) of the nodes, the joint damping (nv,)
and the reflected inertia (nv, or nothing when no actuator has any); `plant_constants`
packs them.

Spatial vectors are [rotational; translational]; node order unless stated.
"""

from __future__ import annotations

import numpy as np

from merganser.multibody.kernels.aba import calc_forward_dynamics_damped
from merganser.framework.compilation import kernel
from merganser.multibody.kernels.crba import calc_mass_matrix
from merganser.multibody.kernels.jacobians import point_in_world, point_jacobian_columns
from merganser.multibody.kernels.kinematics import pose_pass_base_to_tip, pose_pass_to_nodes
from merganser.multibody.kernels.layout import IP_BODY, IP_NV_TOTAL, WS_PA, WS_PW, WS_RW
from merganser.multibody.kernels.rnea import calc_inverse_dynamics

__all__ = [
    "plant_constants", "C_GRAVITY", "C_KERNEL_GRAVITY", "C_ZERO", "C_NODES",
    "calc_body_pose_at", "calc_mass_matrix_at", "calc_forward_dynamics_at", "calc_inverse_dynamics_at",
    "calc_gravity_and_damping_forces_at", "damping_forces", "gravity_body_forces",
    "calc_frame_jacobian_at", "copy_state_vector",
]


C_GRAVITY, C_KERNEL_GRAVITY, C_ZERO, C_NODES = 0, 3, 6, 9


def plant_constants(gravity, kernel_gravity, gravity_enabled, damping, reflected):
    """The packed constants ``c`` (see the module docstring) as a new float64 array.

    Parameters
    ----------
    gravity, kernel_gravity : array_like, shape (3,)
    gravity_enabled : array_like, shape (nb,)
    damping : array_like, shape (nv,)
    reflected : array_like, shape (nv,) or (0,)
    """
    return np.ascontiguousarray(np.concatenate([
        np.asarray(gravity, dtype=np.float64), np.asarray(kernel_gravity, dtype=np.float64),
        np.zeros(3), np.asarray(gravity_enabled, dtype=np.float64),
        np.asarray(damping, dtype=np.float64), np.asarray(reflected, dtype=np.float64)]))


@kernel
def copy_state_vector(dst, src):
    """``dst[:] = src`` for float64 vectors (1-D; `dst` contiguous, `src` of any stride):
    the state write of ``set_positions`` / ``set_velocities``.

    Returns 0 when copied; 1 (nothing written) when the sizes differ; 2 (nothing written)
    when `src`'s memory overlaps `dst`'s without being `dst` itself (the caller copies
    through a temporary).
    """
    n = dst.shape[0]
    if src.shape[0] != n:
        return 1
    if n == 0:
        return 0
    a0, b0 = np.int64(dst.ctypes.data), np.int64(src.ctypes.data)
    step = np.int64(src.strides[0])
    if step >= 0:
        lo, hi = b0, b0 + (n - 1) * step + 8
    else:
        lo, hi = b0 + (n - 1) * step, b0 + 8
    if lo < a0 + 8 * n and a0 < hi and not (b0 == a0 and step == 8):
        return 2
    for i in range(n):
        dst[i] = src[i]
    return 0


@kernel
def calc_body_pose_at(ip, fp, ws, q, node, R_WB, p_WB):
    """The pose of the body of node `node` in world: R_WB (3, 3) and p_WoBo_W (3,).

    Only the poses on the path from the world to `node` are computed
    (`pose_pass_to_nodes`), with the arithmetic of the forward kinematics.
    """
    pose_pass_to_nodes(ip, fp, q, ws, node, node, node)
    for i in range(3):
        for j in range(3):
            R_WB[i, j] = ws[node, WS_RW + 3 * i + j]
        p_WB[i] = ws[node, WS_PW + i]
    return 0


@kernel
def calc_mass_matrix_at(ip, fp, ws, q, I10, c, M):
    """M(q) (nv, nv) by CRBA, plus the reflected inertia on the diagonal."""
    reflected = c[C_NODES + ip.shape[0] + ip[0, IP_NV_TOTAL]:]
    status = calc_mass_matrix(ip, fp, ws, q, I10, M)
    if status == 0:
        for i in range(reflected.shape[0]):
            M[i, i] += reflected[i]
    return status


@kernel
def calc_forward_dynamics_at(ip, fp, ws, q, v, u, I10, c, tau, vd):
    """v̇ (nv,) by ABA with the applied forces τ = u − D v (written into `tau`), gravity
    the kernels' g."""
    d0 = C_NODES + ip.shape[0]
    return calc_forward_dynamics_damped(ip, fp, ws, q, v, u, c[d0:d0 + ip[0, IP_NV_TOTAL]], I10,
                                        c[C_KERNEL_GRAVITY:C_KERNEL_GRAVITY + 3], ws, False,
                                        tau, vd)


@kernel
def calc_inverse_dynamics_at(ip, fp, ws, q, v, vd, I10, c, F_body, tau_app, tau):
    """τ = M v̇ + C v − τ_app − Σ J_Bᵀ F_Bo_W (+ reflected v̇) (nv,) by RNEA (no gravity:
    the forces given include it, as in Drake).

    Parameters
    ----------
    F_body : ndarray, shape (nbodies, 6)
        Spatial forces at each body origin, in W, in *body* order (MultibodyForces).
    tau_app : ndarray, shape (nv,)
        Applied generalized forces.
    (the other parameters as `calc_inverse_dynamics`; the forces are gathered into
    node order in the workspace block ``WS_PA``, which RNEA does not use.)
    """
    F_node = ws[:, WS_PA:WS_PA + 6]
    for k in range(ip.shape[0]):
        b = ip[k, IP_BODY]
        for i in range(6):
            F_node[k, i] = F_body[b, i]
    status = calc_inverse_dynamics(ip, fp, ws, q, v, vd, I10, c[C_ZERO:C_ZERO + 3], F_node,
                                   True, tau)
    reflected = c[C_NODES + ip.shape[0] + ip[0, IP_NV_TOTAL]:]
    if status == 0:
        for i in range(tau.shape[0]):
            tau[i] = tau[i] - tau_app[i]
        for i in range(reflected.shape[0]):
            tau[i] += reflected[i] * vd[i]
    return status


@kernel
def calc_gravity_and_damping_forces_at(ip, fp, ws, q, v, I10, c, tau, F_body):
    """Gravity as body forces and the joint damping forces (Drake's
    CalcForceElementsContribution with gravity the only force element).

    Writes ``tau = −D v`` (nv,) and, for each body B (body order, (nbodies, 6)),
    ``F_Bo_W = [p_BoBcm_W × m g; m g]`` with ``m p_BoBcm_W = R_WB (m p_BoBcm_B)``
    (zero where the node's gravity mask is 0: gravity disabled for the body's model
    instance).
    """
    pose_pass_base_to_tip(ip, fp, q, ws, ip.shape[0] - 1)
    damping_forces(ip, v, c, tau)
    gravity_body_forces(ip, ws, I10, c, F_body, True)
    return 0


@kernel
def damping_forces(ip, v, c, tau):
    """``tau = −D v`` (nv,), D the joint damping of the packed constants `c`."""
    d0 = C_NODES + ip.shape[0]
    for i in range(tau.shape[0]):
        tau[i] = 0.0 - c[d0 + i] * v[i]


@kernel
def gravity_body_forces(ip, ws, I10, c, F, by_body):
    """Gravity's spatial force F_Bo_W = [p_BoBcm_W × m g; m g] on each body, from the
    world rotations R_WB of the workspace (a pose pass done): into row ``ip[k, IP_BODY]``
    of `F` (nbodies, 6) with `by_body`, else into row k (node order)."""
    nb = ip.shape[0]
    g = c[C_GRAVITY:C_GRAVITY + 3]
    enabled = c[C_NODES:C_NODES + nb]
    gx, gy, gz = g[0], g[1], g[2]
    for k in range(nb):
        e = enabled[k]
        m = I10[k, 0] * e
        # (x0 + x2) + x1: the summation order of numpy's einsum in the Python path of
        # UniformGravityFieldElement, so that both give the same bits.
        cx = ((ws[k, WS_RW] * I10[k, 1] + ws[k, WS_RW + 2] * I10[k, 3])
              + ws[k, WS_RW + 1] * I10[k, 2]) * e
        cy = ((ws[k, WS_RW + 3] * I10[k, 1] + ws[k, WS_RW + 5] * I10[k, 3])
              + ws[k, WS_RW + 4] * I10[k, 2]) * e
        cz = ((ws[k, WS_RW + 6] * I10[k, 1] + ws[k, WS_RW + 8] * I10[k, 3])
              + ws[k, WS_RW + 7] * I10[k, 2]) * e
        b = ip[k, IP_BODY] if by_body else k
        # 0.0 + x as the Python path's zeroed F += x (no negative zeros)
        F[b, 0] = 0.0 + (cy * gz - cz * gy)
        F[b, 1] = 0.0 + (cz * gx - cx * gz)
        F[b, 2] = 0.0 + (cx * gy - cy * gx)
        F[b, 3] = 0.0 + m * gx
        F[b, 4] = 0.0 + m * gy
        F[b, 5] = 0.0 + m * gz


@kernel
def calc_frame_jacobian_at(ip, fp, ws, q, p_BoBp_B, J, X_bB):
    """Jacobian (6, nv) of ``V_ABp_E = [w_AB_E; v_ABp_E] = J v``.

    Parameters
    ----------
    p_BoBp_B : ndarray, shape (3,)
        Position of Bp from frame B's origin, in B (any stride; another size: status 1,
        nothing written).
    J : ndarray, shape (6, nv)
        Output.
    X_bB : ndarray, shape (25,)
        ``[R_bB (9, row-major); p_bBo_b (3); R_eE (9); node_B; node_A; node_E;
        in_world]`` (one array: fewer arguments to unbox at each call): the fixed pose
        of frame B in its body b (node_B's body) and the fixed orientation of frame E in
        its body e (identity and zero for body frames); the node of b, on which point Bp
        is fixed; the node of the body of the measuring frame A (0: world); the node of
        e; and 1.0 when E is the world frame (no rotation applied), else 0.0.
    """
    if p_BoBp_B.shape[0] != 3:
        return 1
    node_B, node_A, node_E = int(X_bB[21]), int(X_bB[22]), int(X_bB[23])
    in_world = X_bB[24] != 0.0
    for i in range(6):
        for j in range(J.shape[1]):
            J[i, j] = 0.0
    pose_pass_to_nodes(ip, fp, q, ws, node_B, node_A, node_E)
    x, y, z = p_BoBp_B[0], p_BoBp_B[1], p_BoBp_B[2]
    # p_boBp_b = R_bB p_BoBp_B + p_bBo_b: the point in b, then in W
    p_b = (X_bB[0] * x + X_bB[1] * y + X_bB[2] * z + X_bB[9],
           X_bB[3] * x + X_bB[4] * y + X_bB[5] * z + X_bB[10],
           X_bB[6] * x + X_bB[7] * y + X_bB[8] * z + X_bB[11])
    px, py, pz = point_in_world(ws, node_B, p_b)
    point_jacobian_columns(ip, ws, node_B, px, py, pz, J, False)
    if node_A != 0:
        point_jacobian_columns(ip, ws, node_A, px, py, pz, J, True)
    if not in_world:
        e = WS_RW
        # R_WE = R_We R_eE (row-major r_ij); J's halves become R_EW J = R_WEᵀ J.
        r00, r01, r02 = _row_times(ws, node_E, e, X_bB)
        r10, r11, r12 = _row_times(ws, node_E, e + 3, X_bB)
        r20, r21, r22 = _row_times(ws, node_E, e + 6, X_bB)
        for c in range(J.shape[1]):
            for h in (0, 3):
                x, y, z = J[h, c], J[h + 1, c], J[h + 2, c]
                J[h, c] = r00 * x + r10 * y + r20 * z
                J[h + 1, c] = r01 * x + r11 * y + r21 * z
                J[h + 2, c] = r02 * x + r12 * y + r22 * z
    return 0


@kernel
def _row_times(ws, k, off, X_bB):
    """Row ``ws[k, off:off+3]`` of a rotation times R_eE = ``X_bB[12:21]`` (row-major),
    a 3-tuple."""
    a0, a1, a2 = ws[k, off], ws[k, off + 1], ws[k, off + 2]
    return (a0 * X_bB[12] + a1 * X_bB[15] + a2 * X_bB[18],
            a0 * X_bB[13] + a1 * X_bB[16] + a2 * X_bB[19],
            a0 * X_bB[14] + a1 * X_bB[17] + a2 * X_bB[20])
