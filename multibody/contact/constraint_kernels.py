"""Compiled kernels of the bilateral constraint rows: the rows J (m, nv), values g (m,),
stiffness and damping of coupler, distance, ball and weld constraints from flat tables,
the regularization of the bilateral rows for SAP (Drake's SapHolonomicConstraint), the
joint-limit rows (Drake's SapLimitConstraint) and the tendon rows (Drake's
SapTendonConstraint, unilateral, regularized as the bilateral rows).

Tables (built once by `multibody.contact.constraints.ConstraintRows`), one entry per
constraint i:

- ``kinds[i]``: COUPLER, DISTANCE, BALL or WELD;
- ``int_params[i]`` (INT_PARAMS,): coupler [qs0, qs1, vs0, vs1] (position and velocity
  starts of joints 0 and 1); others [node of A, node of B];
- ``float_params[i]`` (FLOAT_PARAMS,): coupler [ρ, Δq]; distance [p_AP (3), p_BQ (3),
  d, k, c]; ball [p_AP (3), p_BQ (3)]; weld [R_AP (9, row-major), p_AP (3), R_BQ (9),
  p_BQ (3)].

Rows (constraint velocity ġ = J v, J expressed in W for the point rows):

- coupler (1 row): g = q₀ - ρ q₁ - Δq, J = e_{vs0} - ρ e_{vs1};
- distance (1 row): g = |p_WQ - p_WP| - d, J = ûᵀ (J_Q - J_P), û = (p_WQ - p_WP)/|·|
  (û = ẑ when P and Q coincide);
- ball (3 rows): g = p_WQ - p_WP, J = J_Q - J_P;
- weld (6 rows): the ball rows of the frame origins Po, Qo, then g = R_WP θ(R_PQ)
  (θ the rotation vector) with J = J_ω,B - J_ω,A (ω_WB - ω_WA in W).

Tendon tables (``ConstraintRows.tendon_tables``), one entry per tendon constraint t:
``tendon_start`` (nt + 1,) int64, the tendon's joints being entries
tendon_start[t]..tendon_start[t+1]-1 of ``tendon_qv`` (nnz, 2) int64 (position and
velocity index of each one-dof joint, q̇ = v) and ``tendon_a`` (nnz,) (its coefficient);
``tendon_params`` (nt, TENDON_PARAMS): [offset, lₗ, lᵤ, k, c]. A tendon whose length
l₀ = aᵀ q₀ + offset violates a limit at the step's start gives a unilateral row per
finite limit (`tendon_rows`): lower g = l₀ - lₗ, J = aᵀ; upper g = lᵤ - l₀, J = -aᵀ.
"""

import math

import numpy as np

from merganser.framework.compilation import kernel
from merganser.multibody.contact.contact_kernels import (
    add_angular_jacobian, add_point_jacobian, point_motion,
)
from merganser.multibody.kernels.layout import IP_NV, IP_PARENT, IP_VS, WS_PW, WS_RW

__all__ = ["COUPLER", "DISTANCE", "BALL", "WELD", "ROWS_OF_KIND", "INT_PARAMS", "FLOAT_PARAMS",
           "SIGMA_BILATERAL", "HOLONOMIC_BETA", "LIMIT_STIFFNESS", "LIMIT_BETA", "LIMIT_WINDOW_FACTOR",
           "constraint_rows", "bilateral_regularization", "limit_rows", "limit_regularization",
           "num_limit_rows", "constraint_delassus", "TENDON_PARAMS", "num_tendon_rows",
           "tendon_rows", "rotation_vector"]

COUPLER, DISTANCE, BALL, WELD = 0, 1, 2, 3
ROWS_OF_KIND = (1, 1, 3, 6)
INT_PARAMS = 4
FLOAT_PARAMS = 24
SIGMA_BILATERAL = 1.0e-6            # regularization of rigid bilateral rows (× w), lcp only
HOLONOMIC_BETA = 0.1                # near-rigid threshold of the bilateral rows (Drake's)
# Joint limits (Drake's SapDriver): near-rigid unilateral rows, stiffness 10¹², dissipation
# time scale h, near-rigid threshold β = 0.1, added while a limit lies within
# LIMIT_WINDOW_FACTOR · h · max(|v₀|, |v*|) of q₀
LIMIT_STIFFNESS = 1.0e12
LIMIT_BETA = 0.1
LIMIT_WINDOW_FACTOR = 2.0
TENDON_PARAMS = 5                   # offset, lower limit, upper limit, stiffness, damping

