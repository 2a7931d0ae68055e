"""TAMSI: the Transition-Aware Modified Semi-Implicit scheme (Castro et al., 2019).

The next velocities solve the (non-symmetric, non-convex) residual equations

    R(v) = M (v - v*) - Jᵀ γ(J v) = 0

with, per contact (vc = [vt; vn], vn > 0 separating, x₀ the penetration):

    γn = h k (x₀ - h vn)₊ (1 - d vn)₊                     (Hunt & Crossley, implicit x)
    γt = -μ(‖vt‖) γn vt/‖vt‖,  μ(s) = μ (s/vs)(2 - s/vs) for s < vs, μ above,

vs the stiction tolerance. Newton-Raphson uses the exact Jacobian M + Jᵀ G J
(G = -∂γ/∂vc); its transition-aware line search limits each iteration so that a
tangential velocity does not jump across the stiction region or turn by more than 60°
(the step then lands where the tangential velocity is smallest); the step is then
halved while it does not decrease the scaled residual norm (damped Newton).

Reference
---------
A. M. Castro, A. Qu, N. Kuppuswamy, A. Alspach, M. Sherman, "A transition-aware method for
the simulation of compliant contact with regularized friction", IEEE RA-L 5(2), 2020.
"""

import math

import numpy as np

from merganser.framework.compilation import kernel
from merganser.multibody.contact.contact_kernels import contact_jacobian
from merganser.multibody.contact.linalg import (block_columns, momentum_residual, sparse_matvec,
                                      sparse_matvec_transpose)
from merganser.multibody.contact.problem_kernels import generalized_impulse

_COS_MAX = 0.5  # cos 60°


@kernel(allocates=True, inline=False)
def _tamsi_contact(vt0, vt1, vn, mu, h, k, d, x0, vs, g, G):
    """Impulse g (3,) and G = -dγ/dvc (3, 3) of one contact."""
    x = x0 - h * vn
    damp = 1.0 - d * vn
    for a in range(3):
        for b in range(3):
            G[a, b] = 0.0
    if x <= 0.0 or damp <= 0.0:
        g[0], g[1], g[2] = 0.0, 0.0, 0.0
        return
    gn = h * k * x * damp
    dgn = -h * k * (h * damp + d * x)
    s = math.sqrt(vt0 * vt0 + vt1 * vt1)
    if s < vs:
        f = mu * (2.0 - s / vs) / vs          # μ(s)/s
        fp = -mu / (vs * vs)                  # d(μ(s)/s)/ds
    else:
        f = mu / s
        fp = -mu / (s * s)
    g[0], g[1], g[2] = -gn * f * vt0, -gn * f * vt1, gn
    c = gn * fp / s if s > 0.0 else 0.0
    G[0, 0] = gn * f + c * vt0 * vt0
    G[0, 1] = c * vt0 * vt1
    G[1, 0] = G[0, 1]
    G[1, 1] = gn * f + c * vt1 * vt1
    G[0, 2] = dgn * f * vt0
    G[1, 2] = dgn * f * vt1
    G[2, 2] = -dgn


@kernel(allocates=True, inline=False)
def _limit(vt0, vt1, d0, d1, vs):
    """Transition-aware step fraction for one contact's tangential update."""
    s = math.sqrt(vt0 * vt0 + vt1 * vt1)
    n0, n1 = vt0 + d0, vt1 + d1
    sn = math.sqrt(n0 * n0 + n1 * n1)
    if s <= vs or sn <= vs:
        return 1.0
    dd = d0 * d0 + d1 * d1
    a_star = -(vt0 * d0 + vt1 * d1) / dd if dd > 0.0 else 0.0
    if 0.0 < a_star < 1.0:
        m0, m1 = vt0 + a_star * d0, vt1 + a_star * d1
        if math.sqrt(m0 * m0 + m1 * m1) < vs:
            return a_star
    if (vt0 * n0 + vt1 * n1) >= _COS_MAX * s * sn:
        return 1.0
    lo, hi = 0.0, 1.0
    for _ in range(30):
        a = 0.5 * (lo + hi)
        m0, m1 = vt0 + a * d0, vt1 + a * d1
        sm = math.sqrt(m0 * m0 + m1 * m1)
        if (vt0 * m0 + vt1 * m1) >= _COS_MAX * s * sm:
            lo = a
        else:
            hi = a
    return max(lo, 1e-3)


