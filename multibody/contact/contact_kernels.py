"""Compiled kernels of the point-contact pipeline: contact pairs from the query rows,
contact Jacobians, penalty forces.

Conventions: contact i is between bodies A (node ``node_a[i]``) and B (``node_b[i]``) at
the point C (``p_WC[i]``); its contact frame C has ``R_WC[i]`` with z the normal
``nhat_AB_W`` pointing from A into B. The contact velocity is ``vc = v_AcBc_C`` (the
velocity of B's point at C relative to A's, in C), so vn = vc[2] > 0 separates. The
contact Jacobian row block i is ``J[3i:3i+3] = R_WCᵀ (J_Bc - J_Ac)`` with J_Xc the
translational Jacobian (3, nv) in W of the point of body X coincident with C.
"""

import math

from merganser.framework.compilation import kernel
from merganser.multibody.kernels.kinematics import pose_pass_base_to_tip
from merganser.multibody.kernels.layout import IP_NV, IP_PARENT, IP_VS, WS_PW, WS_RW, WS_S
from merganser.multibody.kernels.spatial import load6, rotate6


@kernel(inline=False)
def make_contact_frame(nx, ny, nz, R, i):
    """R[i] = R_WC with z = n and a deterministic tangent basis."""
    if abs(nx) < 0.57735:
        ax, ay, az = 1.0, 0.0, 0.0
    else:
        ax, ay, az = 0.0, 1.0, 0.0
    # t1 = normalize(a x n), t2 = n x t1
    tx, ty, tz = ay * nz - az * ny, az * nx - ax * nz, ax * ny - ay * nx
    ln = math.sqrt(tx * tx + ty * ty + tz * tz)
    tx, ty, tz = tx / ln, ty / ln, tz / ln
    sx, sy, sz = ny * tz - nz * ty, nz * tx - nx * tz, nx * ty - ny * tx
    R[i, 0, 0], R[i, 1, 0], R[i, 2, 0] = tx, ty, tz
    R[i, 0, 1], R[i, 1, 1], R[i, 2, 1] = sx, sy, sz
    R[i, 0, 2], R[i, 1, 2], R[i, 2, 2] = nx, ny, nz


@kernel(inline=False)
def build_contacts(rows, pairs, geom_node, k_g, d_g, tau_g, mu_g, node_a, node_b, p_WC, R_WC,
                   phi0, k, d, tau, mu, geom_a, geom_b, rows_out):
    """Fill the contact arrays from query rows (A = pairs[:, 0], B = pairs[:, 1]); the rows
    kept are copied to rows_out.

    Pairs whose geometries are on the same body are skipped. Returns the contact count.
    """
    nc = 0
    for r in range(rows.shape[0]):
        ga, gb = pairs[r, 0], pairs[r, 1]
        na, nb = geom_node[ga], geom_node[gb]
        if na == nb:
            continue
        ka, kb = k_g[ga], k_g[gb]
        den = ka + kb
        wa = 0.5 if den == 0.0 else ka / den
        wb = 1.0 - wa
        for c in range(3):
            p_WC[nc, c] = wa * rows[r, c] + wb * rows[r, 3 + c]
        make_contact_frame(-rows[r, 6], -rows[r, 7], -rows[r, 8], R_WC, nc)
        phi0[nc] = rows[r, 9]
        k[nc] = 0.0 if den == 0.0 else ka * kb / den
        d[nc] = 0.0 if den == 0.0 else (kb * d_g[ga] + ka * d_g[gb]) / den
        tau[nc] = tau_g[ga] + tau_g[gb]
        ma, mb = mu_g[ga], mu_g[gb]
        mu[nc] = 0.0 if ma + mb == 0.0 else 2.0 * ma * mb / (ma + mb)
        node_a[nc], node_b[nc] = na, nb
        geom_a[nc], geom_b[nc] = ga, gb
        for c in range(10):
            rows_out[nc, c] = rows[r, c]
        nc += 1
    return nc


@kernel(inline=False)
def point_motion(ws, a, j, px, py, pz):
    """World velocity (vx, vy, vz) of the point p (in W) rigidly attached to node a's body
    per unit rate of a's j-th joint velocity (the column of the point's Jacobian)."""
    dx = px - ws[a, WS_PW]
    dy = py - ws[a, WS_PW + 1]
    dz = pz - ws[a, WS_PW + 2]
    s = rotate6(ws, a, WS_RW, load6(ws, a, WS_S + 6 * j))
    return (s[3] + s[1] * dz - s[2] * dy, s[4] + s[2] * dx - s[0] * dz,
            s[5] + s[0] * dy - s[1] * dx)


@kernel(inline=False)
def add_point_jacobian(ws, ip, node, px, py, pz, sign, R, J, row0):
    """J[row0:row0+3] += sign * Rᵀ J_p, with J_p the translational Jacobian in W of the
    point p fixed on `node` (R (3, 3) row frame in W; identity for world rows)."""
    a = node
    while a > 0:
        vs = ip[a, IP_VS]
        for j in range(ip[a, IP_NV]):
            vx, vy, vz = point_motion(ws, a, j, px, py, pz)
            for r in range(3):
                J[row0 + r, vs + j] += sign * (R[0, r] * vx + R[1, r] * vy + R[2, r] * vz)
        a = ip[a, IP_PARENT]


@kernel(inline=False)
def add_angular_jacobian(ws, ip, node, sign, J, row0):
    """J[row0:row0+3] += sign * J_w, the angular-velocity Jacobian in W of `node`."""
    a = node
    while a > 0:
        vs = ip[a, IP_VS]
        for j in range(ip[a, IP_NV]):
            s = rotate6(ws, a, WS_RW, load6(ws, a, WS_S + 6 * j))
            for r in range(3):
                J[row0 + r, vs + j] += sign * s[r]
        a = ip[a, IP_PARENT]