_I3 = np.eye(3)


@kernel(inline=False)
def _mul(a, b):
    """a b of row-major 3×3 9-tuples."""
    return (a[0] * b[0] + a[1] * b[3] + a[2] * b[6], a[0] * b[1] + a[1] * b[4] + a[2] * b[7],
            a[0] * b[2] + a[1] * b[5] + a[2] * b[8],
            a[3] * b[0] + a[4] * b[3] + a[5] * b[6], a[3] * b[1] + a[4] * b[4] + a[5] * b[7],
            a[3] * b[2] + a[4] * b[5] + a[5] * b[8],
            a[6] * b[0] + a[7] * b[3] + a[8] * b[6], a[6] * b[1] + a[7] * b[4] + a[8] * b[7],
            a[6] * b[2] + a[7] * b[5] + a[8] * b[8])


@kernel(inline=False)
def _mul_transpose(a, b):
    """aᵀ b of row-major 3×3 9-tuples."""
    return (a[0] * b[0] + a[3] * b[3] + a[6] * b[6], a[0] * b[1] + a[3] * b[4] + a[6] * b[7],
            a[0] * b[2] + a[3] * b[5] + a[6] * b[8],
            a[1] * b[0] + a[4] * b[3] + a[7] * b[6], a[1] * b[1] + a[4] * b[4] + a[7] * b[7],
            a[1] * b[2] + a[4] * b[5] + a[7] * b[8],
            a[2] * b[0] + a[5] * b[3] + a[8] * b[6], a[2] * b[1] + a[5] * b[4] + a[8] * b[7],
            a[2] * b[2] + a[5] * b[5] + a[8] * b[8])


@kernel(inline=False)
def _load9(a, row, off):
    """a[row, off:off+9] as a 9-tuple."""
    return (a[row, off], a[row, off + 1], a[row, off + 2], a[row, off + 3], a[row, off + 4],
            a[row, off + 5], a[row, off + 6], a[row, off + 7], a[row, off + 8])


@kernel(inline=False)
def _point_in_world(ws, node, f, row, off):
    """p_WP = p_WBo + R_WB p_BP of the point f[row, off:off+3] fixed on `node`'s body B."""
    x, y, z = f[row, off], f[row, off + 1], f[row, off + 2]
    return (ws[node, WS_PW] + ws[node, WS_RW] * x + ws[node, WS_RW + 1] * y
            + ws[node, WS_RW + 2] * z,
            ws[node, WS_PW + 1] + ws[node, WS_RW + 3] * x + ws[node, WS_RW + 4] * y
            + ws[node, WS_RW + 5] * z,
            ws[node, WS_PW + 2] + ws[node, WS_RW + 6] * x + ws[node, WS_RW + 7] * y
            + ws[node, WS_RW + 8] * z)


@kernel(inline=False)
def rotation_vector(R):
    """Rotation vector θ k (3-tuple) of the row-major rotation 9-tuple R.

    With R = c I + (1 - c) k kᵀ + s [k]× (c = cos θ, s = sin θ): c = (tr R - 1)/2,
    2 s k = w the axial vector of R - Rᵀ and θ = atan2(|w|/2, c) (accurate over [0, π],
    unlike acos(c) near π). Where s < 10⁻⁹ the axis is not taken from w/|w|: near θ = 0
    the vector is w/2; near θ = π, k comes from the diagonal (k_i² = (R_ii - c)/(1 - c),
    the largest taken positive, the others signed by R_ij) and is turned towards w (at
    θ = π exactly, θ k and -θ k are the same rotation).
    """
    c = min(max(0.5 * (R[0] + R[4] + R[8] - 1.0), -1.0), 1.0)
    w0, w1, w2 = R[7] - R[5], R[2] - R[6], R[3] - R[1]
    s = 0.5 * math.sqrt(w0 * w0 + w1 * w1 + w2 * w2)
    angle = math.atan2(s, c)
    if s >= 1e-9:
        f = angle / (2.0 * s)
        return f * w0, f * w1, f * w2
    if c > 0.0:
        return 0.5 * w0, 0.5 * w1, 0.5 * w2
    k = (math.sqrt(max((R[0] - c) / (1.0 - c), 0.0)), math.sqrt(max((R[4] - c) / (1.0 - c), 0.0)),
         math.sqrt(max((R[8] - c) / (1.0 - c), 0.0)))
    i = 0
    if k[1] > k[i]:
        i = 1
    if k[2] > k[i]:
        i = 2
    j, l = (i + 1) % 3, (i + 2) % 3
    kj = math.copysign(k[j], R[3 * i + j])
    kl = math.copysign(k[l], R[3 * i + l])
    x0 = k[0] if i == 0 else (kj if j == 0 else kl)
    x1 = k[1] if i == 1 else (kj if j == 1 else kl)
    x2 = k[2] if i == 2 else (kj if j == 2 else kl)
    f = angle / math.sqrt(x0 * x0 + x1 * x1 + x2 * x2)
    if x0 * w0 + x1 * w1 + x2 * w2 < 0.0:
        f = -f
    return f * x0, f * x1, f * x2


