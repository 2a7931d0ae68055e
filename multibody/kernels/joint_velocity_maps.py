"""Kinematic maps between generalized velocities and position derivatives: q̇ = N(q) v.

Per joint, N is the identity except for

- QUATERNION_FLOATING (and BALL_QUATERNION, its rotational half): ``q̇_wxyz = ½ L(q) w_FM_F``
  (the quaternion rate of the rotation driven by the angular velocity expressed in F, ``q̇ = ½ [0; w] ⊗ q``), with
  ``L(q) = [[-qx, -qy, -qz], [qw, qz, -qy], [-qz, qw, qx], [qy, -qx, qw]]``; the
  quaternion is used as stored (not normalized), so q̇ is tangent to the sphere |q| = const.
  The left inverse is ``N⁺ = 2 L(q)^T / |q|²``, hence ``N⁺(q) N(q) = 1`` for any q ≠ 0.
- BALL_RPY and the angular part of RPY_FLOATING: the map from w_FM_F to the rates of
  ``R_FM = Rz(y) Ry(p) Rx(r)``:
  ``[[cy/cp, sy/cp, 0], [-sy, cy, 0], [sp cy/cp, sp sy/cp, 1]]``, singular at
  ``cos p = 0`` (gimbal lock); its inverse is ``[[cy cp, -sy, 0], [sy cp, cy, 0], [-sp, 0, 1]]``.
"""

from __future__ import annotations

from math import cos, sin

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.layout import (
    BALL_QUATERNION, BALL_RPY, IP_JTYPE, IP_NQ, IP_NV, IP_QS, IP_VS, QUATERNION_FLOATING, RPY_FLOATING, bad_q,
    bad_v,
)

__all__ = ["calc_n_block", "calc_n_matrix", "map_velocity_to_qdot",
           "map_qdot_to_velocity"]


@kernel
def _rpy_rate_block(q, qs, out, r0, c0):
    """Write the 3x3 map w_FM_F -> rpy rates at out[r0:r0+3, c0:c0+3]."""
    p, y = q[qs + 1], q[qs + 2]
    cp, sp, cy, sy = cos(p), sin(p), cos(y), sin(y)
    out[r0, c0], out[r0, c0 + 1], out[r0, c0 + 2] = cy / cp, sy / cp, 0.0
    out[r0 + 1, c0], out[r0 + 1, c0 + 1], out[r0 + 1, c0 + 2] = -sy, cy, 0.0
    out[r0 + 2, c0] = sp * cy / cp
    out[r0 + 2, c0 + 1] = sp * sy / cp
    out[r0 + 2, c0 + 2] = 1.0


@kernel
def _rpy_rate_inverse_block(q, qs, out, r0, c0):
    """Write the 3x3 map rpy rates -> w_FM_F at out[r0:r0+3, c0:c0+3]."""
    p, y = q[qs + 1], q[qs + 2]
    cp, sp, cy, sy = cos(p), sin(p), cos(y), sin(y)
    out[r0, c0], out[r0, c0 + 1], out[r0, c0 + 2] = cy * cp, -sy, 0.0
    out[r0 + 1, c0], out[r0 + 1, c0 + 1], out[r0 + 1, c0 + 2] = sy * cp, cy, 0.0
    out[r0 + 2, c0], out[r0 + 2, c0 + 1], out[r0 + 2, c0 + 2] = -sp, 0.0, 1.0


@kernel
def _quaternion_L(q, qs):
    w, x, y, z = q[qs], q[qs + 1], q[qs + 2], q[qs + 3]
    return (-x, -y, -z, w, z, -y, -z, w, x, y, -x, w)


@kernel
def calc_n_block(ip, q, k, N, Nplus):
    """Write node k's blocks of N (into N, shape (nq, nv)) and N⁺ (into Nplus, (nv, nq)).

    Only the node's diagonal block is written; other entries are left untouched.
    """
    jt = ip[k, IP_JTYPE]
    qs = ip[k, IP_QS]
    vs = ip[k, IP_VS]
    n = ip[k, IP_NV]
    for i in range(ip[k, IP_NQ]):
        for j in range(n):
            N[qs + i, vs + j] = 0.0
            Nplus[vs + j, qs + i] = 0.0
    if jt == QUATERNION_FLOATING or jt == BALL_QUATERNION:
        L = _quaternion_L(q, qs)
        n2 = q[qs] ** 2 + q[qs + 1] ** 2 + q[qs + 2] ** 2 + q[qs + 3] ** 2
        for i in range(4):
            for j in range(3):
                N[qs + i, vs + j] = 0.5 * L[3 * i + j]
                Nplus[vs + j, qs + i] = 2.0 * L[3 * i + j] / n2
        if jt == QUATERNION_FLOATING:
            for i in range(3):
                N[qs + 4 + i, vs + 3 + i] = 1.0
                Nplus[vs + 3 + i, qs + 4 + i] = 1.0
    elif jt == BALL_RPY or jt == RPY_FLOATING:
        _rpy_rate_block(q, qs, N, qs, vs)
        _rpy_rate_inverse_block(q, qs, Nplus, vs, qs)
        if jt == RPY_FLOATING:
            for i in range(3):
                N[qs + 3 + i, vs + 3 + i] = 1.0
                Nplus[vs + 3 + i, qs + 3 + i] = 1.0
    else:
        for i in range(n):
            N[qs + i, vs + i] = 1.0
            Nplus[vs + i, qs + i] = 1.0