@kernel(allocates=True, inline=False)
def _solve_in_place(A, n, b):
    """Gaussian elimination with partial pivoting on A[:n,:n] x = b (both overwritten).

    Each row remembers its last nonzero column (``end``), so that row updates skip the
    zero tail of the pivot row (block-sparse Jacobians of bodies coupled by contacts);
    rows with a zero in the pivot column are skipped.
    """
    end = np.empty(n, np.int64)
    for r in range(n):
        e = 0
        for k in range(n - 1, -1, -1):
            if A[r, k] != 0.0:
                e = k
                break
        end[r] = e
    for c in range(n):
        p = c
        for r in range(c + 1, n):
            if abs(A[r, c]) > abs(A[p, c]):
                p = r
        if A[p, c] == 0.0:
            return False
        if p != c:
            for k in range(c, n):
                A[c, k], A[p, k] = A[p, k], A[c, k]
            b[c], b[p] = b[p], b[c]
            end[c], end[p] = end[p], end[c]
        ec = end[c]
        for r in range(c + 1, n):
            if A[r, c] == 0.0:
                continue
            f = A[r, c] / A[c, c]
            if f != 0.0:
                for k in range(c, ec + 1):
                    A[r, k] -= f * A[c, k]
                b[r] -= f * b[c]
                if ec > end[r]:
                    end[r] = ec
    for r in range(n - 1, -1, -1):
        s = b[r]
        for k in range(r + 1, n):
            s -= A[r, k] * b[k]
        b[r] = s / A[r, r]
    return True


@kernel(allocates=True, inline=False)
def tamsi_solve(M, vstar, v, J, nc, mu, h, k, d, x0, vs, rel_tol, abs_tol, max_iter, gamma,
                vc):
    """Newton-Raphson with the transition-aware line search (see the module docstring).

    `v` holds the initial guess and receives the solution; gamma and vc (3 nc) receive
    the impulses and contact velocities. Returns (iterations, residual), iterations < 0
    when it did not converge.
    """
    nv = M.shape[0]
    m = max(nc, 1)
    # the work arrays: views of one int and one float buffer (one allocation each)
    iw = np.zeros(m * nv + m + nv * nv + nv, np.int64)
    cols = iw[:m * nv].reshape((m, nv))
    ncols = iw[m * nv:m * nv + m]
    o = m * nv + m
    mcols = iw[o:o + nv * nv].reshape((nv, nv))
    mn = iw[o + nv * nv:o + nv * nv + nv]
    fw = np.zeros(nv * (8 + nv) + 18 * m + 9 * nc + 3)
    D, Mr, jg, res, vt, Mr2, jg2, dv = (fw[0:nv], fw[nv:2 * nv], fw[2 * nv:3 * nv],
                                        fw[3 * nv:4 * nv], fw[4 * nv:5 * nv],
                                        fw[5 * nv:6 * nv], fw[6 * nv:7 * nv],
                                        fw[7 * nv:8 * nv])
    o = 8 * nv
    H = fw[o:o + nv * nv].reshape((nv, nv))
    o += nv * nv
    Gc = fw[o:o + 9 * m].reshape((m, 3, 3))
    Gt = fw[o + 9 * m:o + 18 * m].reshape((m, 3, 3))
    o += 18 * m
    dvc, vct, gt = fw[o:o + 3 * nc], fw[o + 3 * nc:o + 6 * nc], fw[o + 6 * nc:o + 9 * nc]
    g = fw[o + 9 * nc:o + 9 * nc + 3]
    block_columns(J, nc, 0, cols, ncols)
    for c in range(nv):
        D[c] = 1.0 / math.sqrt(M[c, c])
    # nonzero columns of every row of M (block diagonal for free bodies)
    for a in range(nv):
        for b in range(nv):
            if M[a, b] != 0.0:
                mcols[a, mn[a]] = b
                mn[a] += 1
    residual = 0.0
    for it in range(max_iter + 1):
        sparse_matvec(J, nc, 0, cols, ncols, v, vc)
        for i in range(nc):
            _tamsi_contact(vc[3 * i], vc[3 * i + 1], vc[3 * i + 2], mu[i], h, k[i], d[i],
                           x0[i], vs, g, Gc[i])
            gamma[3 * i], gamma[3 * i + 1], gamma[3 * i + 2] = g[0], g[1], g[2]
        _sparse_m_times(M, mcols, mn, v, vstar, dv, Mr)
        sparse_matvec_transpose(J, nc, 0, cols, ncols, gamma, jg)
        err, scale = momentum_residual(Mr, jg, D, res, nv)
        residual = err / scale if scale > 0.0 else 0.0
        if err <= abs_tol + rel_tol * scale:
            return it, residual
        if it == max_iter:
            break
        for a in range(nv):
            for b in range(nv):
                H[a, b] = M[a, b]
        for i in range(nc):
            r0 = 3 * i
            for p in range(ncols[i]):
                ca = cols[i, p]
                u0 = Gc[i, 0, 0] * J[r0, ca] + Gc[i, 0, 1] * J[r0 + 1, ca] + Gc[i, 0, 2] * J[r0 + 2, ca]
                u1 = Gc[i, 1, 0] * J[r0, ca] + Gc[i, 1, 1] * J[r0 + 1, ca] + Gc[i, 1, 2] * J[r0 + 2, ca]
                u2 = Gc[i, 2, 0] * J[r0, ca] + Gc[i, 2, 1] * J[r0 + 1, ca] + Gc[i, 2, 2] * J[r0 + 2, ca]
                for qq in range(ncols[i]):
                    cb = cols[i, qq]
                    H[cb, ca] += J[r0, cb] * u0 + J[r0 + 1, cb] * u1 + J[r0 + 2, cb] * u2
        for a in range(nv):
            res[a] = -res[a]
        if not _solve_in_place(H, nv, res):
            return -(it + 1), residual
        sparse_matvec(J, nc, 0, cols, ncols, res, dvc)
        alpha = 1.0
        for i in range(nc):
            a = _limit(vc[3 * i], vc[3 * i + 1], dvc[3 * i], dvc[3 * i + 1], vs)
            if a < alpha:
                alpha = a
        # damped Newton: backtrack while the scaled residual does not decrease
        e0 = err
        for bt in range(8):
            for a in range(nv):
                vt[a] = v[a] + alpha * res[a]
            e_trial = _residual_norm(M, mcols, mn, vstar, vt, J, nc, cols, ncols, mu, h, k, d,
                                     x0, vs, D, vct, gt, g, Gt, dv, Mr2, jg2)
            if e_trial <= (1.0 - 1e-4 * alpha) * e0 or bt == 7:
                break
            alpha *= 0.5
        for a in range(nv):
            v[a] = vt[a]
    return -max(max_iter, 1), residual


