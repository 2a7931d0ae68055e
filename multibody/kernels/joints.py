"""Joint kinematics (Featherstone's ``jcalc``): X_PB(q), motion subspace and joint bias.

For node k with inboard joint of type ``jtype``, `calc_joint_pose` writes into the
workspace row k

- ``R_PB``, ``p_PoBo_P``: pose of the body B in the parent body P,
  ``X_PB = X_PF X_FM(q) X_MB``;
- ``S_B``: the joint's motion subspace (6 x nv_j), expressed in B at Bo, such that the
  spatial velocity of B relative to P is ``S_B v_j``;
- ``R_FM`` for multi-dof joints (reused by `calc_joint_bias`).

`calc_joint_bias` writes ``c_J = S°_B v_j``, the apparent time derivative of S_B (in B)
times v_j, nonzero only for joints whose generalized velocities are expressed in F
(planar, floating) or for the universal joint.

Conventions (Drake's): BALL_RPY and RPY_FLOATING angles are ``R_FM = Rz(y) Ry(p) Rx(r)``
with v = w_FM_F (and v_FMo_F); QUATERNION_FLOATING q = [qw qx qy qz x y z], kinematics
uses the normalized quaternion, v = [w_FM_F; v_FMo_F]; UNIVERSAL is
``R_FM = Rx(q0) Ry(q1)`` with v = q̇; PLANAR is a translation (x, y, 0) in F then a
rotation θ about Fz, v = [ẋ, ẏ, θ̇]; SCREW translates ``pitch θ / 2π`` along its axis.

References
----------
R. Featherstone, *Rigid Body Dynamics Algorithms*, Springer 2008, section 4.4 (jcalc).
"""

from __future__ import annotations

import numpy as np

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.layout import (
    BALL_QUATERNION, BALL_RPY, FP_P0, FP_P0B, FP_P1, FP_P2, FP_PITCH, FP_P_MB, FP_P_PF, FP_R0, FP_RA, FP_R_MB,
    FP_R_PF, FP_S, IP_JTYPE, IP_MB_IDENTITY, IP_NV, IP_QS, IP_VS, PLANAR, PRISMATIC,
    QUATERNION_FLOATING, REVOLUTE, RPY_FLOATING, SCREW, UNIVERSAL, WELD, WS_CJ, WS_P, WS_R, WS_RFM,
    WS_S,
)
from merganser.multibody.kernels.spatial import store6, store9

__all__ = [
    "rotation_from_quaternion", "rotation_from_rpy", "calc_joint_pose", "joint_pose",
    "calc_joint_bias",
    "joint_velocity", "joint_force",
]


@kernel
def rotation_from_quaternion(qw, qx, qy, qz):
    """Return the row-major rotation matrix (9-tuple) of the normalized quaternion."""
    n = np.sqrt(qw * qw + qx * qx + qy * qy + qz * qz)
    w, x, y, z = qw / n, qx / n, qy / n, qz / n
    return (1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y),
            2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x),
            2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y))


@kernel
def rotation_from_rpy(r, p, y):
    """Return ``Rz(y) Ry(p) Rx(r)`` row-major (9-tuple)."""
    cr, sr, cp, sp, cy, sy = np.cos(r), np.sin(r), np.cos(p), np.sin(p), np.cos(y), np.sin(y)
    return (cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr,
            sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr,
            -sp, cp * sr, cp * cr)


@kernel
def _mat_mul(a, b):
    return (a[0] * b[0] + a[1] * b[3] + a[2] * b[6],
            a[0] * b[1] + a[1] * b[4] + a[2] * b[7],
            a[0] * b[2] + a[1] * b[5] + a[2] * b[8],
            a[3] * b[0] + a[4] * b[3] + a[5] * b[6],
            a[3] * b[1] + a[4] * b[4] + a[5] * b[7],
            a[3] * b[2] + a[4] * b[5] + a[5] * b[8],
            a[6] * b[0] + a[7] * b[3] + a[8] * b[6],
            a[6] * b[1] + a[7] * b[4] + a[8] * b[7],
            a[6] * b[2] + a[7] * b[5] + a[8] * b[8])


@kernel
def _mat_vec(a, x, y, z):
    return (a[0] * x + a[1] * y + a[2] * z,
            a[3] * x + a[4] * y + a[5] * z,
            a[6] * x + a[7] * y + a[8] * z)


@kernel
def _row9(a, k, off):
    return (a[k, off], a[k, off + 1], a[k, off + 2], a[k, off + 3], a[k, off + 4],
            a[k, off + 5], a[k, off + 6], a[k, off + 7], a[k, off + 8])