@kernel(inline=False)
def _add_projected_point_jacobian(ws, ip, node, px, py, pz, sign, ux, uy, uz, J, row):
    """J[row] += sign * ûᵀ J_p, J_p the translational Jacobian in W of the point p fixed
    on `node` (û in W)."""
    a = node
    while a > 0:
        vs = ip[a, IP_VS]
        for j in range(ip[a, IP_NV]):
            vx, vy, vz = point_motion(ws, a, j, px, py, pz)
            J[row, vs + j] += sign * (ux * vx + uy * vy + uz * vz)
        a = ip[a, IP_PARENT]


@kernel(inline=False)
def _weld_rows(ip, ws, na, nb, f, i, J, r, g):
    """The six weld rows r..r+5 of constraint i (rows zeroed by the caller)."""
    px, py, pz = _point_in_world(ws, na, f, i, 9)
    qx, qy, qz = _point_in_world(ws, nb, f, i, 21)
    add_point_jacobian(ws, ip, nb, qx, qy, qz, 1.0, _I3, J, r)
    add_point_jacobian(ws, ip, na, px, py, pz, -1.0, _I3, J, r)
    g[r], g[r + 1], g[r + 2] = qx - px, qy - py, qz - pz
    add_angular_jacobian(ws, ip, nb, 1.0, J, r + 3)
    add_angular_jacobian(ws, ip, na, -1.0, J, r + 3)
    R_WP = _mul(_load9(ws, na, WS_RW), _load9(f, i, 0))
    R_WQ = _mul(_load9(ws, nb, WS_RW), _load9(f, i, 12))
    t0, t1, t2 = rotation_vector(_mul_transpose(R_WP, R_WQ))
    g[r + 3] = R_WP[0] * t0 + R_WP[1] * t1 + R_WP[2] * t2
    g[r + 4] = R_WP[3] * t0 + R_WP[4] * t1 + R_WP[5] * t2
    g[r + 5] = R_WP[6] * t0 + R_WP[7] * t1 + R_WP[8] * t2


@kernel(inline=False)
def constraint_rows(ip, ws, kinds, int_params, float_params, q, J, g, stiffness, damping):
    """Write the constraint rows (see the module docstring) into J[:m] (nv columns),
    g[:m], stiffness[:m] (inf for rigid rows) and damping[:m]; m = Σ rows of each kind.

    `ws` must hold the world poses and motion subspaces of `q` (`pose_pass`). Returns m.
    """
    nv = J.shape[1]
    r = 0
    for i in range(kinds.shape[0]):
        kind = kinds[i]
        nr = ROWS_OF_KIND[kind]
        for a in range(r, r + nr):
            for c in range(nv):
                J[a, c] = 0.0
            stiffness[a] = np.inf
            damping[a] = 0.0
        if kind == COUPLER:
            rho = float_params[i, 0]
            J[r, int_params[i, 2]] += 1.0
            J[r, int_params[i, 3]] -= rho
            g[r] = q[int_params[i, 0]] - rho * q[int_params[i, 1]] - float_params[i, 1]
        elif kind == WELD:
            _weld_rows(ip, ws, int_params[i, 0], int_params[i, 1], float_params, i, J, r, g)
        else:
            na, nb = int_params[i, 0], int_params[i, 1]
            px, py, pz = _point_in_world(ws, na, float_params, i, 0)
            qx, qy, qz = _point_in_world(ws, nb, float_params, i, 3)
            ux, uy, uz = qx - px, qy - py, qz - pz
            if kind == BALL:
                add_point_jacobian(ws, ip, nb, qx, qy, qz, 1.0, _I3, J, r)
                add_point_jacobian(ws, ip, na, px, py, pz, -1.0, _I3, J, r)
                g[r], g[r + 1], g[r + 2] = ux, uy, uz
            else:
                length = math.sqrt(ux * ux + uy * uy + uz * uz)
                if length > 1e-12:
                    ux, uy, uz = ux / length, uy / length, uz / length
                else:
                    ux, uy, uz = 0.0, 0.0, 1.0
                _add_projected_point_jacobian(ws, ip, nb, qx, qy, qz, 1.0, ux, uy, uz, J, r)
                _add_projected_point_jacobian(ws, ip, na, px, py, pz, -1.0, ux, uy, uz, J, r)
                g[r] = length - float_params[i, 6]
                stiffness[r] = float_params[i, 7]
                damping[r] = float_params[i, 8]
        r += nr
    return r