@kernel(inline=False)
def pose_pass(ip, fp, q, ws):
    """World poses and motion subspaces of every node into the workspace."""
    pose_pass_base_to_tip(ip, fp, q, ws, ip.shape[0] - 1)


@kernel(inline=False)
def contact_jacobian(ip, fp, ws, q, nc, node_a, node_b, p_WC, R_WC, J):
    """Contact Jacobian J (3 nc, nv) in the contact frames (see the module docstring)."""
    pose_pass(ip, fp, q, ws)
    contact_jacobian_at_poses(ip, ws, nc, node_a, node_b, p_WC, R_WC, J)


@kernel(inline=False)
def contact_jacobian_at_poses(ip, ws, nc, node_a, node_b, p_WC, R_WC, J):
    """`contact_jacobian` with the poses of q already in `ws` (`pose_pass`)."""
    for r in range(3 * nc):
        for c in range(J.shape[1]):
            J[r, c] = 0.0
    for i in range(nc):
        px, py, pz = p_WC[i, 0], p_WC[i, 1], p_WC[i, 2]
        add_point_jacobian(ws, ip, node_b[i], px, py, pz, 1.0, R_WC[i], J, 3 * i)
        add_point_jacobian(ws, ip, node_a[i], px, py, pz, -1.0, R_WC[i], J, 3 * i)


@kernel(inline=False)
def point_velocity(X_WB, V_WB, node, px, py, pz):
    """Velocity in W of the point of node's body at p (from V_WB = [w; v_WBo] in W)."""
    rx, ry, rz = px - X_WB[node, 0, 3], py - X_WB[node, 1, 3], pz - X_WB[node, 2, 3]
    w0, w1, w2 = V_WB[node, 0], V_WB[node, 1], V_WB[node, 2]
    return (V_WB[node, 3] + w1 * rz - w2 * ry, V_WB[node, 4] + w2 * rx - w0 * rz,
            V_WB[node, 5] + w0 * ry - w1 * rx)


@kernel(inline=False)
def _add_force(X_WB, F, node, px, py, pz, fx, fy, fz):
    rx, ry, rz = px - X_WB[node, 0, 3], py - X_WB[node, 1, 3], pz - X_WB[node, 2, 3]
    F[node, 0] += ry * fz - rz * fy
    F[node, 1] += rz * fx - rx * fz
    F[node, 2] += rx * fy - ry * fx
    F[node, 3] += fx
    F[node, 4] += fy
    F[node, 5] += fz


@kernel(inline=False)
def penalty_forces(nc, node_a, node_b, p_WC, R_WC, phi0, k, d, mu, v_stiction, X_WB, V_WB,
                   F_Bo_W, f_Bc_W, vc):
    """Continuous penalty contact: adds each contact's forces to F_Bo_W (nb, 6).

    Normal force f_n = k x (1 + d ẋ)₊ with x = -φ the penetration and ẋ = -vn; regularized
    Coulomb friction f_t = -μ(s) f_n vt/s with μ(s) = μ (s/vs)(2 - s/vs) below the
    stiction tolerance vs and μ above. Writes the force on B at C in W into f_Bc_W[i] and
    the contact velocity into vc[i] (C frame).
    """
    for i in range(nc):
        px, py, pz = p_WC[i, 0], p_WC[i, 1], p_WC[i, 2]
        ax, ay, az = point_velocity(X_WB, V_WB, node_a[i], px, py, pz)
        bx, by, bz = point_velocity(X_WB, V_WB, node_b[i], px, py, pz)
        ux, uy, uz = bx - ax, by - ay, bz - az
        vt0 = R_WC[i, 0, 0] * ux + R_WC[i, 1, 0] * uy + R_WC[i, 2, 0] * uz
        vt1 = R_WC[i, 0, 1] * ux + R_WC[i, 1, 1] * uy + R_WC[i, 2, 1] * uz
        vn = R_WC[i, 0, 2] * ux + R_WC[i, 1, 2] * uy + R_WC[i, 2, 2] * uz
        vc[i, 0], vc[i, 1], vc[i, 2] = vt0, vt1, vn
        x = -phi0[i]
        fn = k[i] * x * max(0.0, 1.0 - d[i] * vn)
        if fn < 0.0:
            fn = 0.0
        s = math.sqrt(vt0 * vt0 + vt1 * vt1)
        ft0, ft1 = 0.0, 0.0
        if s > 0.0:
            ratio = s / v_stiction
            m = mu[i] * ratio * (2.0 - ratio) if ratio < 1.0 else mu[i]
            ft0 = -m * fn * vt0 / s
            ft1 = -m * fn * vt1 / s
        fx = R_WC[i, 0, 0] * ft0 + R_WC[i, 0, 1] * ft1 + R_WC[i, 0, 2] * fn
        fy = R_WC[i, 1, 0] * ft0 + R_WC[i, 1, 1] * ft1 + R_WC[i, 1, 2] * fn
        fz = R_WC[i, 2, 0] * ft0 + R_WC[i, 2, 1] * ft1 + R_WC[i, 2, 2] * fn
        f_Bc_W[i, 0], f_Bc_W[i, 1], f_Bc_W[i, 2] = fx, fy, fz
        _add_force(X_WB, F_Bo_W, node_b[i], px, py, pz, fx, fy, fz)
        _add_force(X_WB, F_Bo_W, node_a[i], px, py, pz, -fx, -fy, -fz)