@kernel
def _store_pose(ws, k, R, px, py, pz):
    store9(ws, k, WS_R, R)
    ws[k, WS_P] = px
    ws[k, WS_P + 1] = py
    ws[k, WS_P + 2] = pz


@kernel
def _motion_M_to_B(fp, k, wx, wy, wz, vx, vy, vz):
    """X_BM m = [R_MB^T w; R_MB^T (v + w x p_MB)] for a motion vector m in M at Mo."""
    R = _row9(fp, k, FP_R_MB)
    px, py, pz = fp[k, FP_P_MB], fp[k, FP_P_MB + 1], fp[k, FP_P_MB + 2]
    ux = vx + wy * pz - wz * py
    uy = vy + wz * px - wx * pz
    uz = vz + wx * py - wy * px
    return (R[0] * wx + R[3] * wy + R[6] * wz,
            R[1] * wx + R[4] * wy + R[7] * wz,
            R[2] * wx + R[5] * wy + R[8] * wz,
            R[0] * ux + R[3] * uy + R[6] * uz,
            R[1] * ux + R[4] * uy + R[7] * uz,
            R[2] * ux + R[5] * uy + R[8] * uz)


@kernel
def _store_column(ip, fp, ws, k, j, wx, wy, wz, vx, vy, vz):
    """Store motion-subspace column j of node k, given in M at Mo, as S_B."""
    o = WS_S + 6 * j
    if ip[k, IP_MB_IDENTITY] == 1:
        ws[k, o], ws[k, o + 1], ws[k, o + 2] = wx, wy, wz
        ws[k, o + 3], ws[k, o + 4], ws[k, o + 5] = vx, vy, vz
    else:
        store6(ws, k, o, _motion_M_to_B(fp, k, wx, wy, wz, vx, vy, vz))


@kernel
def _pose_one_dof(ip, fp, q, k, jt):
    """R_PB (9-tuple), p_PB of revolute / screw joints from R_PF R_FM = P0 + c P1 + s P2."""
    th = q[ip[k, IP_QS]]
    c = np.cos(th)
    s = np.sin(th)
    R = (fp[k, FP_P0] + c * fp[k, FP_P1] + s * fp[k, FP_P2],
         fp[k, FP_P0 + 1] + c * fp[k, FP_P1 + 1] + s * fp[k, FP_P2 + 1],
         fp[k, FP_P0 + 2] + c * fp[k, FP_P1 + 2] + s * fp[k, FP_P2 + 2],
         fp[k, FP_P0 + 3] + c * fp[k, FP_P1 + 3] + s * fp[k, FP_P2 + 3],
         fp[k, FP_P0 + 4] + c * fp[k, FP_P1 + 4] + s * fp[k, FP_P2 + 4],
         fp[k, FP_P0 + 5] + c * fp[k, FP_P1 + 5] + s * fp[k, FP_P2 + 5],
         fp[k, FP_P0 + 6] + c * fp[k, FP_P1 + 6] + s * fp[k, FP_P2 + 6],
         fp[k, FP_P0 + 7] + c * fp[k, FP_P1 + 7] + s * fp[k, FP_P2 + 7],
         fp[k, FP_P0 + 8] + c * fp[k, FP_P1 + 8] + s * fp[k, FP_P2 + 8])
    px, py, pz = fp[k, FP_P_PF], fp[k, FP_P_PF + 1], fp[k, FP_P_PF + 2]
    if jt == SCREW:
        d = fp[k, FP_PITCH] * th
        px += d * fp[k, FP_RA]
        py += d * fp[k, FP_RA + 1]
        pz += d * fp[k, FP_RA + 2]
    if ip[k, IP_MB_IDENTITY] == 1:
        return R, px, py, pz
    t = _mat_vec(R, fp[k, FP_P_MB], fp[k, FP_P_MB + 1], fp[k, FP_P_MB + 2])
    return _mat_mul(R, _row9(fp, k, FP_R_MB)), px + t[0], py + t[1], pz + t[2]


@kernel
def _pose_fixed_rotation(ip, fp, q, k, jt):
    """R_PB (9-tuple), p_PB of prismatic joints and welds (R_PB = R_PF R_MB constant)."""
    R = _row9(fp, k, FP_R0)
    px, py, pz = fp[k, FP_P0B], fp[k, FP_P0B + 1], fp[k, FP_P0B + 2]
    if jt == PRISMATIC:
        d = q[ip[k, IP_QS]]
        px += d * fp[k, FP_RA]
        py += d * fp[k, FP_RA + 1]
        pz += d * fp[k, FP_RA + 2]
    return R, px, py, pz