@kernel(allocates=True, inline=False)
def _sparse_m_times(M, mcols, mn, v, vstar, dv, out):
    """out = M (v - v*) over the nonzero columns ``mcols[a, :mn[a]]`` of each row a."""
    nv = M.shape[0]
    for b in range(nv):
        dv[b] = v[b] - vstar[b]
    for a in range(nv):
        s = 0.0
        for p in range(mn[a]):
            b = mcols[a, p]
            s += M[a, b] * dv[b]
        out[a] = s


@kernel(allocates=True, inline=False)
def _residual_norm(M, mcols, mn, vstar, v, J, nc, cols, ncols, mu, h, k, d, x0, vs, D, vc,
                   gamma, g, Gc, dv, Mr, jg):
    """‖D R(v)‖ (scratch: vc, gamma, g, Gc, dv, Mr, jg)."""
    nv = M.shape[0]
    sparse_matvec(J, nc, 0, cols, ncols, v, vc)
    for i in range(nc):
        _tamsi_contact(vc[3 * i], vc[3 * i + 1], vc[3 * i + 2], mu[i], h, k[i], d[i], x0[i], vs,
                       g, Gc[i])
        gamma[3 * i], gamma[3 * i + 1], gamma[3 * i + 2] = g[0], g[1], g[2]
    sparse_matvec_transpose(J, nc, 0, cols, ncols, gamma, jg)
    _sparse_m_times(M, mcols, mn, v, vstar, dv, Mr)
    e2 = 0.0
    for a in range(nv):
        e2 += (D[a] * (Mr[a] - jg[a])) ** 2
    return math.sqrt(e2)


@kernel(allocates=True, inline=False)
def tamsi_step(ip, fp, ws, q, v0, vdot, M, h, nc, node_a, node_b, p_WC, R_WC, phi0, mu, k,
               d, vs, rel_tol, abs_tol, max_iter, J, v, gamma, vc, tau):
    """One TAMSI step in a single call: the contact Jacobian J (3 nc, nv) in the contact
    frames, v* = v₀ + h v̇, the solve from the guess v = v₀, and τ = Jᵀγ/h (nv,).

    `node_a` ... `mu`, `k`, `d` are the per-contact arrays of
    `multibody.contact.contact_manager.PointContactSet` (first nc valid); J, v, gamma,
    vc and tau are outputs. Returns (iterations, residual) as `tamsi_solve`, with
    iterations < 0 also when the solution v is not finite.
    """
    contact_jacobian(ip, fp, ws, q, nc, node_a, node_b, p_WC, R_WC, J)
    nv = v.shape[0]
    w = np.empty(nv + nc)               # v* and x₀, one allocation
    vstar, x0 = w[:nv], w[nv:]
    for c in range(nv):
        vstar[c] = v0[c] + h * vdot[c]
        v[c] = v0[c]
    for i in range(nc):
        x0[i] = -phi0[i]
    it, residual = tamsi_solve(M, vstar, v, J, nc, mu, h, k, d, x0, vs, rel_tol, abs_tol,
                               max_iter, gamma, vc)
    generalized_impulse(J, gamma, 3 * nc, h, tau)
    for c in range(nv):
        if not math.isfinite(v[c]):
            return -max(max_iter, 1), residual
    return it, residual