@kernel
def calc_n_matrix(ip, q, N, Nplus):
    """Fill N(q), shape (nq, nv), and N⁺(q), shape (nv, nq) (block diagonal).

    Returns 0, or 1 if `q` has the wrong size.
    """
    if bad_q(ip, q):
        return 1
    N[:, :] = 0.0
    Nplus[:, :] = 0.0
    for k in range(1, ip.shape[0]):
        calc_n_block(ip, q, k, N, Nplus)
    return 0


@kernel
def map_velocity_to_qdot(ip, q, v, qdot):
    """Write ``qdot = N(q) v``; shapes (nq,), (nv,) -> (nq,). Returns 0, or 1 if an
    input has the wrong size."""
    if bad_q(ip, q) or bad_v(ip, v):
        return 1
    for k in range(1, ip.shape[0]):
        jt = ip[k, IP_JTYPE]
        qs = ip[k, IP_QS]
        vs = ip[k, IP_VS]
        if jt == QUATERNION_FLOATING or jt == BALL_QUATERNION:
            w, x, y, z = q[qs], q[qs + 1], q[qs + 2], q[qs + 3]
            wx, wy, wz = v[vs], v[vs + 1], v[vs + 2]
            qdot[qs] = 0.5 * (-x * wx - y * wy - z * wz)
            qdot[qs + 1] = 0.5 * (w * wx + z * wy - y * wz)
            qdot[qs + 2] = 0.5 * (-z * wx + w * wy + x * wz)
            qdot[qs + 3] = 0.5 * (y * wx - x * wy + w * wz)
            if jt == QUATERNION_FLOATING:
                for i in range(3):
                    qdot[qs + 4 + i] = v[vs + 3 + i]
        elif jt == BALL_RPY or jt == RPY_FLOATING:
            p, y = q[qs + 1], q[qs + 2]
            cp, sp, cy, sy = cos(p), sin(p), cos(y), sin(y)
            wx, wy, wz = v[vs], v[vs + 1], v[vs + 2]
            rdot = (cy * wx + sy * wy) / cp
            qdot[qs] = rdot
            qdot[qs + 1] = -sy * wx + cy * wy
            qdot[qs + 2] = sp * rdot + wz
            if jt == RPY_FLOATING:
                for i in range(3):
                    qdot[qs + 3 + i] = v[vs + 3 + i]
        else:
            for i in range(ip[k, IP_NV]):
                qdot[qs + i] = v[vs + i]
    return 0


@kernel
def map_qdot_to_velocity(ip, q, qdot, v):
    """Write ``v = N⁺(q) qdot``; shapes (nq,), (nq,) -> (nv,). Returns 0, or 1 if an
    input has the wrong size."""
    if bad_q(ip, q) or bad_q(ip, qdot):
        return 1
    for k in range(1, ip.shape[0]):
        jt = ip[k, IP_JTYPE]
        qs = ip[k, IP_QS]
        vs = ip[k, IP_VS]
        if jt == QUATERNION_FLOATING or jt == BALL_QUATERNION:
            w, x, y, z = q[qs], q[qs + 1], q[qs + 2], q[qs + 3]
            dw, dx, dy, dz = qdot[qs], qdot[qs + 1], qdot[qs + 2], qdot[qs + 3]
            s = 2.0 / (w * w + x * x + y * y + z * z)
            v[vs] = s * (-x * dw + w * dx - z * dy + y * dz)
            v[vs + 1] = s * (-y * dw + z * dx + w * dy - x * dz)
            v[vs + 2] = s * (-z * dw - y * dx + x * dy + w * dz)
            if jt == QUATERNION_FLOATING:
                for i in range(3):
                    v[vs + 3 + i] = qdot[qs + 4 + i]
        elif jt == BALL_RPY or jt == RPY_FLOATING:
            p, y = q[qs + 1], q[qs + 2]
            cp, sp, cy, sy = cos(p), sin(p), cos(y), sin(y)
            rd, pd, yd = qdot[qs], qdot[qs + 1], qdot[qs + 2]
            v[vs] = cy * cp * rd - sy * pd
            v[vs + 1] = sy * cp * rd + cy * pd
            v[vs + 2] = -sp * rd + yd
            if jt == RPY_FLOATING:
                for i in range(3):
                    v[vs + 3 + i] = qdot[qs + 3 + i]
        else:
            for i in range(ip[k, IP_NV]):
                v[vs + i] = qdot[qs + i]
    return 0