@kernel
def _rotation_FM(jt, q, qs):
    """R_FM (row-major 9-tuple) and p_FM_F of a multi-dof joint."""
    zero = 0.0 * q[qs]
    if jt == BALL_RPY:
        return rotation_from_rpy(q[qs], q[qs + 1], q[qs + 2]), zero, zero, zero
    if jt == UNIVERSAL:
        c0, s0, c1, s1 = np.cos(q[qs]), np.sin(q[qs]), np.cos(q[qs + 1]), np.sin(q[qs + 1])
        return (c1, zero, s1, s0 * s1, c0, -s0 * c1, -c0 * s1, s0, c0 * c1), zero, zero, zero
    if jt == PLANAR:
        c, s = np.cos(q[qs + 2]), np.sin(q[qs + 2])
        one = zero + 1.0
        return (c, -s, zero, s, c, zero, zero, zero, one), q[qs], q[qs + 1], zero
    if jt == QUATERNION_FLOATING:
        R = rotation_from_quaternion(q[qs], q[qs + 1], q[qs + 2], q[qs + 3])
        return R, q[qs + 4], q[qs + 5], q[qs + 6]
    if jt == BALL_QUATERNION:
        R = rotation_from_quaternion(q[qs], q[qs + 1], q[qs + 2], q[qs + 3])
        return R, zero, zero, zero
    # RPY_FLOATING
    R = rotation_from_rpy(q[qs], q[qs + 1], q[qs + 2])
    return R, q[qs + 3], q[qs + 4], q[qs + 5]


@kernel
def _pose_multi_dof(ip, fp, q, ws, k, jt):
    """Pose and motion subspace of BALL_RPY, UNIVERSAL, PLANAR and floating joints."""
    qs = ip[k, IP_QS]
    Rfm, x, y, z = _rotation_FM(jt, q, qs)
    store9(ws, k, WS_RFM, Rfm)
    # T = R_FM R_MB, t = p_FM + R_FM p_MB, then X_PB = X_PF (T, t).
    if ip[k, IP_MB_IDENTITY] == 1:
        T = Rfm
        tx, ty, tz = x, y, z
    else:
        T = _mat_mul(Rfm, _row9(fp, k, FP_R_MB))
        u = _mat_vec(Rfm, fp[k, FP_P_MB], fp[k, FP_P_MB + 1], fp[k, FP_P_MB + 2])
        tx, ty, tz = x + u[0], y + u[1], z + u[2]
    Rpf = _row9(fp, k, FP_R_PF)
    t = _mat_vec(Rpf, tx, ty, tz)
    _store_pose(ws, k, _mat_mul(Rpf, T), fp[k, FP_P_PF] + t[0], fp[k, FP_P_PF + 1] + t[1],
                fp[k, FP_P_PF + 2] + t[2])
    zero = 0.0 * x
    # Motion subspace in M at Mo; a column R_FM^T e_j is row j of R_FM.
    if jt == UNIVERSAL:
        c1, s1 = Rfm[0], Rfm[2]
        _store_column(ip, fp, ws, k, 0, c1, zero, s1, zero, zero, zero)
        _store_column(ip, fp, ws, k, 1, zero, zero + 1.0, zero, zero, zero, zero)
    elif jt == PLANAR:
        _store_column(ip, fp, ws, k, 0, zero, zero, zero, Rfm[0], Rfm[1], Rfm[2])
        _store_column(ip, fp, ws, k, 1, zero, zero, zero, Rfm[3], Rfm[4], Rfm[5])
        _store_column(ip, fp, ws, k, 2, zero, zero, zero + 1.0, zero, zero, zero)
    else:
        for j in range(3):
            r = WS_RFM + 3 * j
            _store_column(ip, fp, ws, k, j, ws[k, r], ws[k, r + 1], ws[k, r + 2],
                          zero, zero, zero)
        if jt != BALL_RPY and jt != BALL_QUATERNION:
            for j in range(3):
                r = WS_RFM + 3 * j
                _store_column(ip, fp, ws, k, 3 + j, zero, zero, zero, ws[k, r],
                              ws[k, r + 1], ws[k, r + 2])


@kernel
def calc_joint_pose(ip, fp, q, ws, k):
    """Write R_PB, p_PB and the motion subspace S_B of node k into ``ws[k]``.

    Parameters
    ----------
    ip, fp : ndarray
        Packed model (see `multibody.kernels.layout`).
    q : ndarray, shape (nq,)
        Generalized positions (float64 or complex128).
    ws : ndarray, shape (nb, NWS)
        Workspace; row k is written.
    k : int
        Node index, ``k >= 1``.
    """
    jt = ip[k, IP_JTYPE]
    if jt == REVOLUTE or jt == SCREW:
        R, px, py, pz = _pose_one_dof(ip, fp, q, k, jt)
    elif jt == PRISMATIC or jt == WELD:
        R, px, py, pz = _pose_fixed_rotation(ip, fp, q, k, jt)
    else:
        _pose_multi_dof(ip, fp, q, ws, k, jt)
        return
    _store_pose(ws, k, R, px, py, pz)
    if jt != WELD:
        for i in range(6):
            ws[k, WS_S + i] = fp[k, FP_S + i]