@kernel(inline=False)
def constraint_delassus(J, A, kinds, w):
    """The Delassus estimate of the bilateral rows as Drake's SAP takes it per constraint:
    each of the nᵢ rows of constraint i gets ‖Wᵢ‖_F / nᵢ, Wᵢ = Jᵢ diag(A)⁻¹ Jᵢᵀ (nᵢ × nᵢ)
    from its rows Jᵢ of J and the dynamics matrix A (nv, nv); into w."""
    nv = J.shape[1]
    r = 0
    for i in range(kinds.shape[0]):
        ni = ROWS_OF_KIND[kinds[i]]
        s = 0.0
        for a in range(ni):
            for b in range(ni):
                x = 0.0
                for c in range(nv):
                    x += J[r + a, c] * J[r + b, c] / A[c, c]
                s += x * x
        value = math.sqrt(s) / ni
        for a in range(ni):
            w[r + a] = value
        r += ni


@kernel(inline=False)
def bilateral_regularization(m, h, w, g, stiffness, damping, R, vhat):
    """Regularization R[:m] and bias v̂[:m] of the bilateral rows for SAP (Drake's
    SapHolonomicConstraint, near-rigid threshold β = HOLONOMIC_BETA).

    A row of stiffness k and damping c has the relaxation time τ = c/k (0 for a rigid row,
    k = ∞) and the compliant R_c = 1/(h (h + τ) k) (0 when rigid); the near-rigid bound is
    R_r = β²/(4π²) w (w the row's Delassus estimate, floored at 10⁻¹²). R = max(R_c, R_r),
    and where R_r wins τ becomes h (a critically damped constraint); v̂ = -g/(h + τ).
    """
    near_rigid = HOLONOMIC_BETA * HOLONOMIC_BETA / (4.0 * math.pi * math.pi)
    for j in range(m):
        k = stiffness[j]
        tau = 0.0
        compliant = 0.0
        if math.isfinite(k):
            tau = damping[j] / k
            compliant = 1.0 / (h * (h + tau) * k)
        rigid = near_rigid * max(w[j], 1e-12)
        if compliant < rigid:
            R[j] = rigid
            tau = h
        else:
            R[j] = compliant
        vhat[j] = -g[j] / (h + tau)


@kernel
def _limits_in_window(q0, v0, vstar, h, lower, upper):
    """(lower, upper): whether each finite limit lies within the step's window
    q₀ ± LIMIT_WINDOW_FACTOR h max(|v₀|, |v*|) (Drake's SapDriver)."""
    dq = LIMIT_WINDOW_FACTOR * h * max(abs(v0), abs(vstar))
    return (math.isfinite(lower) and not lower < q0 - dq,
            math.isfinite(upper) and not upper > q0 + dq)


@kernel(inline=False)
def num_limit_rows(q, v0, vstar, h, limit_qv, limit_lower, limit_upper):
    """The number of rows `limit_rows` gives for this state and v*."""
    n = 0
    for i in range(limit_qv.shape[0]):
        iq, iv = limit_qv[i, 0], limit_qv[i, 1]
        lo, up = _limits_in_window(q[iq], v0[iv], vstar[iv], h, limit_lower[i],
                                   limit_upper[i])
        n += int(lo) + int(up)
    return n