@kernel
def joint_pose(ip, fp, q, ws, k):
    """Return R_PB (row-major 9-tuple) and p_PB (three values) of node k.

    One-dof joints and welds are computed without touching the workspace; the
    multi-dof joints go through `calc_joint_pose` (which writes ``ws[k]``).
    """
    jt = ip[k, IP_JTYPE]
    if jt == REVOLUTE or jt == SCREW:
        return _pose_one_dof(ip, fp, q, k, jt)
    if jt == PRISMATIC or jt == WELD:
        return _pose_fixed_rotation(ip, fp, q, k, jt)
    _pose_multi_dof(ip, fp, q, ws, k, jt)
    return _row9(ws, k, WS_R), ws[k, WS_P], ws[k, WS_P + 1], ws[k, WS_P + 2]


@kernel
def calc_joint_bias(ip, fp, q, v, ws, k):
    """Write ``c_J = S°_B v_j`` (in B at Bo) into ``ws[k, WS_CJ:WS_CJ+6]``.

    Requires `calc_joint_pose` to have run for node k (it uses the stored R_FM).
    For floating and planar joints ``c_J,M = [0; -R_FM^T (w_FM_F x v_FMo_F)]``; for the
    universal joint ``c_J,M = [(-sin q1, 0, cos q1) v0 v1; 0]``; zero otherwise.
    """
    jt = ip[k, IP_JTYPE]
    zero = 0.0 * ws[k, WS_R]
    if jt == QUATERNION_FLOATING or jt == RPY_FLOATING or jt == PLANAR or jt == UNIVERSAL:
        vs = ip[k, IP_VS]
        ax, ay, az = zero, zero, zero
        lx, ly, lz = zero, zero, zero
        if jt == UNIVERSAL:
            w01 = v[vs] * v[vs + 1]
            ax = -ws[k, WS_RFM + 2] * w01      # -np.sin(q1) v0 v1
            az = ws[k, WS_RFM] * w01           # np.cos(q1) v0 v1
        else:
            if jt == PLANAR:
                wx, wy, wz = zero, zero, v[vs + 2]
                ux, uy, uz = v[vs], v[vs + 1], zero
            else:
                wx, wy, wz = v[vs], v[vs + 1], v[vs + 2]
                ux, uy, uz = v[vs + 3], v[vs + 4], v[vs + 5]
            cx = wy * uz - wz * uy
            cy = wz * ux - wx * uz
            cz = wx * uy - wy * ux
            R = _row9(ws, k, WS_RFM)
            lx = -(R[0] * cx + R[3] * cy + R[6] * cz)
            ly = -(R[1] * cx + R[4] * cy + R[7] * cz)
            lz = -(R[2] * cx + R[5] * cy + R[8] * cz)
        if ip[k, IP_MB_IDENTITY] == 1:
            c = (ax, ay, az, lx, ly, lz)
        else:
            c = _motion_M_to_B(fp, k, ax, ay, az, lx, ly, lz)
        store6(ws, k, WS_CJ, c)
    else:
        for i in range(6):
            ws[k, WS_CJ + i] = zero


@kernel
def joint_velocity(ip, ws, k, v):
    """Return ``S_B v_j`` (6-tuple), the spatial velocity of B relative to P, in B."""
    n = ip[k, IP_NV]
    vs = ip[k, IP_VS]
    zero = 0.0 * ws[k, WS_S]
    m0, m1, m2, m3, m4, m5 = zero, zero, zero, zero, zero, zero
    for j in range(n):
        o = WS_S + 6 * j
        x = v[vs + j]
        m0 += ws[k, o] * x
        m1 += ws[k, o + 1] * x
        m2 += ws[k, o + 2] * x
        m3 += ws[k, o + 3] * x
        m4 += ws[k, o + 4] * x
        m5 += ws[k, o + 5] * x
    return (m0, m1, m2, m3, m4, m5)


@kernel
def joint_force(ws, k, j, f):
    """Return ``S_j^T f``, the generalized force of column j of node k for force f."""
    o = WS_S + 6 * j
    return (ws[k, o] * f[0] + ws[k, o + 1] * f[1] + ws[k, o + 2] * f[2]
            + ws[k, o + 3] * f[3] + ws[k, o + 4] * f[4] + ws[k, o + 5] * f[5])