@kernel(inline=False)
def limit_rows(q, v0, vstar, h, limit_qv, limit_lower, limit_upper, J, g, row_dof):
    """The joint-limit rows of the step (Drake's SapLimitConstraint), into J (rows, nv),
    g and row_dof; returns their count.

    Per one-dof joint i (position index limit_qv[i, 0], velocity index limit_qv[i, 1],
    q̇ = v) a finite limit within the window q₀ ± LIMIT_WINDOW_FACTOR h max(|v₀|, |v*|)
    gives a row: the lower limit g = q₀ - q_l with J = e_v, the upper g = q_u - q₀ with
    J = -e_v (lower first). row_dof[r] is the row's velocity index, negated minus one for
    an upper limit. J's rows are overwritten whole; g ≥ 0 while the limit holds, and the
    row's impulse γ ≥ 0 pushes away from it.
    """
    nv = J.shape[1]
    n = 0
    for i in range(limit_qv.shape[0]):
        iq, iv = limit_qv[i, 0], limit_qv[i, 1]
        q0 = q[iq]
        lower, upper = limit_lower[i], limit_upper[i]
        lo, up = _limits_in_window(q0, v0[iv], vstar[iv], h, lower, upper)
        if lo:
            for c in range(nv):
                J[n, c] = 0.0
            J[n, iv] = 1.0
            g[n] = q0 - lower
            row_dof[n] = iv
            n += 1
        if up:
            for c in range(nv):
                J[n, c] = 0.0
            J[n, iv] = -1.0
            g[n] = upper - q0
            row_dof[n] = -iv - 1
            n += 1
    return n


@kernel(inline=False)
def limit_regularization(n, h, w, g, R, vhat):
    """Regularization R[:n] and bias v̂[:n] of the joint-limit rows (Drake's
    SapLimitConstraint): R = max(β²/(4π²) w, 1/(h k (h + τ))) with k = LIMIT_STIFFNESS,
    τ = h and β = LIMIT_BETA, and v̂ = -g/(h + τ)."""
    near_rigid = LIMIT_BETA * LIMIT_BETA / (4.0 * math.pi * math.pi)
    compliant = 1.0 / (h * LIMIT_STIFFNESS * (h + h))
    for j in range(n):
        R[j] = max(near_rigid * w[j], compliant)
        vhat[j] = -g[j] / (h + h)


@kernel
def _tendon_length(q, t, tendon_start, tendon_qv, tendon_a, tendon_params):
    """l₀ = aᵀ q + offset of tendon t."""
    length = 0.0
    for e in range(tendon_start[t], tendon_start[t + 1]):
        length += tendon_a[e] * q[tendon_qv[e, 0]]
    return length + tendon_params[t, 0]


@kernel(inline=False)
def num_tendon_rows(q, tendon_start, tendon_qv, tendon_a, tendon_params):
    """The number of rows `tendon_rows` gives for this state."""
    n = 0
    for t in range(tendon_params.shape[0]):
        length = _tendon_length(q, t, tendon_start, tendon_qv, tendon_a, tendon_params)
        lower, upper = tendon_params[t, 1], tendon_params[t, 2]
        if length - lower < 0.0 or upper - length < 0.0:
            n += int(math.isfinite(lower)) + int(math.isfinite(upper))
    return n


@kernel(inline=False)
def tendon_rows(q, tendon_start, tendon_qv, tendon_a, tendon_params, J, g, stiffness,
                damping):
    """The tendon rows of the step (Drake's SapTendonConstraint, added where the start
    violates a limit, as Drake's SapDriver): per such tendon a row per finite limit,
    lower first (module docstring), into J (rows, nv; overwritten whole), g, stiffness
    and damping (the tendon's k and c); returns their count. g ≥ 0 while the limit
    holds, and the row's impulse γ ≥ 0 pushes l back within it."""
    nv = J.shape[1]
    n = 0
    for t in range(tendon_params.shape[0]):
        length = _tendon_length(q, t, tendon_start, tendon_qv, tendon_a, tendon_params)
        lower, upper = tendon_params[t, 1], tendon_params[t, 2]
        if not (length - lower < 0.0 or upper - length < 0.0):
            continue
        for side in range(2):
            limit = tendon_params[t, 1 + side]
            if not math.isfinite(limit):
                continue
            sign = 1.0 if side == 0 else -1.0
            for c in range(nv):
                J[n, c] = 0.0
            for e in range(tendon_start[t], tendon_start[t + 1]):
                J[n, tendon_qv[e, 1]] += sign * tendon_a[e]
            g[n] = sign * (length - limit)
            stiffness[n] = tendon_params[t, 3]
            damping[n] = tendon_params[t, 4]
            n += 1
    return n
